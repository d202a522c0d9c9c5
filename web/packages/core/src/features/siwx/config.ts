/*
 * The two `siwx` implementations a host can pass. Both are thin: the message builder, the
 * keccak code and the server client load with import() the first time they are needed.
 */
import type { KeyValueStorage } from '../../storage.js'
import { SDK_TYPE, SDK_VERSION } from '../../version.js'
import type { SIWEConfig, SIWXConfig, SiwxSessionScope } from './types.js'

export type { SIWEConfig } from './types.js'

type Impl = Omit<SIWXConfig, 'getRequired' | 'signOutOnDisconnect' | 'sessionScope'>

/** What every implementation's options share. */
interface CommonSiwxOptions {
  /** The visitor must sign in to stay connected. Default false. */
  required?: boolean
  /** One line shown in the message and in the modal. */
  statement?: string
  /** Adds an Expiration Time to messages, this many minutes after issuance. */
  expirationMinutes?: number
  /** Sign out when the wallet disconnects. Default true. */
  signOutOnDisconnect?: boolean
  /**
   * What one sign-in covers: 'chain' (default), the chain it was signed on (another chain asks
   * again; coming back to a chain signed before finds its session), or 'family', every chain of
   * its family (one signature for Ethereum, Arbitrum and Polygon).
   */
  sessionScope?: SiwxSessionScope
}

function defaultStorage(): KeyValueStorage {
  const ls = (globalThis as { localStorage?: KeyValueStorage }).localStorage
  if (ls) return ls
  const map = new Map<string, string>()
  return { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) }
}

function lazyConfig(load: () => Promise<Impl>, options: CommonSiwxOptions): SIWXConfig & { readonly statement: string | undefined } {
  let impl: Promise<Impl> | undefined
  const get = () => {
    impl ??= load()
    impl.catch(() => {
      impl = undefined
    })
    return impl
  }
  return {
    createMessage: async (input) => (await get()).createMessage(input),
    addSession: async (session) => (await get()).addSession(session),
    getSessions: async (chainId, address) => (await get()).getSessions(chainId, address),
    revokeSession: async (chainId, address) => (await get()).revokeSession(chainId, address),
    setSessions: async (sessions) => (await get()).setSessions(sessions),
    getRequired: () => options.required ?? false,
    signOutOnDisconnect: options.signOutOnDisconnect ?? true,
    sessionScope: options.sessionScope ?? 'chain',
    statement: options.statement,
  }
}

export interface ServerSiwxOptions extends CommonSiwxOptions {
  /** The Sigil server, e.g. 'https://sigil.example.com'; defaults to the page's origin. */
  apiUrl?: string
  /** The project id (the server checks the page's origin against it). */
  projectId: string
  /**
   * Where the bearer tokens are kept (the active session's under '@appkit/siwx-auth-token', each
   * chain's under '@appkit/siwx-auth-tokens'); localStorage by default.
   */
  storage?: KeyValueStorage
  fetch?: typeof fetch
  sdkType?: string
  sdkVersion?: string
}

/** Sign-in verified by the Sigil server (/auth/v1/*): nonce, signature check, sessions, sign-out. */
export function serverSiwx(options: ServerSiwxOptions): SIWXConfig & { readonly statement: string | undefined } {
  const location = (globalThis as { location?: { origin?: string } }).location
  const apiUrl = options.apiUrl ?? (location?.origin && location.origin !== 'null' ? location.origin : '')
  return lazyConfig(async () => {
    const m = await import('./server-client.js')
    return m.createServerSiwxImpl({
      apiUrl,
      projectId: options.projectId,
      sdkType: options.sdkType ?? SDK_TYPE,
      sdkVersion: options.sdkVersion ?? SDK_VERSION,
      statement: options.statement,
      expirationMinutes: options.expirationMinutes,
      storage: options.storage ?? defaultStorage(),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    })
  }, options)
}

export interface LocalSiwxOptions extends CommonSiwxOptions {
  /** Key '@appkit/siwx'; localStorage by default. */
  storage?: KeyValueStorage
}

/**
 * Sign-in kept in the browser, for sites without a server: the signature is stored but NOT
 * verified, so it proves nothing to a backend.
 */
export function localSiwx(options: LocalSiwxOptions = {}): SIWXConfig & { readonly statement: string | undefined } {
  return lazyConfig(async () => {
    const m = await import('./local-impl.js')
    return m.createLocalSiwxImpl({ storage: options.storage ?? defaultStorage(), statement: options.statement, expirationMinutes: options.expirationMinutes })
  }, options)
}

/** An older AppKit `siweConfig` on the `siwx` machinery, shown in the ConnectingSiwe view. */
export function siweSiwx(siwe: SIWEConfig): SIWXConfig {
  const config: SIWXConfig = lazyConfig(() => import('./siwe.js').then((m) => m.createSiweImpl(siwe)), siwe)
  config.view = 'ConnectingSiwe'
  return config
}
