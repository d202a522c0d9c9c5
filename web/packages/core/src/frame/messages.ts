/*
 * The embedded-wallet frame's messages (spec section 3, "Frame messages"), as zod schemas: the
 * host page and the frame page both validate every message against them before posting it and
 * on receipt. Requests carry a random id and get exactly one RESPONSE with that id.
 * Shared by @sigil/core (the bridge) and @sigil/frame (the secure page): `@sigil/core/frame-messages`.
 */
import { z } from 'zod'
import { FRAME_NAMESPACES } from './namespaces.js'

/** A request id: random, hex or uuid-like, never empty. */
const id = z.string().regex(/^[A-Za-z0-9-]{8,64}$/)
const otp = z.string().regex(/^\d{6}$/)
const email = z.string().min(3).max(254)
/** A BCP 47 tag (the modal's locale): it only picks the frame's words and the emails' language. */
const locale = z.string().regex(/^[A-Za-z0-9-]{2,35}$/)
const accountType = z.enum(['eoa', 'smartAccount', 'payment'])
const chainId = z.union([z.number().int().nonnegative(), z.string().min(1).max(100)])
/** A provider id as the server names it: google, github, … or a configured issuer's id. */
const socialProvider = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/)
/** A host network by name, for the frame's approval view ("Network: Sigil Dev"): its CAIP-2 id and name. */
const networkName = z.object({ caipNetworkId: z.string().min(3).max(100), name: z.string().min(1).max(64) })

/** Every app-to-frame request: its type and payload. */
export const AppRequest = z.discriminatedUnion('type', [
  z.object({ id, type: z.literal('SWITCH_NETWORK'), payload: z.object({ chainId }) }),
  z.object({ id, type: z.literal('CONNECT_EMAIL'), payload: z.object({ email, locale: locale.optional() }) }),
  z.object({ id, type: z.literal('CONNECT_DEVICE') }),
  z.object({ id, type: z.literal('CONNECT_OTP'), payload: z.object({ otp }) }),
  z.object({ id, type: z.literal('CONNECT_SOCIAL'), payload: z.object({ uri: z.string().max(4096), preferredAccountType: accountType.optional() }) }),
  z.object({ id, type: z.literal('GET_FARCASTER_URI') }),
  z.object({ id, type: z.literal('CONNECT_FARCASTER') }),
  z.object({
    id,
    type: z.literal('GET_USER'),
    payload: z.object({ chainId: chainId.optional(), preferredAccountType: accountType.optional(), socialUri: z.string().max(4096).optional() }).optional(),
  }),
  z.object({
    id,
    type: z.literal('GET_SOCIAL_REDIRECT_URI'),
    // `returnUrl`: for a full-page login (popups blocked, mobile), the host page to come back to.
    payload: z.object({
      provider: socialProvider,
      returnUrl: z
        .url({ protocol: /^https?$/ })
        .max(2048)
        .optional(),
    }),
  }),
  z.object({ id, type: z.literal('SIGN_OUT') }),
  z.object({ id, type: z.literal('IS_CONNECTED'), payload: z.object({ token: z.string().max(200).optional() }).optional() }),
  z.object({ id, type: z.literal('GET_CHAIN_ID') }),
  z.object({ id, type: z.literal('GET_SMART_ACCOUNT_ENABLED_NETWORKS') }),
  z.object({ id, type: z.literal('INIT_SMART_ACCOUNT') }),
  z.object({ id, type: z.literal('SET_PREFERRED_ACCOUNT'), payload: z.object({ type: accountType }) }),
  z.object({
    id,
    type: z.literal('RPC_REQUEST'),
    payload: z.object({ method: z.string().min(1).max(100), params: z.unknown().optional(), chainId: chainId.optional() }),
  }),
  z.object({ id, type: z.literal('UPDATE_EMAIL'), payload: z.object({ email }) }),
  z.object({ id, type: z.literal('UPDATE_EMAIL_PRIMARY_OTP'), payload: z.object({ otp }) }),
  z.object({ id, type: z.literal('UPDATE_EMAIL_SECONDARY_OTP'), payload: z.object({ otp }) }),
  z.object({
    id,
    type: z.literal('SYNC_THEME'),
    payload: z.object({ themeMode: z.enum(['light', 'dark']), themeVariables: z.record(z.string(), z.union([z.string(), z.number()])).optional() }),
  }),
  z.object({
    id,
    type: z.literal('SYNC_DAPP_DATA'),
    payload: z.object({
      metadata: z.object({ name: z.string(), description: z.string(), url: z.string(), icons: z.array(z.string()) }).optional(),
      sdkVersion: z.string(),
      sdkType: z.string(),
      projectId: z.string(),
      /** Sigil's own: the host's networks by name (the frame names the networks it knows itself). */
      networks: z.array(networkName).max(100).optional(),
    }),
  }),
  z.object({ id, type: z.literal('RELOAD') }),
  /** Sigil's own: the frame shows the user's private keys to them, after a fresh email code; settles when they are done. */
  z.object({ id, type: z.literal('EXPORT_KEYS') }),
])
export type AppRequest = z.infer<typeof AppRequest>
export type AppRequestType = AppRequest['type']

const account = z.object({ namespace: z.enum(FRAME_NAMESPACES), address: z.string().min(1).max(100), type: accountType })
/** The user the frame is logged in as: never a token or a key. */
export const FrameUser = z.object({
  email: z.string().optional(),
  address: z.string(),
  chainId,
  smartAccountDeployed: z.boolean().optional(),
  accounts: z.array(account),
  preferredAccountType: accountType,
  userName: z.string().optional(),
})
export type FrameUser = z.infer<typeof FrameUser>

/**
 * A social or Farcaster login the person has not finished yet: the frame asked the server once
 * (it waits up to 20 s) and the host asks again, so no single request outlives its timeout.
 */
export const LoginPending = z.object({
  pending: z.literal(true),
  /** Why the latest message posted to a Farcaster channel was refused: the channel stays open. */
  refused: z.string().max(1000).optional(),
})

/** Connect social's success: the user, the provider and the username it gave. */
export const SocialUser = FrameUser.extend({ provider: socialProvider })
export type SocialUser = z.infer<typeof SocialUser>

/** The success payload each request type answers with. */
export const ResultOf = {
  SWITCH_NETWORK: z.object({ chainId }),
  CONNECT_EMAIL: z.object({ action: z.enum(['VERIFY_DEVICE', 'VERIFY_OTP', 'CONNECT']) }),
  /** Not approved yet (VERIFY_DEVICE: the host asks again), or approved and a code sent (VERIFY_OTP). */
  CONNECT_DEVICE: z.object({ action: z.enum(['VERIFY_DEVICE', 'VERIFY_OTP']) }),
  CONNECT_OTP: z.object({}),
  CONNECT_SOCIAL: z.union([LoginPending, SocialUser]),
  GET_FARCASTER_URI: z.object({ url: z.url({ protocol: /^https?$/ }) }),
  CONNECT_FARCASTER: z.union([LoginPending, z.object({ userName: z.string().max(100) })]),
  GET_USER: FrameUser,
  GET_SOCIAL_REDIRECT_URI: z.object({ uri: z.string() }),
  SIGN_OUT: z.object({}),
  IS_CONNECTED: z.object({ isConnected: z.boolean() }),
  GET_CHAIN_ID: z.object({ chainId }),
  GET_SMART_ACCOUNT_ENABLED_NETWORKS: z.object({ smartAccountEnabledNetworks: z.array(z.number().int()) }),
  INIT_SMART_ACCOUNT: z.object({ address: z.string() }),
  SET_PREFERRED_ACCOUNT: z.object({ type: accountType, address: z.string() }),
  RPC_REQUEST: z.object({ result: z.unknown() }),
  UPDATE_EMAIL: z.object({ action: z.enum(['VERIFY_PRIMARY_OTP', 'VERIFY_SECONDARY_OTP']) }),
  UPDATE_EMAIL_PRIMARY_OTP: z.object({ action: z.literal('VERIFY_SECONDARY_OTP') }),
  UPDATE_EMAIL_SECONDARY_OTP: z.object({ newEmail: z.string() }),
  SYNC_THEME: z.object({}),
  SYNC_DAPP_DATA: z.object({}),
  RELOAD: z.object({}),
  EXPORT_KEYS: z.object({}),
} satisfies Record<AppRequestType, z.ZodType>
export type ResultOf<T extends AppRequestType> = z.infer<(typeof ResultOf)[T]>

/** Every frame-to-app message: one reply per request, and the frame's own events. */
export const FrameMessage = z.union([
  z.object({ type: z.literal('FRAME_READY'), payload: z.object({ version: z.string().max(40).optional() }) }),
  z.object({ type: z.literal('HEARTBEAT') }),
  /**
   * Sigil's own: the height (CSS pixels) the frame's view needs at its present width. The host
   * sizes the iframe to it within the space it has; the view scrolls inside when that is less.
   */
  z.object({ type: z.literal('FRAME_HEIGHT'), payload: z.object({ height: z.number().int().min(0).max(10_000) }) }),
  z.object({ id, type: z.literal('RESPONSE'), ok: z.literal(true), payload: z.unknown() }),
  z.object({ id, type: z.literal('RESPONSE'), ok: z.literal(false), error: z.object({ message: z.string().max(1000), code: z.number().int().optional() }) }),
])
export type FrameMessage = z.infer<typeof FrameMessage>

/** RPC methods that need no approval: reads (spec section 6). */
export const SAFE_RPC_METHODS: readonly string[] = [
  'eth_accounts',
  'eth_requestAccounts',
  'eth_chainId',
  'eth_blockNumber',
  'eth_call',
  'eth_estimateGas',
  'eth_gasPrice',
  'eth_maxPriorityFeePerGas',
  'eth_feeHistory',
  'eth_getBalance',
  'eth_getBlockByHash',
  'eth_getBlockByNumber',
  'eth_getCode',
  'eth_getLogs',
  'eth_getStorageAt',
  'eth_getTransactionByHash',
  'eth_getTransactionCount',
  'eth_getTransactionReceipt',
  'eth_newFilter',
  'eth_newBlockFilter',
  'eth_getFilterChanges',
  'eth_getFilterLogs',
  'eth_uninstallFilter',
  'net_version',
  'wallet_getCapabilities',
  'wallet_getCallsStatus',
  'wallet_getAssets',
]

/** RPC methods the user approves in the frame first (spec section 6). */
export const UNSAFE_RPC_METHODS: readonly string[] = [
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'solana_signMessage',
  'solana_signTransaction',
  'solana_signAllTransactions',
  'solana_signAndSendTransaction',
  'wallet_sendCalls',
  'wallet_grantPermissions',
  'wallet_revokePermissions',
  'eth_sendUserOperation',
]

/** RPC methods the embedded wallet's key signs (the Sigil server's signer); the others of UNSAFE_RPC_METHODS it refuses. */
export const SIGNING_RPC_METHODS: readonly string[] = [
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_sendTransaction',
  'solana_signMessage',
  'solana_signTransaction',
  'wallet_sendCalls',
]

/** What the embedded wallet allows, as a session lists a wallet's methods: the reads and what it signs. */
export const FRAME_METHODS: readonly string[] = [...SAFE_RPC_METHODS, ...SIGNING_RPC_METHODS]

export type RpcSafety = 'safe' | 'unsafe' | 'not-allowed'

export function rpcSafety(method: string): RpcSafety {
  if (SAFE_RPC_METHODS.includes(method)) return 'safe'
  if (UNSAFE_RPC_METHODS.includes(method)) return 'unsafe'
  return 'not-allowed'
}

/** 'Requested RPC call is not allowed' (spec section 6). */
export const RPC_NOT_ALLOWED = 'Requested RPC call is not allowed'

/**
 * Whether `origin` is allowed by one of `patterns`: '*', an exact origin, or a wildcard
 * `scheme://*.host[:port]` that needs at least one label before the host (as the directory's
 * allowed origins).
 */
export function originAllowed(patterns: readonly string[], origin: string): boolean {
  let url: URL
  try {
    url = new URL(origin)
  } catch {
    return false
  }
  if (url.origin !== origin || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false
  return patterns.some((pattern) => {
    if (pattern === '*') return true
    const wild = /^(https?):\/\/\*(\.[^:/]+)(?::(\d+))?$/.exec(pattern)
    if (!wild) return pattern.replace(/\/$/, '').toLowerCase() === origin
    const [, scheme, suffix = '', port = ''] = wild
    return url.protocol === `${scheme}:` && url.port === port && url.hostname.length > suffix.length && url.hostname.endsWith(suffix.toLowerCase())
  })
}
