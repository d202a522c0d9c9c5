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
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

export const PROVIDERS = ['google', 'github', 'x', 'discord', 'facebook', 'apple', 'company'];

const ACCOUNTS = {
  alice: { email: 'alice@example.com', email_verified: true, name: 'Alice Liddell' },
  bob: { email: 'bob@example.com', email_verified: true, name: 'Bob' },
  eve: { email: 'alice@example.com', email_verified: false, name: 'Eve' },
  carol: { name: 'Carol' },
};

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
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['sigil-devidp-cookie-key-not-secret'] },
  });
  // Plain http on loopback: the cookies must not be marked secure.
  provider.proxy = false;
  const callback = provider.callback();
  handler = callback;
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
