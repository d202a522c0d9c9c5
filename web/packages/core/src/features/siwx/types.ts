import type { CaipNetworkId } from '../../types.js'

/** The fields of a CAIP-122 / EIP-4361 sign-in message (spec section 3 "Sign-in message"). */
export interface SIWXMessageData {
  accountAddress: string
  /** CAIP-2, e.g. 'eip155:31337'. */
  chainId: CaipNetworkId
  domain: string
  uri: string
  version: string
  nonce: string
  statement?: string
  /** RFC 3339. */
  issuedAt?: string
  expirationTime?: string
  notBefore?: string
  requestId?: string
  resources?: string[]
}

/** A message ready to be signed: its fields, and `toString()` giving the exact text. */
export interface SIWXMessage extends SIWXMessageData {
  toString(): string
}

/** A signed-in session (spec section 3 "Session"). Server-backed sessions also carry an id and an expiry. */
export interface SIWXSession {
  data: SIWXMessageData
  message: string
  signature: string
  cacao?: unknown
  /** Server session id. */
  id?: string
  /** When the session ends (RFC 3339). */
  expiresAt?: string
}

/** What `createMessage` is given. */
export interface SIWXMessageInput {
  /** In the namespace's canonical form (EIP-55 for eip155), as its chain adapter gives it. */
  accountAddress: string
  chainId: CaipNetworkId
  /** How the message names the chain ('Ethereum' for eip155), from the namespace's chain adapter. */
  accountLabel?: string
}

/**
 * What one sign-in covers: the chain it was signed on ('chain', the default: switching to another
 * chain asks again, and coming back finds the first session), or every chain of its family
 * ('family': an EVM session signed on Ethereum holds on Arbitrum too; CAIP-122 lets a session
 * stand for the account rather than one chain).
 */
export type SiwxSessionScope = 'chain' | 'family'

/**
 * Sign-in with any chain: where messages come from and where sessions live. See `serverSiwx`
 * (sessions verified and kept by the Sigil server) and `localSiwx` (kept in localStorage).
 */
export interface SIWXConfig {
  createMessage(input: SIWXMessageInput): Promise<SIWXMessage>
  /** Stores a freshly signed session; rejects (with the server's message) when it is refused. */
  addSession(session: SIWXSession): Promise<void>
  /** The sessions stored for this account on this chain (empty when there is none). */
  getSessions(chainId: CaipNetworkId, address: string): Promise<SIWXSession[]>
  revokeSession(chainId: CaipNetworkId, address: string): Promise<void>
  setSessions(sessions: SIWXSession[]): Promise<void>
  /** Whether the visitor must sign in to stay connected. */
  getRequired?(): boolean
  /** Sign out when the wallet disconnects. */
  signOutOnDisconnect?: boolean
  /** What one sign-in covers: its chain (default) or every chain of its family. */
  sessionScope?: SiwxSessionScope
  /** @internal The view sign-in shows in: SIWXSignMessage, or ConnectingSiwe for a `siweConfig`. */
  view?: 'SIWXSignMessage' | 'ConnectingSiwe'
}

/** What an older AppKit `siweConfig` is given to build its message (EIP-4361 fields). */
export interface SIWECreateMessageArgs {
  /** The account as a DID, `did:pkh:eip155:<chainId>:<address>` (what AppKit's `formatMessage(args, address)` takes). */
  address: string
  chainId: number
  domain: string
  uri: string
  nonce: string
  version: '1'
  statement?: string
  /** Issued at, RFC 3339. */
  iat: string
  exp?: string
  nbf?: string
  requestId?: string
  resources?: string[]
}

/** The message fields a `siweConfig` may give (AppKit's `getMessageParams`). */
export interface SIWEMessageParams {
  domain?: string
  uri?: string
  chains?: number[]
  statement?: string
  iat?: string
  exp?: string
  nbf?: string
  requestId?: string
  resources?: string[]
}

/** A session as a `siweConfig` reports it. */
export interface SIWESession {
  address: string
  chainId: number
}

/**
 * The older AppKit sign-in option (`@reown/appkit-siwe`'s `createSIWEConfig(...)` shape): Sigil
 * carries it onto the `siwx` machinery. Sign-in with Ethereum only: accounts of other families
 * are not asked to sign in.
 */
export interface SIWEConfig {
  getNonce(address?: string): Promise<string>
  createMessage(args: SIWECreateMessageArgs): string
  /** True when the server accepts the signature. */
  verifyMessage(args: { message: string; signature: string; cacao?: unknown }): Promise<boolean>
  /** The signed-in session, or null (an object without `address` counts as none). */
  getSession(): Promise<SIWESession | null>
  signOut(): Promise<boolean>
  getMessageParams?(): Promise<SIWEMessageParams>
  onSignIn?(session?: SIWESession): void
  onSignOut?(): void
  /** Default true. */
  enabled?: boolean
  /** The visitor must sign in to stay connected. Default false. */
  required?: boolean
  /** Default true. */
  signOutOnDisconnect?: boolean
}

export type SiwxStatus = 'signed-out' | 'signing' | 'signed-in'

/** Sign-in state in the store, for the modal and the host page's hooks. */
export interface SiwxState {
  status: SiwxStatus
  session: SIWXSession | undefined
  /** The last sign-in failure, shown in the SIWXSignMessage view. */
  error: string | undefined
}
