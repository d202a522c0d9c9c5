/**
 * Starts everything the browser tests talk to, each on a free port, and stops it afterwards:
 *   - anvil (scripts/anvil.sh, npm @foundry-rs/anvil-linux-amd64), chain id 31337, 10 unlocked accounts with 10000 ETH, and
 *     the dev-chain contracts deployed on it by devchain/deploy.mjs (SGL and USDC held by
 *     account 0, a price pair, ENS-style names);
 *   - the Sigil server (target/debug/sigil) on a fresh SQLite database, with the wallet
 *     directory imported from data/wallets.json, a project allowed for the demo's origin, and
 *     the deployment's tokens added to the dev chain (--dev-deployment);
 *   - a mail sink (web/e2e/mail-sink.mjs: npm smtp-server) that the server sends its email codes
 *     and device links to over SMTP, and that the tests read over HTTP;
 *   - the server's embedded-wallet frame origin (--frame-listen) serving web/packages/frame/dist;
 *   - a local OpenID Connect / OAuth 2 provider (devidp/: npm oidc-provider) standing in for
 *     Google and GitHub (--socials), and the dev chain's Farcaster ID registry for Sign In With
 *     Farcaster;
 *   - the demo host page, built with those addresses and served by `vite preview`.
 *
 * The demo is built into the temporary folder (not apps/demo/dist), with the library packages
 * built first since the demo consumes their dist/.
 * Env: SIGIL_E2E_KEEP=1 leaves the temporary folder (database, logs, demo build) in place.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { rpc, type DevchainDeployment } from './chain.js'
import { bitcoinKey } from './bitcoin-wallet.js'
import { ANVIL_BIN, ARTIFACTS_DIR, BITCOIN_WALLET_LABEL, REPO_ROOT, SIGIL_BIN, SOLANA_WALLET_LABEL, WEB_DIR, type E2eEnv } from './paths.js'
import { solanaKey } from './solana-wallet.js'

/** Anvil's account 9 (its default mnemonic): the onramp sandbox's float; no test wallet uses it. */
const ANVIL_ACCOUNT_9_KEY = '2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6'
/** The pay sandbox exchange's key (scripts/demo.sh's, dev only; no anvil account, so no test wallet sends from it) and its address, funded below. */
const PAY_SANDBOX_KEY = 'f1ddd47091b30789fce9de25b7576edfa10917071c594c6d2da3ae00cd1fece3'
const PAY_SANDBOX_ADDRESS = '0xfc276b622053EF94D3D68F2866Ce858605209eD8'
// The names gateway's signer: devchain/deploy.mjs's DEV_NAMES_SIGNER_KEY (public, dev only), whose
// address the deployment's offchain resolver trusts.
const DEV_NAMES_SIGNER_KEY = '3cd2e9b3a2fcc4dd50078cb0011b92ee4b4075d95e83f586e3f2288cb3dd7858'

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: E2eEnv
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.unref()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      const port = typeof address === 'object' && address ? address.port : 0
      srv.close(() => resolve(port))
    })
  })
}

async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  child: ChildProcess | undefined,
  log: string | undefined,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}${tail(log)}`)
    try {
      if (await check()) return
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${tail(log)}`)
}

function tail(log: string | undefined): string {
  if (!log || !existsSync(log)) return ''
  const text = readFileSync(log, 'utf8').split('\n').slice(-30).join('\n')
  return `\n--- last lines of ${log} ---\n${text}`
}

const httpOk = (url: string) => async () => (await fetch(url)).ok

export default async function setup(project: TestProject) {
  const tmp = mkdtempSync(join(tmpdir(), 'sigil-e2e-'))
  const children: ChildProcess[] = []
  const stopAll = () => {
    for (const child of children.reverse()) {
      if (child.exitCode !== null || child.pid === undefined) continue
      try {
        // Each child leads its own process group (detached): stop the group, grandchildren too.
        process.kill(-child.pid, 'SIGTERM')
      } catch {
        child.kill('SIGTERM')
      }
    }
    children.length = 0
  }
  process.once('exit', stopAll)

  const start = (name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd = REPO_ROOT) => {
    const log = join(tmp, `${name}.log`)
    const fd = openSync(log, 'a')
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', fd, fd], detached: true })
    children.push(child)
    return { child, log }
  }

  try {
    for (const [what, path] of [
      ['anvil (run bash scripts/anvil.sh, or set SIGIL_ANVIL)', ANVIL_BIN],
      ['the sigil server binary (run cargo build -p sigil-server)', SIGIL_BIN],
    ] as const) {
      if (!existsSync(path)) throw new Error(`missing ${what}: ${path}`)
    }
    const [chainPort, apiPort, demoPort, framePort, smtpPort, mailPort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ])
    const ports = { chain: chainPort, api: apiPort, demo: demoPort, frame: framePort, smtp: smtpPort, mail: mailPort }
    const frameUrl = `http://127.0.0.1:${ports.frame}`
    const mailUrl = `http://127.0.0.1:${ports.mail}`
    const rpcUrl = `http://127.0.0.1:${ports.chain}`
    const apiUrl = `http://127.0.0.1:${ports.api}`
    const demoUrl = `http://127.0.0.1:${ports.demo}`

    // 1. anvil
    // --max-persisted-states 0: no state written to ~/.foundry/anvil/tmp, which anvil never cleans.
    const chain = ['--host', '127.0.0.1', '--port', String(ports.chain), '--chain-id', '31337', '--hardfork', 'prague']
    const anvil = start('anvil', ANVIL_BIN, [...chain, '--silent', '--max-persisted-states', '0'])
    const rpcReady = async () => {
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      })
      return res.ok && ((await res.json()) as { result?: string }).result === '0x7a69'
    }

    // 2. the Sigil server on a fresh database
    const sigilEnv = { SIGIL_DATABASE_URL: `sqlite://${join(tmp, 'e2e.db')}` }
    const run = (args: string[]) => {
      const r = spawnSync(SIGIL_BIN, args, { cwd: REPO_ROOT, env: { ...process.env, ...sigilEnv }, encoding: 'utf8' })
      if (r.status !== 0) throw new Error(`sigil ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`)
      return r.stdout
    }
    run(['wallets', 'import', 'data/wallets.json'])
    const projectId = run(['project', 'add', '--name', 'e2e', '--origin', demoUrl]).trim().split('\n').pop()?.trim() ?? ''
    if (!/^[0-9a-f]{32}$/.test(projectId)) throw new Error(`unexpected projectId from sigil project add: ${projectId}`)
    await waitFor('anvil', rpcReady, anvil.child, anvil.log)

    // The dev chains have their own pinned dependencies, installed as `make demo` does.
    for (const dir of ['devchain', 'devsolana', 'devbitcoin', 'devidp']) {
      if (existsSync(join(REPO_ROOT, dir, 'node_modules'))) continue
      // npm install for devsolana, as scripts/test.sh explains (its lock cannot list litesvm's
      // packages for other platforms); whatever NODE_ENV this run has (make bench-ui sets
      // production for its builds), every dependency is installed.
      const command = dir === 'devsolana' ? 'install' : 'ci'
      const install = spawnSync('npm', [command, '--prefix', dir, '--no-audit', '--no-fund'], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        env: { ...process.env, NODE_ENV: undefined },
      })
      if (install.status !== 0) throw new Error(`npm ${command} --prefix ${dir} failed (${install.status}):\n${install.stdout}\n${install.stderr}`)
    }
    // The Solana runtime (litesvm) and the Bitcoin regtest node (bcoin), each funding the
    // injected test wallet's key; each prints one JSON line once it listens.
    const solanaNode = start('devsolana', 'node', ['devsolana/server.mjs', '--fund', solanaKey(SOLANA_WALLET_LABEL).address])
    const bitcoinNode = start('devbitcoin', 'node', ['devbitcoin/server.mjs', '--fund', bitcoinKey(BITCOIN_WALLET_LABEL).address])
    const firstLine = (log: string) =>
      readFileSync(log, 'utf8')
        .split('\n')
        .find((l) => l.startsWith('{'))
    await waitFor('devsolana', async () => firstLine(solanaNode.log) !== undefined, solanaNode.child, solanaNode.log)
    await waitFor('devbitcoin', async () => firstLine(bitcoinNode.log) !== undefined, bitcoinNode.child, bitcoinNode.log)
    const devSolana = JSON.parse(firstLine(solanaNode.log) as string) as { url: string; caipNetworkId: string; mints: E2eEnv['solana']['mints'] }
    const devBitcoin = JSON.parse(firstLine(bitcoinNode.log) as string) as { url: string; caipNetworkId: string }
    // The server's chains: the built-in list plus these two.
    const chainsFile = join(tmp, 'chains.toml')
    const tokens = devSolana.mints.map((m) => `{ address = "${m.address}", symbol = "${m.symbol}", name = "${m.name}", decimals = ${m.decimals} }`).join(', ')
    writeFileSync(
      chainsFile,
      `${readFileSync(join(REPO_ROOT, 'config/chains.toml'), 'utf8')}
[[chains]]
id = "${devSolana.caipNetworkId}"
name = "Sigil Solana Dev"
testnet = true
rpc = ["${devSolana.url}"]
native = { name = "Solana", symbol = "SOL", decimals = 9 }
tokens = [${tokens}]

[[chains]]
id = "${devBitcoin.caipNetworkId}"
name = "Bitcoin Regtest"
testnet = true
rpc = []
esplora = "${devBitcoin.url}"
native = { name = "Bitcoin", symbol = "BTC", decimals = 8 }
`,
    )

    // The dev-chain contracts, deployed before the server starts: it reads their addresses once.
    const deployment = join(tmp, 'devchain.json')
    // Account names resolve through this server's CCIP-read gateway.
    const namesGateway = `${apiUrl}/v1/profile/gateway/{sender}/{data}.json`
    const deploy = spawnSync('node', ['devchain/deploy.mjs', '--rpc', rpcUrl, '--out', deployment, '--names-gateway', namesGateway], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    })
    if (deploy.status !== 0) throw new Error(`node devchain/deploy.mjs failed (${deploy.status}):\n${deploy.stderr.slice(-4000)}`)
    const devchain = JSON.parse(readFileSync(deployment, 'utf8')) as DevchainDeployment
    // 1000 ETH for the pay sandbox exchange to deposit from.
    await rpc(rpcUrl, 'anvil_setBalance', [PAY_SANDBOX_ADDRESS, '0x3635c9adc5dea00000'])

    // The mail sink the server sends codes to (SMTP) and the tests read (HTTP).
    const mail = start('mail-sink', process.execPath, [
      join(WEB_DIR, 'e2e/mail-sink.mjs'),
      '--smtp-port',
      String(ports.smtp),
      '--http-port',
      String(ports.mail),
    ])
    await waitFor('the mail sink', httpOk(`${mailUrl}/health`), mail.child, mail.log)

    // The social logins' provider: its login page takes any name; it sends the browser back to
    // the server's callback on the frame origin. Google by discovery, GitHub by its endpoints.
    const idp = start('devidp', 'node', ['devidp/idp.mjs', '--redirect', `${frameUrl}/wallet/v1/social/callback`])
    await waitFor('devidp', async () => firstLine(idp.log) !== undefined, idp.child, idp.log)
    const idpUrl = (JSON.parse(firstLine(idp.log) as string) as { issuer: string }).issuer
    const socialsFile = join(tmp, 'socials.toml')
    writeFileSync(
      socialsFile,
      `[[provider]]
id = "google"
client_id = "sigil-google"
client_secret = "google-secret-for-tests"
issuer = "${idpUrl}"

[[provider]]
id = "github"
client_id = "sigil-github"
client_secret = "github-secret-for-tests"
auth_url = "${idpUrl}/auth"
token_url = "${idpUrl}/token"
user_url = "${idpUrl}/me"
scopes = ["openid", "email", "profile"]
fields = { id = "/sub", username = "/preferred_username", email = "/email", email_verified = "/email_verified" }
`,
    )
    const farcasterRegistry = devchain.farcaster?.idRegistry
    if (!farcasterRegistry) throw new Error('devchain/deploy.mjs deployed no Farcaster ID registry')

    // The frame page the server serves on its frame origin, built before the server starts.
    const frameBuild = spawnSync('npm', ['run', 'build', '-w', '@sigil/frame'], { cwd: WEB_DIR, encoding: 'utf8' })
    if (frameBuild.status !== 0)
      throw new Error(`npm run build -w @sigil/frame failed (${frameBuild.status}):\n${frameBuild.stdout.slice(-4000)}\n${frameBuild.stderr.slice(-4000)}`)

    // The server proxies the dev chain to this anvil (EIP-1271 sign-in checks, balances, names),
    // and holds embedded wallets (a fresh key-encryption key, the mail sink, the frame origin).
    const sigil = start(
      'sigil',
      SIGIL_BIN,
      [
        'serve',
        '--listen',
        `127.0.0.1:${ports.api}`,
        '--chains',
        chainsFile,
        '--dev-rpc-url',
        rpcUrl,
        '--dev-deployment',
        deployment,
        '--frame-listen',
        `127.0.0.1:${ports.frame}`,
        '--smtp-host',
        '127.0.0.1',
        '--smtp-port',
        String(ports.smtp),
        '--smtp-tls',
        'none',
        '--socials',
        socialsFile,
        '--farcaster-chain',
        'eip155:31337',
        '--farcaster-id-registry',
        farcasterRegistry,
        // Every test's browser is 127.0.0.1: the per-address limits are for one person, not a suite.
        '--code-tries-per-minute',
        '1000',
        // NFT metadata: the dev chain's ipfs://sigil-dev/... read from the demo's public/ipfs/
        // (vite preview, on this machine: private hosts allowed for this server only).
        '--nfts-ipfs-gateway',
        `${demoUrl}/ipfs/`,
        '--nfts-allow-private-hosts',
        'true',
        '--names-zones',
        'sigil.id',
      ],
      // The onramp's sandbox provider pays from anvil's account 9 (a well-known development key).
      {
        ...sigilEnv,
        SIGIL_KEK: randomBytes(32).toString('hex'),
        SIGIL_ONRAMP_SANDBOX_KEY: ANVIL_ACCOUNT_9_KEY,
        SIGIL_PAY_SANDBOX_KEY: PAY_SANDBOX_KEY,
        SIGIL_NAMES_SIGNER_KEY: DEV_NAMES_SIGNER_KEY,
      },
    )
    await waitFor('sigil serve', httpOk(`${apiUrl}/health`), sigil.child, sigil.log)

    // 3. the demo, built for these addresses, served by vite preview. The library packages are
    // built first (the demo consumes their dist/); the demo goes to a folder of our own so
    // apps/demo/dist (make demo, make size) is left alone.
    let demo: string | null = null
    let demoError: string | null = null
    const demoDist = join(tmp, 'demo-dist')
    // Sign-in off by default; the sign-in suite opens the page with ?siwx=required.
    const sgl = devchain.tokens.find((t) => t.symbol === 'SGL')?.address ?? ''
    const viteEnv = {
      VITE_SIGIL_API_URL: apiUrl,
      VITE_SIGIL_PROJECT_ID: projectId,
      VITE_SIGIL_DEV_RPC_URL: rpcUrl,
      VITE_SIGIL_SIWX: 'off',
      VITE_SIGIL_SGL_ADDRESS: sgl,
      VITE_SIGIL_FRAME_URL: frameUrl,
      // Email login off by default; the embedded-wallet suites open the page with ?email=on.
      VITE_SIGIL_EMAIL: 'off',
      VITE_SIGIL_SOLANA_CHAIN: devSolana.caipNetworkId,
      VITE_SIGIL_BITCOIN_CHAIN: devBitcoin.caipNetworkId,
    }
    if (!existsSync(join(WEB_DIR, 'apps/demo/package.json'))) {
      demoError = 'web/apps/demo does not exist'
    } else {
      const started = Date.now()
      const libraries = ['@sigil/core', '@sigil/adapter-evm', '@sigil/adapter-solana', '@sigil/adapter-bitcoin', '@sigil/react', '@sigil/wagmi'].flatMap(
        (w) => ['-w', w],
      )
      let build = spawnSync('npm', ['run', 'build', '--if-present', ...libraries], { cwd: WEB_DIR, encoding: 'utf8' })
      if (build.status === 0) {
        build = spawnSync('npm', ['run', 'build', '-w', '@sigil/demo', '--', '--outDir', demoDist, '--emptyOutDir'], {
          cwd: WEB_DIR,
          env: { ...process.env, ...viteEnv },
          encoding: 'utf8',
        })
      }
      if (build.status !== 0) {
        // The tests that need the demo fail with this; the test wallet's own tests still run.
        demoError = `demo build failed (exit ${build.status}):\n${build.stdout.slice(-6000)}\n${build.stderr.slice(-6000)}`
        console.error(`[e2e] ${demoError}`)
      } else {
        console.log(`[e2e] demo and its packages built in ${Date.now() - started} ms`)
        const vite = start(
          'vite-preview',
          join(WEB_DIR, 'node_modules/.bin/vite'),
          ['preview', '--outDir', demoDist, '--port', String(ports.demo), '--strictPort', '--host', '127.0.0.1'],
          viteEnv,
          join(WEB_DIR, 'apps/demo'),
        )
        await waitFor('vite preview', httpOk(`${demoUrl}/`), vite.child, vite.log)
        demo = demoUrl
      }
    }

    const env: E2eEnv = {
      rpcUrl,
      apiUrl,
      demoUrl: demo,
      demoError,
      projectId,
      frameUrl,
      idpUrl,
      mailUrl,
      artifactsDir: ARTIFACTS_DIR,
      logsDir: tmp,
      devchain,
      solana: { rpcUrl: devSolana.url, caipNetworkId: devSolana.caipNetworkId, mints: devSolana.mints },
      bitcoin: { esploraUrl: devBitcoin.url, caipNetworkId: devBitcoin.caipNetworkId },
    }
    console.log(
      `[e2e] anvil ${rpcUrl}, solana ${devSolana.url}, bitcoin ${devBitcoin.url}, sigil ${apiUrl}, frame ${frameUrl}, idp ${idpUrl}, mail ${mailUrl}, demo ${demoUrl}, projectId ${projectId}, logs ${tmp}`,
    )
    project.provide('e2e', env)
  } catch (error) {
    stopAll()
    throw error
  }

  return () => {
    stopAll()
    if (process.env.SIGIL_E2E_KEEP !== '1') rmSync(tmp, { recursive: true, force: true })
  }
}
