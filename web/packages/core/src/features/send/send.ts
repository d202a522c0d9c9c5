/*
 * The send feature's actions: a transfer from the active account through its family's adapter
 * (`sendTransfer`), and what its views ask before it: the checks and the fee (`prepareSend`, the
 * Preview), the most that can be sent (`maxSendAmount`, 'Max'), a receiver's name resolved for
 * the active network (`resolveReceiver`), and what the form still lacks (`sendStep`). Amounts
 * are integers in the token's smallest unit throughout. Loaded with the send views or on the
 * first send (`client.send`), never with the host page.
 */
import { activeAccount } from '../../account.js'
import type { Transfer, TransferFee } from '../../adapter.js'
import type { SigilClient } from '../../client.js'
import { providerOf } from '../../connection.js'
import type { SigilContext } from '../../context.js'
import {
  AmountAndReceiverRequiredError,
  NotConnectedError,
  TokenRequiredError,
  toSigilError,
  UnsupportedChainError,
  type SigilError,
  type UserRejectedRequestError,
} from '../../errors.js'
import { floorDecimals, formatUnits } from '../../format.js'
import { addPendingTransaction, type AddPendingTransactionParameters, type TransactionStatus } from '../activity/state.js'
import { pushView, replaceView } from '../../router.js'
import type { RouteEntry, SigilStore, ViewParams } from '../../store.js'
import type { CaipNetwork, TokenBalance } from '../../types.js'
import { InsufficientBalanceError, InvalidAmountError, InvalidReceiverError, NameNotResolvedError, transactionError, type TransactionError } from './errors.js'

export { InsufficientBalanceError, InvalidAmountError, InvalidReceiverError, NameNotResolvedError, TransactionError, transactionError } from './errors.js'

export interface SendParameters {
  /** The receiver's address, or a name the network's family resolves (alice.eth). */
  to: string
  /** A decimal amount of the token, e.g. '1.5'. */
  amount: string
  /** The token's address, or 'native' for the network's own currency (its balance entry without address). */
  token: string | undefined
  /** The fee quote the Preview showed (prepareSend's): the check keeps it back and the transaction keeps to its gas terms. */
  fee?: TransferFee
}

/** The transaction's id, once the chain has it. */
export type SendReturnType = string

export type SendErrorType =
  | AmountAndReceiverRequiredError
  | TokenRequiredError
  | UnsupportedChainError
  | NotConnectedError
  | InvalidReceiverError
  | NameNotResolvedError
  | InvalidAmountError
  | InsufficientBalanceError
  | UserRejectedRequestError
  | TransactionError
  | SigilError

/** '1.5' with 6 decimals is 1500000n; undefined when it is not a positive amount with at most that many decimals. */
export function parseAmount(amount: string, decimals: number): bigint | undefined {
  if ((/\.(\d*)$/.exec(amount.trim())?.[1] ?? '').length > decimals) return undefined
  const value = unitsOf(amount, decimals)
  return value !== undefined && value > 0n ? value : undefined
}

/** A balance as the modal holds it ('1.5') in the smallest unit; digits past `decimals` are dropped; undefined when unreadable. */
export function unitsOf(numeric: string, decimals: number): bigint | undefined {
  const match = /^(\d*)(?:\.(\d*))?$/.exec(numeric.trim())
  if (!match || (match[1] === '' && !match[2])) return undefined
  return BigInt((match[1] || '0') + (match[2] ?? '').slice(0, decimals).padEnd(decimals, '0'))
}

/** A fee in its currency's units, rounded up to 6 decimals: a short figure that never says less than the fee. */
export function formatFee(fee: bigint, decimals: number): string {
  const step = 10n ** BigInt(Math.max(decimals - 6, 0))
  return formatUnits(((fee + step - 1n) / step) * step, decimals)
}

/** What a send will do once signed: the transfer (to the resolved address), the name it was given, its token and its fee. */
export interface PreparedSend {
  transfer: Transfer
  /** The receiver's name, when one was given and resolved to `transfer.to`. */
  name?: string
  token: TokenBalance
  /** The fee quote, when the adapter can tell it (EVM: gas times the fee cap). */
  fee?: TransferFee
  /** The currency the fee is paid in. */
  feeCurrency: { symbol: string; decimals: number }
}

export type PrepareSendParameters = SendParameters
export type PrepareSendReturnType = PreparedSend
export type PrepareSendErrorType = Exclude<SendErrorType, UserRejectedRequestError | TransactionError>

/** Whether `to` reads as a name (dot-separated labels, no spaces) rather than an address. */
export function isName(to: string): boolean {
  return /^[^\s.]+(\.[^\s.]+)+$/.test(to.trim()) && !/^0x[0-9a-f]*$/i.test(to.trim())
}

/** Whether `to` is an address of the active network's family (its adapter's rule; any text when it has none). */
export function isReceiverAddress(client: SigilClient, to: string): boolean {
  const state = client.store.getState()
  return client.context.adapters[state.activeNamespace]?.isAddress?.(to.trim()) ?? to.trim() !== ''
}

/** The token `key` names among the account's balances: 'native' is the entry without an address. */
export function heldToken(held: readonly TokenBalance[], key: string | undefined): TokenBalance | undefined {
  return key === 'native' ? held.find((t) => !t.address) : key ? held.find((t) => t.address === key) : undefined
}

/** A token's key as SendParameters name it. */
export const tokenKey = (token: TokenBalance): string => token.address ?? 'native'

/** What the active namespace sends with, or why it cannot. */
function sender(ctx: SigilContext) {
  const state = ctx.store.getState()
  const namespace = state.activeNamespace
  const chain = state.chains[namespace]
  const from = activeAccount(state).address
  const network = chain?.network.caipNetwork
  const provider = providerOf(ctx, namespace)
  const adapter = ctx.adapters[namespace]
  if (!adapter?.sendTransfer) throw new UnsupportedChainError(namespace)
  if (!from || !network || provider === undefined) throw new NotConnectedError()
  return { adapter, from, network, provider, held: chain?.account.tokenBalance ?? [] }
}

/** The address `name` gives `network` through its family's adapter; undefined when none (or the family resolves no names). */
async function resolveFor(ctx: SigilContext, name: string, network: CaipNetwork): Promise<string | undefined> {
  const adapter = ctx.adapters[network.chainNamespace]
  if (!adapter?.resolveName || !ctx.blockchainApi) return undefined
  return adapter.resolveName(name.trim(), network, await ctx.blockchainApi())
}

/**
 * Whom a send goes to on `network`: `given` itself when it is an address of the network's family,
 * else the address its name gives the network (with the name); refused before the wallet is asked
 * when it is neither (InvalidReceiverError) or the name gives none (NameNotResolvedError).
 */
export async function receiverOf(ctx: SigilContext, given: string, network: CaipNetwork): Promise<{ to: string; name?: string }> {
  const adapter = ctx.adapters[network.chainNamespace]
  if (adapter?.isAddress?.(given) !== false) return { to: given }
  if (!isName(given) || !adapter.resolveName) throw new InvalidReceiverError(network.name)
  const resolved = await resolveFor(ctx, given, network).catch(() => undefined)
  if (!resolved) throw new NameNotResolvedError(given, network.name)
  return { to: resolved, name: given }
}

/** The active network's native balance in its smallest unit (0 when the modal holds none), and its currency. */
function nativeOf(held: readonly TokenBalance[], network: CaipNetwork) {
  const native = held.find((t) => !t.address)
  const decimals = native ? Number(native.quantity.decimals) : network.nativeCurrency.decimals
  return { balance: native ? (unitsOf(native.quantity.numeric, decimals) ?? 0n) : 0n, symbol: native?.symbol ?? network.nativeCurrency.symbol, decimals }
}

/**
 * Every check a send makes before the wallet is asked (see send), the receiver's name resolved
 * for the active network, and the fee quoted: what the Preview shows.
 */
async function prepare(ctx: SigilContext, params: SendParameters) {
  const { adapter, from, network, provider, held } = sender(ctx)
  const given = params.to.trim()
  if (!params.amount.trim() || !given) throw new AmountAndReceiverRequiredError()
  const token = heldToken(held, params.token)
  if (!token) throw new TokenRequiredError()
  const decimals = Number(token.quantity.decimals)
  const { to, name } = await receiverOf(ctx, given, network)
  const amount = parseAmount(params.amount, decimals)
  if (amount === undefined) throw new InvalidAmountError(decimals)
  const balance = unitsOf(token.quantity.numeric, decimals)
  if (balance !== undefined && amount > balance) throw InsufficientBalanceError.amount(floorDecimals(token.quantity.numeric, 3), token.symbol)
  const transfer: Transfer = { from, to, amount, ...(token.address ? { token: { address: token.address, decimals } } : {}), network }
  // The fee is paid in the network's own currency: the native balance keeps it back.
  const fee = params.fee ?? (await adapter.transferFee?.(provider, transfer).catch(() => undefined))
  const native = nativeOf(held, network)
  if (fee && (token.address ? 0n : amount) + fee.fee > native.balance) {
    throw InsufficientBalanceError.fee(formatFee(fee.fee, native.decimals), native.symbol)
  }
  if (fee?.gas) transfer.gas = fee.gas
  const prepared: PreparedSend = { transfer, token, feeCurrency: { symbol: native.symbol, decimals: native.decimals } }
  if (name) prepared.name = name
  if (fee) prepared.fee = fee
  return { prepared, adapter, provider }
}

/**
 * Checks a send as `send` would, resolves the receiver's name and quotes the fee, without
 * asking the wallet: what the Preview shows before 'Send'.
 */
export async function prepareSend(client: SigilClient, params: PrepareSendParameters): Promise<PrepareSendReturnType> {
  return (await prepare(client.context, params)).prepared
}

export interface MaxSendAmountParameters {
  /** The token's key: its address, or 'native'. */
  token: string
  /** The receiver, when known (the fee of a transfer to a contract is higher). */
  to?: string
}
/** In the token's smallest unit. */
export type MaxSendAmountReturnType = bigint

/**
 * The most of `token` the account can send: all of a token's balance; of the network's own
 * currency, the balance less the fee (gas times the fee cap, the adapter's quote), never below 0.
 */
export async function maxSendAmount(client: SigilClient, params: MaxSendAmountParameters): Promise<MaxSendAmountReturnType> {
  const { adapter, from, network, provider, held } = sender(client.context)
  const token = heldToken(held, params.token)
  if (!token) throw new TokenRequiredError()
  const decimals = Number(token.quantity.decimals)
  const balance = unitsOf(token.quantity.numeric, decimals) ?? 0n
  if (token.address) return balance
  const to = params.to && adapter.isAddress?.(params.to) !== false ? params.to : from
  const quote = await adapter.transferFee?.(provider, { from, to, amount: balance, network }).catch(() => undefined)
  const max = balance - (quote?.fee ?? 0n)
  return max > 0n ? max : 0n
}

export interface ResolveReceiverParameters {
  name: string
}
/** The address, or undefined when the name gives the active network none. */
export type ResolveReceiverReturnType = string | undefined

/** The address a receiver's name gives the active network, for its coin type only (ENSIP-11); undefined when none. */
export async function resolveReceiver(client: SigilClient, { name }: ResolveReceiverParameters): Promise<ResolveReceiverReturnType> {
  const network = client.store.getState().chains[client.store.getState().activeNamespace]?.network.caipNetwork
  if (!network || !isName(name)) return undefined
  return resolveFor(client.context, name, network)
}

/** What the send form still lacks, in the order it is asked: its button says it. */
export type SendStep = 'selectToken' | 'addAmount' | 'invalidAmount' | 'insufficientFunds' | 'addAddress' | 'resolving' | 'invalidAddress' | 'ready'

export interface SendStepParameters {
  token: TokenBalance | undefined
  amount: string
  /** The receiver as typed. */
  to: string
  /** The receiver's address: `to` itself when it is one, the name's address once resolved; undefined otherwise. */
  receiver: string | undefined
  /** Whether a name is being resolved. */
  resolving?: boolean
}

/** The first thing the form lacks, or 'ready' (amounts compared in the smallest unit, never as floats). */
export function sendStep({ token, amount, to, receiver, resolving }: SendStepParameters): SendStep {
  if (!token) return 'selectToken'
  if (!amount.trim()) return 'addAmount'
  const decimals = Number(token.quantity.decimals)
  const units = parseAmount(amount, decimals)
  if (units === undefined) return 'invalidAmount'
  const balance = unitsOf(token.quantity.numeric, decimals)
  if (balance !== undefined && units > balance) return 'insufficientFunds'
  if (!to.trim()) return 'addAddress'
  if (!receiver) return resolving ? 'resolving' : 'invalidAddress'
  return 'ready'
}

/**
 * Sends from the active account (spec sections 4 and 5): an amount and a receiver are required
 * ('An amount and receiver address are required'), and a token the account holds ('A token is
 * required'); the namespace's adapter must be able to send ('Unsupported chain'). Before the
 * wallet is asked, the receiver must be an address of the network's family, the amount a number
 * the token can hold, and the balances the modal has must cover it, with the fee (its adapter's
 * `transferFee`) in the network's currency. A chain's refusal becomes the spec's transaction
 * error. Resolves to the transaction id once the chain has it.
 */
export async function send(ctx: SigilContext, params: SendParameters): Promise<SendReturnType> {
  const { prepared, adapter, provider } = await prepare(ctx, params)
  const { transfer, token } = prepared
  const entry = { chain: transfer.network.caipNetworkId, from: transfer.from, to: transfer.to, amount: params.amount.trim(), symbol: token.symbol }
  return sendWithActivity(ctx.store, entry, (onSubmitted) =>
    (adapter.sendTransfer as NonNullable<typeof adapter.sendTransfer>)(provider, { ...transfer, onSubmitted }),
  )
}

/** What the Activity entry of a send says, but for its hash and status. */
export type SentEntry = Omit<AddPendingTransactionParameters, 'hash' | 'status' | 'direction' | 'sentAt'>

/**
 * Runs an adapter's send with its Activity entry: pending from the moment the wallet has sent it
 * (an adapter that cannot tell earlier: once it resolves), confirmed once the send resolves (an
 * adapter resolves once the chain has the transaction), failed when the chain reverted it. A
 * refusal becomes the spec's transaction error. Resolves to the transaction id.
 */
export async function sendWithActivity(store: SigilStore, entry: SentEntry, run: (onSubmitted: (hash: string) => void) => Promise<string>): Promise<string> {
  let submitted: string | undefined
  const record = (hash: string, status: TransactionStatus) => addPendingTransaction(store, { ...entry, hash, direction: 'out', status })
  try {
    const hash = await run((hash) => {
      submitted = hash
      record(hash, 'pending')
    })
    record(hash, 'confirmed')
    return hash
  } catch (error) {
    const refused = transactionError(error)
    if (submitted && refused?.code === 'EXECUTION_REVERTED') record(submitted, 'failed')
    throw refused ?? toSigilError(error)
  }
}

/** The send form's values, as the WalletSend view's route keeps them. */
export type SendForm = ViewParams['WalletSend']

/** Keeps the form's values in its route (before another view is shown over it), then shows `next`. */
export function openSendTokens(client: SigilClient, form: SendForm): void {
  replaceView(client.store, 'WalletSend', form)
  pushView(client.store, 'WalletSendSelectToken')
}

/** Back to the form below with `token` chosen (its key: address or 'native'). */
export function chooseSendToken(client: SigilClient, { token }: { token: string }): void {
  client.store.setState((state) => {
    const history = state.router.history
    const at = history.map((r) => r.view).lastIndexOf('WalletSend')
    if (at < 0) return {}
    const form = (history[at] as Extract<RouteEntry, { view: 'WalletSend' }>).data
    return { router: { history: [...history.slice(0, at), { view: 'WalletSend', data: { ...form, token } }] } }
  })
}

/** Empties the send form (another namespace: spec section 4, a namespace switch resets the send form). */
export function resetSendForm(client: SigilClient): void {
  client.store.setState((state) => {
    const history = state.router.history
    const at = history.map((r) => r.view).lastIndexOf('WalletSend')
    if (at < 0) return {}
    return { router: { history: history.map((r, i) => (i === at ? { view: 'WalletSend', data: {} } : r)) } }
  })
}

/** Keeps the form's values in its route, then shows the Preview of them. */
export function previewSend(client: SigilClient, form: Required<SendForm>): void {
  replaceView(client.store, 'WalletSend', form)
  pushView(client.store, 'WalletSendPreview', form)
}

export interface ConfirmSendParameters extends SendParameters {
  /** The receiver's name the Preview showed, when it was given one. */
  name?: string
}
export type ConfirmSendReturnType = string
export type ConfirmSendErrorType = SendErrorType

/**
 * The Preview's 'Send': sends (`client.send`, which reads the balances again), then the form is
 * done: the history goes back to what was below it, and the sent state shows on top.
 */
export async function confirmSend(client: SigilClient, params: ConfirmSendParameters): Promise<ConfirmSendReturnType> {
  const state = client.store.getState()
  const symbol = heldToken(state.chains[state.activeNamespace]?.account.tokenBalance ?? [], params.token)?.symbol ?? ''
  const { name, ...sendParams } = params
  const hash = await client.send(sendParams)
  client.store.setState((s) => {
    const history = s.router.history
    const at = history.map((r) => r.view).lastIndexOf('WalletSend')
    const below = at < 0 ? history.slice(0, -1) : history.slice(0, at)
    const sent: RouteEntry = { view: 'WalletSendSent', data: { hash, amount: params.amount.trim(), symbol, to: params.to, ...(name ? { name } : {}) } }
    return { router: { history: [...below, sent] } }
  })
  return hash
}
