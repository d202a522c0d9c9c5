// SPDX-License-Identifier: Apache-2.0
// A local OpenID Connect / OAuth 2 provider (npm oidc-provider) that stands in for the social
// login providers in `make demo` and the tests: its login page takes any login name (the
// password is not checked), then asks for consent, then returns to the client's redirect URI.
//
// Usage: node devidp/idp.mjs --port PORT --redirect URI [--redirect URI ...]
// Prints one JSON line when it listens: {"issuer", "clients": [{"id", "clientId", "clientSecret"}]}.
//
// Clients (one per provider it stands in for; all with PKCE required):
//   sigil-google, sigil-github, sigil-x, sigil-discord, sigil-facebook, sigil-apple, sigil-company
// Accounts: the login name is the subject. Known ones:
//   alice  alice@example.com, verified        bob  bob@example.com, verified
//   eve    alice@example.com, NOT verified    carol  no email
// Any other name gets <name>@example.com, verified.
//
// Its pages are its own (below), self-contained: no script, no font, no image, nothing from
// another origin (the Content-Security-Policy forbids it), so a browser at the login page
// talks to 127.0.0.1 only.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import Provider, { errors } from 'oidc-provider';

export const PROVIDERS = ['google', 'github', 'x', 'discord', 'facebook', 'apple', 'company'];

const ACCOUNTS = {
  alice: { email: 'alice@example.com', email_verified: true, name: 'Alice Liddell' },
  bob: { email: 'bob@example.com', email_verified: true, name: 'Bob' },
  eve: { email: 'alice@example.com', email_verified: false, name: 'Eve' },
  carol: { name: 'Carol' },
};

/** The name each client stands in for, shown on the pages. */
const LABELS = { google: 'Google', github: 'GitHub', x: 'X', discord: 'Discord', facebook: 'Facebook', apple: 'Apple', company: 'Company' };

/** What the consent page says a scope gives. */
const SCOPES = {
  email: 'your email address, and whether it is verified',
  profile: 'your name and username',
};

const STYLE = `
:root { color-scheme: light dark; --fg: #1c1d21; --muted: #5f6470; --bg: #f3f4f6; --card: #fff; --line: #d5d8de; --accent: #2f5bd3; --on-accent: #fff; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e8e9ec; --muted: #a3a8b3; --bg: #15161a; --card: #1f2126; --line: #3a3d45; --accent: #7b9cff; --on-accent: #0d1020; }
}
* { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; display: flex; align-items: flex-start; justify-content: center; padding: 2.5rem 1rem; background: var(--bg); color: var(--fg); font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { width: 100%; max-width: 22rem; background: var(--card); border: 1px solid var(--line); border-radius: 12px; padding: 1.5rem 1.5rem 1.25rem; }
.tag { margin: 0 0 1rem; font-size: .8rem; color: var(--muted); letter-spacing: .02em; }
.tag b { color: var(--fg); }
h1 { margin: 0 0 .35rem; font-size: 1.4rem; font-weight: 600; }
p { margin: 0 0 1rem; }
.lead { color: var(--muted); }
label { display: block; margin: 0 0 .3rem; font-size: .9rem; font-weight: 500; }
input { display: block; width: 100%; margin: 0 0 .9rem; padding: .6rem .7rem; font: inherit; color: inherit; background: var(--card); border: 1px solid var(--line); border-radius: 8px; }
input:focus { outline: 2px solid var(--accent); outline-offset: 1px; border-color: var(--accent); }
ul { margin: 0 0 1.1rem; padding-left: 1.2rem; }
li + li { margin-top: .25rem; }
code { font: .9em ui-monospace, SFMono-Regular, Menlo, monospace; white-space: nowrap; }
button { display: block; width: 100%; margin: .3rem 0 0; padding: .7rem; font: inherit; font-weight: 600; color: var(--on-accent); background: var(--accent); border: 0; border-radius: 8px; cursor: pointer; }
button:focus-visible { outline: 2px solid var(--fg); outline-offset: 2px; }
.cancel { margin: 1rem 0 0; text-align: center; font-size: .9rem; }
.cancel a { color: var(--muted); }
dl { margin: 0 0 1rem; font-size: .9rem; }
dt { font-weight: 600; }
dd { margin: 0 0 .5rem; color: var(--muted); overflow-wrap: anywhere; }
`;

// Nothing from anywhere: the one inline style by its hash. No form-action: Chromium checks it on
// every redirect of a form's navigation, and the consent form's ends at the client's redirect
// URI or, for a full-page login, at the page that started it (an origin devidp does not know).
const CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; frame-ancestors 'none'`;

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** Text escaped for HTML content and (double-quoted) attribute values. */
const esc = (value) => String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** A whole page: `body` is HTML (its interpolations escaped by the caller). */
function page(title, body) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)} · devidp</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

function send(res, status, html) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(html);
}

/** The line over each page: which provider this stands in for, and for which client. */
function tag(clientId) {
  const label = LABELS[String(clientId).replace(/^sigil-/, '')];
  return `<p class="tag">devidp${label ? ` · standing in for <b>${esc(label)}</b>` : ''} · <code>${esc(clientId)}</code></p>`;
}

const cancel = (uid) => `<p class="cancel"><a href="/interaction/${esc(uid)}/abort">[ Cancel ]</a></p>`;

function loginPage({ uid, params }) {
  const hint = params.login_hint ? ` value="${esc(params.login_hint)}"` : '';
  return page(
    'Sign-in',
    `${tag(params.client_id)}
<h1>Sign-in</h1>
<p class="lead">A test provider: any login name works, and the password is not checked.</p>
<form method="post" action="/interaction/${esc(uid)}">
<input type="hidden" name="prompt" value="login">
<label for="login">Login name</label>
<input id="login" type="text" name="login" required${hint} ${hint ? '' : 'autofocus '}autocomplete="username" autocapitalize="none" spellcheck="false" placeholder="alice">
<label for="password">Password</label>
<input id="password" type="password" name="password"${hint ? ' autofocus' : ''} autocomplete="current-password" placeholder="anything">
<button type="submit">Sign-in</button>
</form>
${cancel(uid)}`,
  );
}

function consentPage({ uid, params, session, prompt }) {
  const { missingOIDCScope = [], missingOIDCClaims = [] } = prompt.details;
  const scopes = missingOIDCScope.filter((s) => s !== 'openid' && s !== 'offline_access');
  const claims = missingOIDCClaims.filter((c) => !['sub', 'sid', 'auth_time', 'acr', 'amr', 'iss'].includes(c));
  const items = [
    ...scopes.map((s) => `<li>${SCOPES[s] ? esc(SCOPES[s]) : `the scope <code>${esc(s)}</code>`}</li>`),
    ...claims.map((c) => `<li>the claim <code>${esc(c)}</code></li>`),
  ];
  const asks = items.length ? `<p>It asks for:</p>\n<ul>\n${items.join('\n')}\n</ul>` : '<p>It asks you to confirm what you allowed before.</p>';
  return page(
    'Authorize',
    `${tag(params.client_id)}
<h1>Authorize</h1>
<p class="lead">Signed in as <b>${esc(session?.accountId ?? '?')}</b>.</p>
${asks}
<form method="post" action="/interaction/${esc(uid)}">
<input type="hidden" name="prompt" value="consent">
<button type="submit" autofocus>Continue</button>
</form>
${cancel(uid)}`,
  );
}

function messagePage(title, text, details = {}) {
  const rows = Object.entries(details)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`);
  return page(title, `<p class="tag">devidp</p>\n<h1>${esc(title)}</h1>\n<p>${esc(text)}</p>${rows.length ? `\n<dl>${rows.join('')}</dl>` : ''}`);
}

/** A form's body (application/x-www-form-urlencoded), at most 16 KiB. */
async function formBody(req) {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 16 * 1024) throw new Error('the form is too large');
  }
  return new URLSearchParams(body);
}

/**
 * The interaction pages, at the provider's default interactions.url (/interaction/:uid):
 * GET shows the prompt's page (login, then consent), POST takes its form, GET .../abort
 * cancels (the client gets error=access_denied). Each ends with interactionFinished's
 * redirect back into the authorization.
 */
async function interaction(provider, req, res, uid, abort) {
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) throw new errors.SessionNotFound('interaction session id cookie not for this page');
  const { prompt, params, session, grantId } = details;
  if (abort) {
    if (req.method !== 'GET') return send(res, 405, messagePage('Not allowed', `${req.method} is not used here.`));
    const result = { error: 'access_denied', error_description: 'End-User aborted interaction' };
    return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  }
  if (req.method === 'GET') {
    if (prompt.name === 'login') return send(res, 200, loginPage(details));
    if (prompt.name === 'consent') return send(res, 200, consentPage(details));
    return send(res, 501, messagePage('Not implemented', `devidp has no page for the prompt "${prompt.name}".`));
  }
  if (req.method !== 'POST') return send(res, 405, messagePage('Not allowed', `${req.method} is not used here.`));
  const form = await formBody(req);
  if (form.get('prompt') !== prompt.name) {
    return send(res, 400, messagePage('Out of date', 'This page was for an earlier step of the login: go back and reload it.'));
  }
  if (prompt.name === 'login') {
    const login = form.get('login');
    if (!login) return send(res, 400, loginPage(details));
    return provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
  }
  if (prompt.name === 'consent') {
    // The grant the client asked for: what it had before, plus what the prompt found missing.
    const grant = grantId ? await provider.Grant.find(grantId) : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    const { missingOIDCScope, missingOIDCClaims, missingResourceScopes, rar } = prompt.details;
    if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '));
    if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
    for (const detail of rar ?? []) grant.addRar(detail);
    return provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  }
  return send(res, 501, messagePage('Not implemented', `devidp has no page for the prompt "${prompt.name}".`));
}

const INTERACTION = /^\/interaction\/([A-Za-z0-9_-]+)(\/abort)?$/;

function parseArgs(argv) {
  const args = { port: 0, redirects: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--port') args.port = Number(value());
    else if (a === '--redirect') args.redirects.push(value());
    else throw new Error(`unknown argument: ${a}`);
  }
  if (args.redirects.length === 0) throw new Error('give at least one --redirect URI');
  return args;
}

export async function start({ port = 0, redirects }) {
  let handler = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = createServer((req, res) => handler(req, res));
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}`;
  const clients = PROVIDERS.map((id) => ({
    id,
    clientId: `sigil-${id}`,
    clientSecret: `${id}-secret-for-tests`,
  }));
  const provider = new Provider(issuer, {
    clients: clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: redirects,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      // Apple's client posts its secret in the body.
      token_endpoint_auth_method: c.id === 'apple' || c.id === 'facebook' ? 'client_secret_post' : 'client_secret_basic',
    })),
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['preferred_username', 'name'],
    },
    findAccount: async (_ctx, id) => ({
      accountId: id,
      claims: async () => {
        const known = ACCOUNTS[id] ?? { email: `${id}@example.com`, email_verified: true, name: id };
        return { sub: id, preferred_username: id, ...known };
      },
    }),
    // Its own pages (below) instead of the development ones, which load a web font from
    // fonts.googleapis.com; no logout (nothing uses it, and its pages are the same kind).
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: false } },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.set('Content-Security-Policy', CSP);
      ctx.body = messagePage('Something went wrong', 'The provider could not go on with this request.', out);
    },
    cookies: { keys: ['sigil-devidp-cookie-key-not-secret'] },
  });
  // Plain http on loopback: the cookies must not be marked secure.
  provider.proxy = false;
  const callback = provider.callback();
  handler = (req, res) => {
    const match = INTERACTION.exec(new URL(req.url, issuer).pathname);
    if (!match) return callback(req, res);
    interaction(provider, req, res, match[1], Boolean(match[2])).catch((e) => {
      if (res.headersSent) return res.destroy();
      if (e instanceof errors.SessionNotFound) {
        send(res, 400, messagePage('Login expired', 'This login is over or expired (or the browser dropped its cookie): start it again.'));
      } else {
        console.error('devidp interaction:', e);
        send(res, 500, messagePage('Something went wrong', String(e?.message ?? e)));
      }
    });
  };
  return { issuer, clients, close: () => new Promise((resolve) => server.close(resolve)) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // stdout carries the one ready line; the provider's own notices go to stderr.
  console.log = console.error;
  console.info = console.error;
  const { issuer, clients } = await start(parseArgs(process.argv.slice(2)));
  process.stdout.write(`${JSON.stringify({ issuer, clients })}\n`);
  const stop = () => process.exit(0);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
