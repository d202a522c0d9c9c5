/*
 * The embedded-wallet API on this frame's own origin (/wallet/v1/...). The session token is
 * kept in this origin's storage only and sent as a bearer token; it never leaves the frame.
 */
import { localeTag } from './words.js'

const TOKEN_KEY = 'sigil-frame:token'
/** The device secret: the server knows this device by its hash; it is only ever sent to this origin. */
const DEVICE_KEY = 'sigil-frame:device-secret'
/** How the user wants EVM calls sent: from the smart account (the spec's eip155 default) or the EOA. */
const ACCOUNT_TYPE_KEY = 'sigil-frame:preferred-account-type'

/** The account types the embedded EVM account can be used as (one address either way, EIP-7702). */
export type EvmAccountType = 'eoa' | 'smartAccount'

export interface ApiAccount {
  namespace: 'eip155' | 'solana'
  address: string
  type: 'eoa' | 'smartAccount' | 'payment'
}
export interface ApiUser {
  email?: string
  accounts: ApiAccount[]
}

/**
 * The server's answer to claiming a social or Farcaster login: not finished yet (a Farcaster
 * channel says why a message posted to it was refused), back from the provider (the claim
 * secret is needed), or the session.
 */
export type LoginClaim =
  | { status: 'pending'; refused?: string }
  | { status: 'returned' }
  | { status: 'connected'; token: string; user: ApiUser; provider: string; userName?: string | null }

/** A JSON-RPC error object as a chain's node answered it. */
export type ChainError = { code: number; message: string; data?: unknown }

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The server's machine-readable code (`login_failed`, …). */
    readonly code?: string,
  ) {
    super(message)
  }
}

function storage(): Storage | undefined {
  try {
    return window.localStorage
  } catch {
    return undefined
  }
}

let memoryToken: string | undefined
let memoryDevice: string | undefined
let memoryAccountType: EvmAccountType | undefined

export const session = {
  token(): string | undefined {
    return storage()?.getItem(TOKEN_KEY) ?? memoryToken
  },
  setToken(token: string | undefined) {
    memoryToken = token
    if (token) storage()?.setItem(TOKEN_KEY, token)
    else storage()?.removeItem(TOKEN_KEY)
  },
  preferredAccountType(): EvmAccountType {
    return (storage()?.getItem(ACCOUNT_TYPE_KEY) ?? memoryAccountType) === 'eoa' ? 'eoa' : 'smartAccount'
  },
  setPreferredAccountType(type: EvmAccountType) {
    memoryAccountType = type
    storage()?.setItem(ACCOUNT_TYPE_KEY, type)
  },
  deviceSecret(): string {
    const stored = storage()?.getItem(DEVICE_KEY) ?? memoryDevice
    if (stored && /^[A-Za-z0-9_-]{32,128}$/.test(stored)) return stored
    const bytes = new Uint8Array(32)
    crypto.getRandomValues(bytes)
    const secret = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
    memoryDevice = secret
    storage()?.setItem(DEVICE_KEY, secret)
    return secret
  },
}

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown, auth = false, signal?: AbortSignal): Promise<T> {
  const headers: Record<string, string> = {}
  if (body !== undefined) headers['content-type'] = 'application/json'
  const token = session.token()
  if (auth && token) headers.authorization = `Bearer ${token}`
  // The emails the server sends (codes, device links) are written in the modal's locale.
  headers['accept-language'] = localeTag()
  const res = await fetch(`/wallet/v1/${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    ...(signal ? { signal } : {}),
    credentials: 'omit',
  })
  if (res.status === 204) return undefined as T
  const data = (await res.json().catch(() => undefined)) as { error?: { message?: string; code?: string } } | undefined
  if (!res.ok) throw new ApiError(data?.error?.message ?? `HTTP ${res.status}`, res.status, data?.error?.code)
  return data as T
}

export const api = {
  connectEmail: (email: string) =>
    call<{ action: 'VERIFY_DEVICE' | 'VERIFY_OTP' | 'CONNECT' }>('POST', 'connect-email', {
      email,
      deviceSecret: session.deviceSecret(),
      locale: localeTag(),
      ...(session.token() ? { token: session.token() } : {}),
    }),
  /** Asked every 2 s while the user opens the emailed link: VERIFY_DEVICE until it was, then VERIFY_OTP (a code was sent). */
  connectDevice: (email: string) =>
    call<{ action: 'VERIFY_DEVICE' | 'VERIFY_OTP' }>('POST', 'connect-device', { email, deviceSecret: session.deviceSecret(), locale: localeTag() }),
  connectOtp: (email: string, otp: string) =>
    call<{ token: string; user: ApiUser }>('POST', 'connect-otp', { email, otp, deviceSecret: session.deviceSecret() }),
  user: () => call<ApiUser>('GET', 'user', undefined, true),
  isConnected: () => call<{ isConnected: boolean }>('GET', 'is-connected', undefined, true),
  refresh: () => call<{ token: string }>('POST', 'refresh', undefined, true),
  signOut: () => call<void>('POST', 'sign-out', undefined, true),
  /**
   * The chain's answer: a result, or the JSON-RPC error it refused with (insufficient funds, a
   * revert). EVM call batches go as `accountType` says (the user's preference unless given).
   */
  rpc: (chainId: string, method: string, params: unknown, accountType: EvmAccountType = session.preferredAccountType()) =>
    call<{ result: unknown } | { error: ChainError }>('POST', 'rpc', { chainId, method, params: params ?? [], accountType }, true),
  updateEmail: (email: string) => call<{ action: 'VERIFY_PRIMARY_OTP' | 'VERIFY_SECONDARY_OTP' }>('POST', 'update-email', { email }, true),
  updateEmailPrimary: (otp: string) => call<{ action: 'VERIFY_SECONDARY_OTP' }>('POST', 'update-email/primary', { otp }, true),
  updateEmailSecondary: (otp: string) => call<{ newEmail: string }>('POST', 'update-email/secondary', { otp }, true),
  socialRedirect: (provider: string, returnUrl: string | undefined, projectId: string | undefined) =>
    call<{ uri: string }>('POST', 'social/redirect', {
      provider,
      deviceSecret: session.deviceSecret(),
      ...(returnUrl ? { returnUrl, ...(projectId ? { projectId } : {}) } : {}),
    }),
  /**
   * Claims a social login with the claim secret its login window gave this browser; without
   * it, waits on the server up to 20 s for the person to finish at the provider.
   */
  socialConnect: (uri: string, claim: string | undefined, signal?: AbortSignal) =>
    call<LoginClaim>('POST', 'social/connect', { uri, deviceSecret: session.deviceSecret(), ...(claim ? { claim } : {}) }, false, signal),
  farcasterUri: () => call<{ url: string; channelToken: string }>('POST', 'farcaster/uri', { deviceSecret: session.deviceSecret() }),
  /** Waits on the server up to 20 s for the Farcaster app to sign in on the channel. */
  farcasterConnect: (channelToken: string) => call<LoginClaim>('POST', 'farcaster/connect', { channelToken, deviceSecret: session.deviceSecret() }),
  exportRequest: () => call<void>('POST', 'export/request', {}, true),
  exportKeys: (otp: string) => call<{ eip155: string; solana: string }>('POST', 'export', { otp }, true),
}
