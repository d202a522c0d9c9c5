import { ConfigurationError, ErrorMessages } from './errors.js'
import { SDK_TYPE, SDK_VERSION } from './version.js'
import { siweSiwx, type SIWEConfig } from './features/siwx/config.js'
import { rpcUrlOf } from './networks.js'
import type { SIWXConfig } from './features/siwx/types.js'
import type { MessageOverrides } from './i18n.js'
import type { CaipNetwork } from './types.js'

/** Sections of the Connect view, in display order. */
export type ConnectorSection = 'walletConnect' | 'recent' | 'injected' | 'featured' | 'custom' | 'external' | 'recommended'
/** Ways to connect offered on the Connect view. */
export type ConnectMethod = 'email' | 'social' | 'wallet'
/** Account-view actions, in display order. */
export type WalletFeature = 'onramp' | 'swaps' | 'receive' | 'send'
/**
 * A social login as the Sigil server names it: the seven built in, or the id of an OpenID Connect
 * issuer the server is configured with (its `--socials` file), e.g. a company's own login.
 */
export type SocialProvider = 'google' | 'x' | 'discord' | 'farcaster' | 'github' | 'apple' | 'facebook' | (string & {})
export type ThemeMode = 'light' | 'dark'

/** CSS custom properties the host may set; keys are the variable names without `--`. */
export type ThemeVariables = Partial<Record<`sigil-${string}`, string | number>>

export interface Metadata {
  name: string
  description: string
  url: string
  icons: string[]
}

export interface Features {
  swaps: boolean
  onramp: boolean
  receive: boolean
  send: boolean
  email: boolean
  emailShowWallets: boolean
  socials: SocialProvider[] | false
  history: boolean
  analytics: boolean
  allWallets: boolean
  legalCheckbox: boolean
  smartSessions: boolean
  collapseWallets: boolean
  pay: boolean
  connectorTypeOrder: ConnectorSection[]
  connectMethodsOrder: ConnectMethod[]
  walletFeaturesOrder: WalletFeature[]
  /** Offer connected EVM accounts an account name served by the Sigil server (issue 25); on unless false. */
  names?: boolean
}

/** What a host passes to create the modal. Only `projectId` and `networks` are required. */
export interface SigilOptions {
  projectId: string
  networks: readonly CaipNetwork[]
  /** Network to start on; defaults to the first of `networks`. */
  defaultNetwork?: CaipNetwork
  metadata?: Metadata
  features?: Partial<Features>
  themeMode?: ThemeMode
  themeVariables?: ThemeVariables
  /** Only these directory wallets (ids). */
  includeWalletIds?: string[]
  /** Never these directory wallets (ids). */
  excludeWalletIds?: string[]
  /** Directory wallets shown first (ids); also sets the featured page size. */
  featuredWalletIds?: string[]
  /** Base URL of the Sigil server; defaults to the page's own origin. */
  apiUrl?: string
  /**
   * The Sigil server's embedded-wallet frame origin (`--frame-public-url`). With it, and email
   * on, visitors can log in with an email code to a wallet the server holds.
   */
  frameUrl?: string
  /** The embedded-wallet frame logs what it drops to the console (default off). */
  enableFrameLogger?: boolean
  /** Keep a wallet on an unconfigured chain instead of showing UnsupportedChain. */
  allowUnsupportedChain?: boolean
  /** Let the user switch networks from the modal. */
  enableNetworkSwitch?: boolean
  /** The modal is rendered inline in the page: closing resets the view instead of hiding. */
  embedded?: boolean
  /** Sign-in with the wallet after connecting: `serverSiwx(...)` or `localSiwx(...)`. */
  siwx?: SIWXConfig
  /**
   * The older AppKit sign-in (getNonce, createMessage, verifyMessage, getSession, signOut), run by
   * the same sign-in machinery as `siwx`, in the ConnectingSiwe view; not together with `siwx`.
   */
  siweConfig?: SIWEConfig
  /** With `features.legalCheckbox`: the terms the visitor agrees to before connecting. */
  termsConditionsUrl?: string
  /** With `features.legalCheckbox`: the privacy policy the visitor agrees to before connecting. */
  privacyPolicyUrl?: string
  sdkType?: string
  sdkVersion?: string
  /**
   * WalletConnect (QR code and deep links to mobile and desktop wallets) through a relay:
   * `relayUrl` defaults to the Sigil server's own (`ws(s)://<apiUrl host>/relay`). `false` turns
   * the WalletConnect connector off.
   */
  walletConnect?: false | { relayUrl?: string }
  /** The visitor's country (ISO 3166-1 alpha-2) for buying with a card: it picks the providers that serve it; default: the browser language's region. */
  country?: string
  /**
   * The modal's language: a tag ('de', 'pt-BR', 'ar'…) negotiated against the shipped locales
   * ('de-AT' is 'de'); default the browser's languages, then English. `setLocale` changes it later.
   */
  locale?: string
  /** The host's own texts, per shipped locale tag, replacing any of the catalogue's: `{ de: { ui: { connectWallet: 'Verbinden' } } }`. */
  messages?: MessageOverrides
}

/** WalletConnect as resolved: the relay to use, and Sigil's Verify endpoint (its origin). */
export interface WalletConnectOptions {
  relayUrl: string
  verifyUrl: string
}

export interface ResolvedOptions {
  projectId: string
  networks: readonly CaipNetwork[]
  defaultNetwork: CaipNetwork
  metadata?: Metadata | undefined
  features: Features
  themeMode: ThemeMode
  themeVariables: ThemeVariables
  includeWalletIds: string[]
  excludeWalletIds: string[]
  featuredWalletIds: string[]
  apiUrl: string
  frameUrl: string | undefined
  enableFrameLogger: boolean
  allowUnsupportedChain: boolean
  enableNetworkSwitch: boolean
  embedded: boolean
  locale?: string | undefined
  messages?: MessageOverrides | undefined
  /** `siwx`, or `siweConfig` carried onto it. */
  siwx: SIWXConfig | undefined
  termsConditionsUrl?: string | undefined
  privacyPolicyUrl?: string | undefined
  sdkType: string
  sdkVersion: string
  /** false when turned off, or when there is no server to derive the relay from. */
  walletConnect: WalletConnectOptions | false
  country?: string | undefined
}

export const DEFAULT_CONNECTOR_ORDER: readonly ConnectorSection[] = ['walletConnect', 'recent', 'injected', 'featured', 'custom', 'external', 'recommended']
export const DEFAULT_CONNECT_METHODS_ORDER: readonly ConnectMethod[] = ['email', 'social', 'wallet']
export const DEFAULT_WALLET_FEATURES_ORDER: readonly WalletFeature[] = ['onramp', 'swaps', 'receive', 'send']
export const DEFAULT_SOCIALS: readonly SocialProvider[] = ['google', 'x', 'discord', 'farcaster', 'github', 'apple', 'facebook']

/** Spec section 1 defaults. */
export function defaultFeatures(): Features {
  return {
    swaps: true,
    onramp: true,
    receive: true,
    send: true,
    email: true,
    emailShowWallets: true,
    socials: [...DEFAULT_SOCIALS],
    history: true,
    analytics: true,
    allWallets: true,
    legalCheckbox: false,
    smartSessions: false,
    collapseWallets: false,
    pay: false,
    connectorTypeOrder: [...DEFAULT_CONNECTOR_ORDER],
    connectMethodsOrder: [...DEFAULT_CONNECT_METHODS_ORDER],
    walletFeaturesOrder: [...DEFAULT_WALLET_FEATURES_ORDER],
  }
}

/** The host's colour scheme preference, light when it cannot be read. */
function preferredThemeMode(): ThemeMode {
  const media = (globalThis as { matchMedia?: (q: string) => { matches: boolean } }).matchMedia
  return typeof media === 'function' && media('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

function sameOrigin(): string {
  const location = (globalThis as { location?: { origin?: string } }).location
  return location?.origin && location.origin !== 'null' ? location.origin : ''
}

/**
 * Fills in defaults and checks what cannot work: a missing project id, no networks, an EVM or
 * Solana network without an RPC URL, a feature Sigil does not know, `siweConfig` with `siwx`.
 */
export function resolveOptions(options: SigilOptions): ResolvedOptions {
  if (typeof options.projectId !== 'string' || options.projectId.trim() === '') {
    throw new ConfigurationError(ErrorMessages.projectIdNotConfigured, 'PROJECT_ID_NOT_CONFIGURED')
  }
  if (options.siwx && options.siweConfig) throw new ConfigurationError(ErrorMessages.siweAndSiwx, 'SIWE_AND_SIWX')
  const networks = options.networks ?? []
  const [firstNetwork] = networks
  if (!firstNetwork) throw new ConfigurationError(ErrorMessages.invalidAppConfiguration, 'NO_NETWORKS')
  // Bitcoin's (and the other families') balances come through the server: only JSON-RPC families need a URL.
  for (const n of networks) {
    if (/^(eip155|solana)$/.test(n.chainNamespace) && !(n.rpcUrls && rpcUrlOf(n))) {
      throw new ConfigurationError(ErrorMessages.networkWithoutRpcUrl(n.caipNetworkId), 'NO_RPC_URL')
    }
  }
  const features = defaultFeatures()
  for (const key in options.features)
    if (!(key in features) && key !== 'names') throw new ConfigurationError(ErrorMessages.unknownFeature(key), 'UNKNOWN_FEATURE')
  const apiUrl = (options.apiUrl ?? sameOrigin()).replace(/\/+$/, '')
  const defaultNetwork =
    options.defaultNetwork && networks.some((n) => n.caipNetworkId === options.defaultNetwork?.caipNetworkId) ? options.defaultNetwork : firstNetwork
  // The host's options as given (metadata, the legal links, country…), with defaults filled in.
  return {
    ...options,
    projectId: options.projectId.trim(),
    networks,
    defaultNetwork,
    features: { ...features, ...stripUndefined(options.features ?? {}) },
    themeMode: options.themeMode ?? preferredThemeMode(),
    themeVariables: options.themeVariables ?? {},
    includeWalletIds: options.includeWalletIds ?? [],
    excludeWalletIds: options.excludeWalletIds ?? [],
    featuredWalletIds: options.featuredWalletIds ?? [],
    apiUrl,
    frameUrl: options.frameUrl ? options.frameUrl.replace(/\/+$/, '') : undefined,
    enableFrameLogger: options.enableFrameLogger ?? false,
    allowUnsupportedChain: options.allowUnsupportedChain ?? false,
    enableNetworkSwitch: options.enableNetworkSwitch ?? true,
    embedded: options.embedded ?? false,
    siwx: options.siwx ?? (options.siweConfig && options.siweConfig.enabled !== false ? siweSiwx(options.siweConfig) : undefined),
    sdkType: options.sdkType ?? SDK_TYPE,
    sdkVersion: options.sdkVersion ?? SDK_VERSION,
    walletConnect: resolveWalletConnect(options.walletConnect, apiUrl),
  }
}

/** The relay (the option's, else the Sigil server's /relay) and Sigil's Verify endpoint; a malformed relay URL throws. */
function resolveWalletConnect(option: SigilOptions['walletConnect'], apiUrl: string): WalletConnectOptions | false {
  if (option === false) return false
  const given = option?.relayUrl?.trim()
  if (given) {
    let url: URL | undefined
    try {
      url = new URL(given)
    } catch {
      url = undefined
    }
    if (!url || (url.protocol !== 'ws:' && url.protocol !== 'wss:')) {
      throw new ConfigurationError(ErrorMessages.invalidRelayUrl(given), 'INVALID_RELAY_URL')
    }
    return { relayUrl: given.replace(/\/+$/, ''), verifyUrl: apiUrl || url.origin.replace(/^ws/, 'http') }
  }
  if (!apiUrl) return false
  const api = new URL(apiUrl)
  return { relayUrl: `${api.protocol === 'https:' ? 'wss:' : 'ws:'}//${api.host}/relay`, verifyUrl: apiUrl }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
