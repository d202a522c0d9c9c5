/*
 * The activity feature's state (`SigilState.activity`): the history list of the active account
 * on the active chain, and the transactions this session sent that the server has not indexed
 * yet. Small on purpose: the send action imports `addPendingTransaction` from here.
 */
import type { SigilStore } from '../../store.js'

/** An operation as the history API names it (AppKit's TransactionType). */
export type OperationType =
  | 'approve'
  | 'bought'
  | 'borrow'
  | 'burn'
  | 'cancel'
  | 'claim'
  | 'deploy'
  | 'deposit'
  | 'execute'
  | 'mint'
  | 'receive'
  | 'repay'
  | 'send'
  | 'stake'
  | 'trade'
  | 'unstake'
  | 'withdraw'

export type TransactionStatus = 'confirmed' | 'failed' | 'pending'
export type TransferDirection = 'in' | 'out' | 'self'

/** Why the server flagged a transaction as spam: a zero-value transfer by another sender (address poisoning), or a token named like a known one. */
export interface SpamFlag {
  reason: string
}

export interface TransactionMetadata {
  /** ISO 8601. */
  minedAt: string
  /** CAIP-2. */
  chain: string
  status: TransactionStatus
  operationType: string
  sentFrom: string
  sentTo: string
  hash?: string | undefined
  nonce?: number | undefined
  /** Set when the server flagged it (only asked for with includeSpam). */
  spam?: SpamFlag | null | undefined
}

export interface FungibleInfo {
  name: string
  symbol: string
  icon?: { url: string } | null | undefined
}

export interface NftInfo {
  name: string
  content?: { preview?: { url: string } | null | undefined; detail?: { url: string } | null | undefined } | null | undefined
  flags?: { is_spam?: boolean | undefined } | null | undefined
}

export interface TransactionTransfer {
  fungible_info?: FungibleInfo | null | undefined
  nft_info?: NftInfo | null | undefined
  direction: TransferDirection
  quantity: { numeric: string }
  value?: number | null | undefined
  price?: number | null | undefined
  /** Who it moved from and to, where the server says (Sigil's does; a token's receiver is not the transaction's sentTo). */
  sender?: string | undefined
  recipient?: string | undefined
}

/** One history entry, as `GET /v1/account/{address}/history` gives it (spec section 3). */
export interface Transaction {
  /** `eip155:1:0x<hash>`. */
  id: string
  metadata: TransactionMetadata
  transfers: TransactionTransfer[]
}

/** A transaction this session sent, shown as pending until the server lists it. */
export interface PendingTransaction {
  /** The transaction's hash (Solana: its signature). */
  hash: string
  /** CAIP-2. */
  chain: string
  from: string
  to: string
  /** Decimal, e.g. '0.01'. */
  amount: string
  symbol: string
  direction: TransferDirection
  /** What it does, as the history API names it ('trade' for a swap); by its direction without it. */
  operationType?: OperationType | undefined
  /** When it was sent (ms since the epoch). */
  sentAt: number
  /**
   * What this session knows of it: 'pending' until the wallet's adapter says the chain has it,
   * then 'confirmed', or 'failed' when the chain reverted it (a chain the server does not index
   * never lists it, so the entry tells).
   */
  status: TransactionStatus
}

/** Where the history list stands: not asked, a page on its way, shown, or the last fetch failed (the list is then empty). */
export type ActivityStatus = 'idle' | 'loading' | 'ready' | 'failed'

export interface ActivityState {
  /** The CAIP-10 account (`eip155:1:0x…`) the list is for; another account or chain starts a new list. */
  account: string | undefined
  /** Newest first, each id once, only the account's chain. */
  transactions: Transaction[]
  /** The cursor of the next page; null at the end; undefined before the first page. */
  next: string | null | undefined
  status: ActivityStatus
  /** Whether flagged transactions (spam, address poisoning) are asked for and shown. */
  showSpam: boolean
  /** Sent in this session and not indexed yet (at most PENDING_LIMIT, newest first). */
  pending: PendingTransaction[]
}

/** Pending transactions kept at most (spec section 9). */
export const PENDING_LIMIT = 99

export function initialActivityState(): ActivityState {
  return { account: undefined, transactions: [], next: undefined, status: 'idle', showSpam: false, pending: [] }
}

export const activityOf = (state: { activity?: ActivityState | undefined }): ActivityState => state.activity ?? initialActivityState()

export type AddPendingTransactionParameters = Omit<PendingTransaction, 'sentAt' | 'status'> & { sentAt?: number; status?: TransactionStatus }

/**
 * Shows a transaction just sent in the Activity list at once, as pending (or as `status` says),
 * until the server has it. Adding a hash again updates its status and keeps when it was sent.
 */
export function addPendingTransaction(store: SigilStore, transaction: AddPendingTransactionParameters): void {
  store.setState((state) => {
    const activity = activityOf(state)
    const same = (p: PendingTransaction) => p.hash.toLowerCase() === transaction.hash.toLowerCase()
    const before = activity.pending.find(same)
    const entry: PendingTransaction = { ...transaction, sentAt: before?.sentAt ?? transaction.sentAt ?? Date.now(), status: transaction.status ?? 'pending' }
    return { activity: { ...activity, pending: [entry, ...activity.pending.filter((p) => !same(p))].slice(0, PENDING_LIMIT) } }
  })
}
