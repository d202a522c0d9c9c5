import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import type { DevchainDeployment } from './chain.js'

/** web/e2e */
export const E2E_DIR = fileURLToPath(new URL('..', import.meta.url))
export const WEB_DIR = join(E2E_DIR, '..')
export const REPO_ROOT = join(WEB_DIR, '..')
// Where `cargo build` put it: CARGO_TARGET_DIR when set, else the repository's target/.
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
  artifactsDir: string
  logsDir: string
  /** The dev-chain contracts deployed to this anvil (tokens held by account 0, names). */
  devchain: DevchainDeployment
}
