import { arbitrum, ethereum, polygon, sigilDev } from '@sigil/core/networks'

/** Demo configuration, from Vite env variables (see README). */
export const config = {
  apiUrl: import.meta.env.VITE_SIGIL_API_URL || 'http://127.0.0.1:8080',
  projectId: import.meta.env.VITE_SIGIL_PROJECT_ID ?? '',
  devRpcUrl: import.meta.env.VITE_SIGIL_DEV_RPC_URL || 'http://127.0.0.1:8545',
  /** Sign-in with the wallet: required by default; `?siwx=off|optional` or VITE_SIGIL_SIWX overrides. */
  siwx: siwxMode(new URLSearchParams(location.search).get('siwx') ?? import.meta.env.VITE_SIGIL_SIWX),
}

function siwxMode(value: string | null | undefined): 'required' | 'optional' | 'off' {
  return value === 'off' || value === 'optional' ? value : 'required'
}

export const SIWX_STATEMENT = 'Sign in to the Sigil demo.'

/** The local dev chain (anvil, 31337) first, then Ethereum, Arbitrum and Polygon. */
export const networks = [sigilDev({ rpcUrl: config.devRpcUrl }), ethereum, arbitrum, polygon]
