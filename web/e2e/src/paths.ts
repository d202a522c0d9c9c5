import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import type { DevchainDeployment } from './chain.js'

/** web/e2e */
export const E2E_DIR = fileURLToPath(new URL('..', import.meta.url))
export const WEB_DIR = join(E2E_DIR, '..')
export const REPO_ROOT = join(WEB_DIR, '..')
// cargo's target folder: CARGO_TARGET_DIR when set (as scripts/e2e.sh's cargo build used it).
export const SIGIL_BIN = join(process.env.CARGO_TARGET_DIR ?? join(REPO_ROOT, 'target'), 'debug/sigil')
// The binary scripts/anvil.sh installs (scripts/e2e.sh passes it as SIGIL_ANVIL).
export const ANVIL_BIN = process.env.SIGIL_ANVIL ?? join(REPO_ROOT, 'var/tools/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil')
export const ARTIFACTS_DIR = join(REPO_ROOT, 'test-artifacts')
export const CHROMIUM = process.env.SIGIL_E2E_CHROMIUM ?? '/usr/bin/chromium'

/** What the global setup hands the tests (vitest `inject('e2e')`). */
export interface E2eEnv {
  rpcUrl: string
  apiUrl: string
  /** null when there is no demo app to serve. */
  demoUrl: string | null
  /** Why there is no demo page (build failed, app missing). */
  demoError: string | null
  projectId: string
  /** The Sigil server's embedded-wallet frame origin. */
  frameUrl: string
  /**
   * The local OpenID Connect / OAuth 2 provider (devidp/) the server's Google (OpenID Connect,
   * by its issuer) and GitHub (OAuth 2, by its endpoints) logins point at.
   */
  idpUrl: string
  /** The mail sink's HTTP inbox (web/e2e/mail-sink.mjs); the server sends its codes there. */
  mailUrl: string
  artifactsDir: string
  logsDir: string
  /** The dev-chain contracts deployed to this anvil (tokens held by account 0, names). */
  devchain: DevchainDeployment
  /** The dev Solana runtime (devsolana/, litesvm): its JSON-RPC URL, chain and test tokens. */
  solana: { rpcUrl: string; caipNetworkId: string; mints: { symbol: string; name: string; address: string; decimals: number; program: string }[] }
  /** The Bitcoin regtest node (devbitcoin/, bcoin): its Esplora URL and chain. */
  bitcoin: { esploraUrl: string; caipNetworkId: string }
}

/** The injected Solana test wallet's key (ed25519, derived from this label). */
export const SOLANA_WALLET_LABEL = 'sigil e2e solana wallet'
/** The injected Bitcoin test wallet's key (secp256k1, P2WPKH, derived from this label). */
export const BITCOIN_WALLET_LABEL = 'sigil e2e bitcoin wallet'
