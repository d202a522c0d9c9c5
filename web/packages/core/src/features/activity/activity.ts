/*
 * The activity feature's actions and selectors: the active account's history on the active
 * chain, a page at a time (spec sections 4, 5, 7 and 8), with the session's pending sends
 * merged in until the server lists them.
 */
import { perClient } from '../../api/per-client.js'
import { activeCaipAccount, activeNetwork } from '../../active-account.js'
import type { SigilClient } from '../../client.js'
import { localized } from '../../messages/active.js'
import { featureErrors as englishFeatureErrors } from '../../messages/features.js'
import { isUnsupportedNetwork } from '../../networks.js'
import { showError } from '../../notification.js'
import type { SigilStore } from '../../store.js'
import { createHistoryClient } from './api.js'
import { activityOf, initialActivityState, type ActivityState, type PendingTransaction, type Transaction, type TransactionTransfer } from './state.js'

/** Its words in the visitor's locale (English until the modal loads one). */
const featureErrors = localized('featureErrors', englishFeatureErrors)

/** While a sent transaction is not listed yet, the first page is asked again this often. */
export const ACTIVITY_POLL_MS = 3000
/**
 * For this long after it was sent: a transaction the server never lists (a chain it does not
 * index) stays pending in the list without being asked for again and again.
 */
export const ACTIVITY_POLL_FOR_MS = 5 * 60_000

export interface FetchActivityParameters {
  /** The page after those shown (scrolling to the end); without it, the first page when the list has none. */
  next?: boolean
  /** Asks for the first page again and merges it (a sent transaction may be listed now); a failure leaves the list as it was. */
  refresh?: boolean
}

/** Settles once the page is in the list, or its failure was said. */
export type FetchActivityReturnType = undefined

/** A failed fetch is not thrown: it shows 'Failed to fetch transactions' and empties the list (spec section 8). */
export type FetchActivityErrorType = never

const running = new WeakMap<SigilStore, Map<string, Promise<undefined>>>()

/** The Sigil server's history API, one per modal. */
export const historyApi = perClient(createHistoryClient)

/** The active account as CAIP-10 (`eip155:1:0x…`), the key of its list; undefined without an address. */
export const activeActivityAccount = activeCaipAccount

/** The network the active account is on (the list's chain). */
export { activeNetwork }

const setActivity = (store: SigilStore, update: (activity: ActivityState) => Partial<ActivityState>) =>
  store.setState((state) => {
    const activity = activityOf(state)
    return { activity: { ...activity, ...update(activity) } }
  })

const sameHash = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase()

/** Whether the server lists the pending transaction. */
const isIndexed = (pending: PendingTransaction, transactions: readonly Transaction[]) =>
  transactions.some((t) => sameHash(t.metadata.hash, pending.hash) || t.id.toLowerCase().endsWith(`:${pending.hash.toLowerCase()}`))

/** `incoming` added to `existing`: only `chain`'s, each id once (the newer copy wins), newest first. */
export function mergeTransactions(existing: readonly Transaction[], incoming: readonly Transaction[], chain: string): Transaction[] {
  const byId = new Map<string, Transaction>()
  for (const t of existing) byId.set(t.id, t)
  for (const t of incoming) if (t.metadata.chain === chain) byId.set(t.id, t)
  // Date.parse of the ISO time; ties keep the server's order (Array.prototype.sort is stable).
  return [...byId.values()].sort((a, b) => (Date.parse(b.metadata.minedAt) || 0) - (Date.parse(a.metadata.minedAt) || 0))
}

/**
 * Fetches the active account's history on the active chain into `SigilState.activity` (spec
 * sections 4 and 7): the first page, or the next one by cursor; items of other chains are left
 * out and each id is kept once. Another account or chain starts a new list. Without an address
 * there is nothing to fetch (spec section 5); on an unsupported network the list is empty. A
 * failure shows 'Failed to fetch transactions' and leaves the list empty.
 */
export async function fetchActivity(client: SigilClient, params: FetchActivityParameters = {}): Promise<FetchActivityReturnType> {
  const { store } = client
  const state = store.getState()
  const account = activeActivityAccount(state)
  const network = activeNetwork(state)
  if (!account) {
    setActivity(store, () => ({ account: undefined, transactions: [], next: undefined, status: 'idle', showSpam: false }))
    return
  }
  if (activityOf(state).account !== account) {
    // Another account or chain: a new list, flagged rows hidden again.
    setActivity(store, () => ({ account, transactions: [], next: undefined, status: 'idle', showSpam: false }))
  }
  const activity = activityOf(store.getState())
  if (isUnsupportedNetwork(network)) {
    setActivity(store, () => ({ transactions: [], next: null, status: 'ready' }))
    return
  }
  let cursor: string | undefined
  if (params.next) {
    if (!activity.next || activity.status === 'loading') return
    cursor = activity.next
  } else if (!params.refresh && activity.status !== 'idle' && activity.status !== 'failed') {
    return
  }
  const showSpam = activity.showSpam
  const key = `${account}|${showSpam}|${cursor ?? ''}|${params.refresh ? 'refresh' : ''}`
  const inFlight = running.get(store) ?? new Map<string, Promise<undefined>>()
  running.set(store, inFlight)
  const already = inFlight.get(key)
  if (already) return already

  const address = account.slice(network.caipNetworkId.length + 1)
  const chain = network.caipNetworkId
  const silent = params.refresh === true
  const current = () => {
    const now = activityOf(store.getState())
    return now.account === account && now.showSpam === showSpam
  }
  const run = (async (): Promise<undefined> => {
    if (!silent) setActivity(store, () => ({ status: 'loading' }))
    try {
      const page = await historyApi(client).getHistory(address, { chainId: chain, cursor, includeSpam: showSpam })
      if (!current()) return
      setActivity(store, (now) => {
        const transactions = mergeTransactions(now.transactions, page.data, chain)
        // A refresh keeps the cursor of the pages already shown (unless none were).
        const next = params.refresh && now.next !== undefined ? now.next : page.next
        return { transactions, next, status: 'ready', pending: now.pending.filter((p) => !isIndexed(p, transactions)) }
      })
    } catch {
      if (!current() || silent) return
      setActivity(store, () => ({ transactions: [], next: null, status: 'failed' }))
      showError(store, featureErrors.failedToFetchTransactions)
    }
  })().finally(() => inFlight.delete(key))
  inFlight.set(key, run)
  return run
}

export interface SetShowSpamParameters {
  /** Show the flagged transactions (spam, address poisoning), or hide them again. */
  show: boolean
}

/** Shows or hides flagged transactions: the list is fetched again, with them (includeSpam) or without. */
export async function setShowSpam(client: SigilClient, { show }: SetShowSpamParameters): Promise<void> {
  const account = activeActivityAccount(client.store.getState())
  setActivity(client.store, () => ({ account, showSpam: show, transactions: [], next: undefined, status: 'idle' }))
  await fetchActivity(client)
}

/** A row of the Activity list: a listed transaction, or one this session sent that is not listed yet. */
export interface ActivityRow {
  transaction: Transaction
  pending: boolean
}

/** A send of this session as a history entry (status 'pending' until its adapter said how it ended). */
function pendingEntry(p: PendingTransaction): Transaction {
  return {
    id: `${p.chain}:${p.hash}`,
    metadata: {
      minedAt: new Date(p.sentAt).toISOString(),
      chain: p.chain,
      status: p.status,
      operationType: p.operationType ?? (p.direction === 'in' ? 'receive' : 'send'),
      sentFrom: p.from,
      sentTo: p.to,
      hash: p.hash,
    },
    transfers: [{ fungible_info: { name: p.symbol, symbol: p.symbol }, direction: p.direction, quantity: { numeric: p.amount } }],
  }
}

/**
 * The session's pending transactions of `account` (CAIP-10, as `activeActivityAccount` gives it)
 * that its list does not have yet.
 */
export function unlistedPending(activity: ActivityState | undefined, account: string | undefined): PendingTransaction[] {
  if (!account || !activity) return []
  const transactions = activity.account === account ? activity.transactions : []
  return activity.pending.filter((p) => `${p.chain}:${p.from}`.toLowerCase() === account.toLowerCase() && !isIndexed(p, transactions))
}

/**
 * What the Activity tab lists for `account` (CAIP-10): its pending sends first, then its listed
 * transactions, newest first; flagged ones only when shown (spec section 5). Pure, so a view can
 * memoise it on `SigilState.activity` and the account.
 */
export function activityRows(activity: ActivityState | undefined, account: string | undefined): ActivityRow[] {
  const pending = unlistedPending(activity, account).map((p) => ({ transaction: pendingEntry(p), pending: true }))
  if (!account || activity?.account !== account) return pending
  const listed = activity.transactions.filter((t) => activity.showSpam || !t.metadata.spam)
  return [...pending, ...listed.map((t) => ({ transaction: t, pending: false }))]
}

/** The list's state for `account` (a fresh one while the store's is for another account or chain). */
export function activityState(activity: ActivityState | undefined, account: string | undefined): ActivityState {
  if (activity && activity.account === account) return activity
  return { ...initialActivityState(), pending: activity?.pending ?? [] }
}

/** Operations whose amounts count towards the account (spec section 9, and a mint), and those that count away from it (and a send). */
const PLUS = new Set(['receive', 'deposit', 'borrow', 'claim', 'mint'])
const MINUS = new Set(['withdraw', 'repay', 'burn', 'send'])

/** The sign an amount shows with (spec section 9): by the operation, else by the transfer's direction; '' for a transfer to oneself. */
export function amountSign(operationType: string, transfer: Pick<TransactionTransfer, 'direction'>): '+' | '-' | '' {
  if (PLUS.has(operationType)) return '+'
  if (MINUS.has(operationType)) return '-'
  return transfer.direction === 'in' ? '+' : transfer.direction === 'out' ? '-' : ''
}

/** The other side of a transaction, and how: whom it went to, whom it came from, or the contract it went through. */
export interface Counterparty {
  relation: 'to' | 'from' | 'via'
  address: string
}

/**
 * The other side of a transaction for `address`: the first transfer's receiver or sender where
 * the server names them (Sigil's does). Else from spec section 3's sentFrom and sentTo, the
 * transaction's sender and recipient: what it got came from the sender; what it sent went to the
 * recipient when it sent the network's own coin (`nativeSymbol`), but a token or an NFT goes
 * through its contract, the transaction's recipient, to someone the entry does not name. A
 * pending send of this session names its receiver.
 */
export function counterparty(transaction: Transaction, address: string | undefined, nativeSymbol: string): Counterparty {
  const { sentFrom, sentTo, status } = transaction.metadata
  const [first] = transaction.transfers
  if (first?.sender && first.recipient) {
    return first.direction === 'in' ? { relation: 'from', address: first.sender } : { relation: 'to', address: first.recipient }
  }
  if (!address || sentFrom.toLowerCase() !== address.toLowerCase()) return { relation: 'from', address: sentFrom }
  const coin = !first || (!first.nft_info && first.fungible_info?.symbol === nativeSymbol)
  return { relation: coin || status === 'pending' ? 'to' : 'via', address: sentTo }
}

/** Units of the relative time labels ('1 min', '2 hrs'; spec section 9). */
export type RelativeUnit = 'now' | 'min' | 'hr' | 'day' | 'month' | 'year'

/** How long ago `iso` was, in the largest whole unit: 90 s -> { 1, 'min' }; under a minute (or in the future): 'now'. */
export function relativeTime(iso: string, now = Date.now()): { value: number; unit: RelativeUnit } {
  const seconds = Math.floor((now - Date.parse(iso)) / 1000)
  if (!(seconds >= 60)) return { value: 0, unit: 'now' }
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return { value: minutes, unit: 'min' }
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return { value: hours, unit: 'hr' }
  const days = Math.floor(hours / 24)
  if (days < 30) return { value: days, unit: 'day' }
  if (days < 365) return { value: Math.floor(days / 30), unit: 'month' }
  return { value: Math.floor(days / 365), unit: 'year' }
}

export interface MonthGroup<T> {
  /** '2026-11'. */
  key: string
  /** 'November 2026' in `locale`. */
  label: string
  rows: T[]
}

/** Rows grouped by the year and month they were mined in (the visitor's time zone), in the rows' order. */
export function groupByMonth<T>(rows: readonly T[], minedAt: (row: T) => string, locale: string): MonthGroup<T>[] {
  const format = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', numberingSystem: 'latn' })
  const groups: MonthGroup<T>[] = []
  for (const row of rows) {
    const time = new Date(minedAt(row))
    const valid = !Number.isNaN(time.getTime())
    const key = valid ? `${time.getFullYear()}-${String(time.getMonth() + 1).padStart(2, '0')}` : 'unknown'
    let group = groups.at(-1)
    if (group?.key !== key) {
      group = { key, label: valid ? format.format(time) : '', rows: [] }
      groups.push(group)
    }
    group.rows.push(row)
  }
  return groups
}
