import type { CaipNetwork, ChainNamespace, SigilOptions, SocialProvider } from '@sigil/core'
import { arbitrum, ethereum, polygon, sigilDev } from '@sigil/core/networks'

// Read while `config` is built, below: declared first.
const SOCIALS: readonly SocialProvider[] = ['google', 'x', 'discord', 'farcaster', 'github', 'apple', 'facebook']

function socialsOf(value: string | null | undefined): SocialProvider[] | false {
  const list = (value ?? '').split(',').filter((s): s is SocialProvider => (SOCIALS as readonly string[]).includes(s))
  return list.length ? list : false
}

/** Demo configuration, from Vite env variables (see README). */
export const config = {
  apiUrl: import.meta.env.VITE_SIGIL_API_URL || 'http://127.0.0.1:8080',
  projectId: import.meta.env.VITE_SIGIL_PROJECT_ID ?? '',
  devRpcUrl: import.meta.env.VITE_SIGIL_DEV_RPC_URL || 'http://127.0.0.1:8545',
  /** The Sigil server's embedded-wallet frame origin (its --frame-public-url); email login needs it. */
  frameUrl: import.meta.env.VITE_SIGIL_FRAME_URL || undefined,
  /** The local mail sink's inbox (make demo): the demo shows the codes and links it received. */
  mailUrl: import.meta.env.VITE_SIGIL_MAIL_URL || undefined,
  /** Email login to the embedded wallet: on with a frame URL unless `?email=off` (or VITE_SIGIL_EMAIL=off); `?email=on` turns it on. */
  email: emailMode(new URLSearchParams(location.search).get('email') ?? import.meta.env.VITE_SIGIL_EMAIL, Boolean(import.meta.env.VITE_SIGIL_FRAME_URL)),
  /**
   * Social logins, in order: `?socials=google,github,farcaster` or VITE_SIGIL_SOCIALS (the
   * providers the server was given with --socials; Farcaster always); none by default.
   */
  socials: socialsOf(new URLSearchParams(location.search).get('socials') ?? import.meta.env.VITE_SIGIL_SOCIALS),
  /**
   * `?headless=on`: the page's own wallet UI on `@sigil/react/headless` (HeadlessPage.tsx), no
   * modal: it is never loaded (no prefetch), and sign-in is off unless `?siwx=` asks for it.
   */
  headless: new URLSearchParams(location.search).get('headless') === 'on',
  /** Sign-in with the wallet: required by default (off on the headless page); `?siwx=off|optional` or VITE_SIGIL_SIWX overrides. */
  siwx: siwxMode(
    new URLSearchParams(location.search).get('siwx') ??
      (new URLSearchParams(location.search).get('headless') === 'on' ? 'off' : import.meta.env.VITE_SIGIL_SIWX),
  ),
  /** What one sign-in covers: its chain by default; `?siwxScope=family` one session for every chain of the family. */
  siwxScope: (new URLSearchParams(location.search).get('siwxScope') === 'family' ? 'family' : 'chain') as 'chain' | 'family',
  /** How Bitcoin wallets sign the sign-in message: BIP-322 by default; `?bitcoinSignIn=ecdsa` asks for the legacy ECDSA signature. */
  bitcoinSignIn: (new URLSearchParams(location.search).get('bitcoinSignIn') === 'ecdsa' ? 'ecdsa' : 'bip322') as 'ecdsa' | 'bip322',
  /**
   * The dev chain's SGL token (devchain/deploy.mjs deploys it first, so a fresh anvil always has
   * it at this address; `make demo` and the e2e setup pass the deployed one).
   */
  sglAddress: (import.meta.env.VITE_SIGIL_SGL_ADDRESS || '0x5FbDB2315678afecb367f032d93F642f64180aa3') as `0x${string}`,
  /** Who gets the SGL the demo sends: anvil's account 1 (alice.eth on the dev chain). */
  sglRecipient: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as `0x${string}`,
}

/**
 * More createAppKit options, as JSON: `?options={"features":{"analytics":false},"themeVariables":{"sigil-accent":"#e5484d"}}`
 * (features are merged over the demo's email and socials). The README's host options table and
 * e2e/tests/options.e2e.ts use it. Throws on malformed JSON (the page shows the message).
 */
export function hostOptions(): Partial<Omit<SigilOptions, 'projectId' | 'networks'>> {
  const value = new URLSearchParams(location.search).get('options')
  if (!value) return {}
  const parsed = JSON.parse(value) as unknown
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('?options must be a JSON object')
  return parsed as Partial<SigilOptions>
}

function emailMode(value: string | null | undefined, hasFrame: boolean): boolean {
  if (value === 'on') return true
  if (value === 'off') return false
  return hasFrame
}

/** The chain families the page configures (`?families=eip155,solana,bip122`); EVM only by default. */
export const families: ChainNamespace[] = (new URLSearchParams(location.search).get('families') ?? import.meta.env.VITE_SIGIL_FAMILIES ?? 'eip155')
  .split(',')
  .filter((f): f is ChainNamespace => f === 'eip155' || f === 'solana' || f === 'bip122')

function siwxMode(value: string | null | undefined): 'required' | 'optional' | 'off' {
  return value === 'off' || value === 'optional' ? value : 'required'
}

export const SIWX_STATEMENT = 'Sign in to the Sigil demo.'

/**
 * A block explorer for the local chains (`?explorer=http://127.0.0.1:5100`, e.g. Otterscan over
 * anvil): the Account view links sent transactions to it. None by default.
 */
const localExplorer = new URLSearchParams(location.search).get('explorer')
const explorers: Pick<CaipNetwork, 'blockExplorers'> = localExplorer ? { blockExplorers: { default: { name: 'the local explorer', url: localExplorer } } } : {}

export const devChain: CaipNetwork = { ...sigilDev({ rpcUrl: config.devRpcUrl }), ...explorers }

/** The local Solana runtime (devsolana/, litesvm), read through the Sigil server's RPC proxy. */
const solanaChain = (import.meta.env.VITE_SIGIL_SOLANA_CHAIN || 'solana:SigiLDevSoLanaRuntime11111111111') as CaipNetwork['caipNetworkId']
export const solanaDev: CaipNetwork = {
  id: solanaChain.split(':')[1] as string,
  caipNetworkId: solanaChain,
  chainNamespace: 'solana',
  name: 'Sigil Solana Dev',
  nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
  rpcUrls: { default: { http: [`${config.apiUrl}/v1?chainId=${solanaChain}&projectId=${config.projectId}`] } },
  testnet: true,
  assets: { imageId: 'solana' },
  ...explorers,
}

/** The local Bitcoin regtest node (devbitcoin/, bcoin); balances through the server's Esplora source. */
const bitcoinChain = (import.meta.env.VITE_SIGIL_BITCOIN_CHAIN || 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328') as CaipNetwork['caipNetworkId']
export const bitcoinRegtest: CaipNetwork = {
  id: bitcoinChain.split(':')[1] as string,
  caipNetworkId: bitcoinChain,
  chainNamespace: 'bip122',
  name: 'Bitcoin Regtest',
  nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
  rpcUrls: { default: { http: [] } },
  testnet: true,
  assets: { imageId: 'bitcoin' },
}

/** The local dev chain (anvil, 31337) first, then Ethereum, Arbitrum and Polygon; then the other families asked for. */
export const networks: CaipNetwork[] = [
  ...(families.includes('eip155') ? [devChain, ethereum, arbitrum, polygon] : []),
  ...(families.includes('solana') ? [solanaDev] : []),
  ...(families.includes('bip122') ? [bitcoinRegtest] : []),
]
