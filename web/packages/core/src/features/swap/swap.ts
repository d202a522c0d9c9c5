/*
 * The swap feature's actions (spec sections 2, 5, 7 and 9; issue 24): the tokens the server can
 * swap on the active network, a quote for an amount (integers in the smallest unit end to end;
 * the user's slippage, 1 % by default, gives the minimum received; a quote expires and is asked
 * again), what the swap will send (an approval for the exact amount unless the user chose
 * unlimited, a zero-reset first where the token needs one, then the swap), and the swap itself:
 * approve and swap as one EIP-5792 batch when the wallet can send one atomically, else one
 * transaction after the other, recorded in Activity. What needs the wallet goes through the
 * family's `calls` capability (EVM only: others have none, and the Account view offers no swap).
 * Loaded with the swap views, never with the host page.
 */
import { perClient } from '../../api/per-client.js'
import { activeAccount } from '../../account.js'
import type { Call, ChainAdapter } from '../../adapter.js'
import type { SigilClient } from '../../client.js'
import { providerOf } from '../../connection.js'
import { NotConnectedError, type SigilError, type UserRejectedRequestError } from '../../errors.js'
import { floorDecimals, formatUnits } from '../../format.js'
import { localized } from '../../messages/active.js'
import { swap as englishSwap } from '../../messages/swap.js'
import { pushView, replaceView } from '../../router.js'
import type { RouteEntry, ViewParams } from '../../store.js'
import type { CaipNetwork, TokenBalance } from '../../types.js'
import { TransactionError } from '../send/errors.js'
import { parseAmount, sendWithActivity, unitsOf } from '../send/send.js'
import { createSwapClient, MAX_UINT256, NATIVE_TOKEN_ADDRESS, type SwapQuote, type SwapToken } from './api.js'
import { SwapError, swapErrorText, swapReason } from './errors.js'

/** Its words in the visitor's locale (English until the modal loads one). */
const texts = localized('swap', englishSwap)

/** The spec's slippage tolerance (section 9): 1 %, in basis points. */
export const DEFAULT_SLIPPAGE_BPS = 100
/** The most slippage a user may set: 50 %. */
export const MAX_SLIPPAGE_BPS = 5000
/** How long a quote holds: past it, the swap is quoted again before it is sent. */
export const QUOTE_TTL_MS = 30_000
/** How often the Preview asks for a fresh quote while it shows. */
export const QUOTE_REFRESH_MS = 15_000
/** The gas an ERC-20 approve is taken to need, for the fee shown (the wallet estimates its own). */
export const APPROVE_GAS = 60_000n

/** ERC-20 approve(address,uint256)'s selector. */
const APPROVE_SELECTOR = '0x095ea7b3'

/** The Sigil server's swap API, one per modal. */
export const swapApi = perClient(createSwapClient)

/** The CAIP-10 id of `network`'s own currency (the placeholder address). */
export const nativeTokenId = (network: CaipNetwork): string => `${network.caipNetworkId}:${NATIVE_TOKEN_ADDRESS}`

/** The address part of a CAIP-10 token id. */
export const tokenAddressOf = (id: string): string => id.slice(id.lastIndexOf(':') + 1)

/** The CAIP-2 chain of a CAIP-10 token id. */
export const tokenChainOf = (id: string): string => id.slice(0, id.lastIndexOf(':'))

/** Whether a CAIP-10 token id is the network's own currency. */
export const isNativeToken = (id: string): boolean => tokenAddressOf(id).toLowerCase() === NATIVE_TOKEN_ADDRESS

/** The balance entry the account holds of `token`: the entry without an address for the native currency. */
export function heldSwapToken(held: readonly TokenBalance[], token: SwapToken): TokenBalance | undefined {
  if (isNativeToken(token.address)) return held.find((t) => !t.address)
  const address = tokenAddressOf(token.address).toLowerCase()
  return held.find((t) => !!t.address && tokenAddressOf(t.address).toLowerCase() === address)
}

/** The account's balance of `token` in its smallest unit; 0 when it holds none. */
export function swapBalanceOf(held: readonly TokenBalance[], token: SwapToken): bigint {
  const entry = heldSwapToken(held, token)
  return entry ? (unitsOf(entry.quantity.numeric, token.decimals) ?? 0n) : 0n
}

/** The least a swap of `toAmount` may give with `slippageBps` of slippage (rounded down: never promises more). */
export function minimumReceived(toAmount: bigint, slippageBps: number): bigint {
  return (toAmount * BigInt(10_000 - slippageBps)) / 10_000n
}

/** A slippage the user typed in percent ('0.5') in basis points; undefined when not above 0 and at most 50 %, or finer than 0.01 %. */
export function parseSlippage(percent: string): number | undefined {
  const match = /^(\d{1,2})(?:\.(\d{0,2}))?$/.exec(percent.trim())
  if (!match) return undefined
  const bps = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'))
  return bps > 0 && bps <= MAX_SLIPPAGE_BPS ? bps : undefined
}

/** Basis points as the percent the user reads ('1', '0.5'). */
export const slippagePercent = (bps: number): string => formatUnits(BigInt(bps), 2)

/** What the swap form still lacks, in the order it is asked: its button says it. */
export type SwapStep = 'selectFrom' | 'selectTo' | 'addAmount' | 'invalidAmount' | 'insufficientFunds' | 'invalidSlippage' | 'ready'

export interface SwapStepParameters {
  from: SwapToken | undefined
  to: SwapToken | undefined
  /** As typed, in `from`'s units ('1.5'). */
  amount: string
  /** The account's balances. */
  held: readonly TokenBalance[]
  /** As typed, in percent. */
  slippage: string
}

/** The first thing the swap form lacks, or 'ready' (amounts compared in the smallest unit). */
export function swapStep({ from, to, amount, held, slippage }: SwapStepParameters): SwapStep {
  if (!from) return 'selectFrom'
  if (!to) return 'selectTo'
  if (!amount.trim()) return 'addAmount'
  const units = parseAmount(amount, from.decimals)
  if (units === undefined) return 'invalidAmount'
  if (units > swapBalanceOf(held, from)) return 'insufficientFunds'
  if (parseSlippage(slippage) === undefined) return 'invalidSlippage'
  return 'ready'
}

/** What the active account swaps with, or why it cannot. */
function swapper(client: SigilClient) {
  const ctx = client.context
  const state = ctx.store.getState()
  const namespace = state.activeNamespace
  const chain = state.chains[namespace]
  const network = chain?.network.caipNetwork
  const adapter = ctx.adapters[namespace]
  if (!adapter?.calls) throw new SwapError(texts.networkNotSupported, 'NETWORK_NOT_SUPPORTED')
  const from = activeAccount(state).address
  const provider = providerOf(ctx, namespace)
  if (!from || !network || provider === undefined) throw new NotConnectedError()
  return { adapter: adapter as ChainAdapter & Required<Pick<ChainAdapter, 'calls'>>, from, network, provider, held: chain?.account.tokenBalance ?? [] }
}

const tokenLists = new WeakMap<SigilClient, Map<string, Promise<SwapToken[]>>>()

export type LoadSwapTokensReturnType = SwapToken[]
export type LoadSwapTokensErrorType = SwapError | NotConnectedError

/**
 * The tokens the server can swap on the active network (asked once per network; a failure is
 * asked again next time). A network without swaps: 'Network not supported for Swaps'.
 */
export async function loadSwapTokens(client: SigilClient): Promise<LoadSwapTokensReturnType> {
  const { network } = swapper(client)
  const lists = tokenLists.get(client) ?? new Map<string, Promise<SwapToken[]>>()
  tokenLists.set(client, lists)
  let list = lists.get(network.caipNetworkId)
  if (!list) {
    list = swapApi(client).tokens(network.caipNetworkId)
    lists.set(network.caipNetworkId, list)
    list.catch(() => lists.delete(network.caipNetworkId))
  }
  return list
}

export interface QuoteSwapParameters {
  from: SwapToken
  to: SwapToken
  /** In the smallest unit of `from`. */
  amount: bigint
  /** 100 is 1 %; DEFAULT_SLIPPAGE_BPS when absent. */
  slippageBps?: number
}

/** A quote with what the user's slippage makes of it. */
export interface QuotedSwap {
  from: SwapToken
  to: SwapToken
  quote: SwapQuote
  slippageBps: number
  /** The least the swap may give: the quote's amount less the slippage. */
  minimumReceived: bigint
  /** The gas price the quote was asked with (the network's standard one), when the server told it. */
  gasPrice?: bigint
  /** When the quote was given and until when it holds (ms since the epoch). */
  quotedAt: number
  expiresAt: number
}

export type QuoteSwapReturnType = QuotedSwap
export type QuoteSwapErrorType = SwapError | NotConnectedError | SigilError

/**
 * Quotes selling `amount` of `from` for `to` on the active network: two different tokens of
 * that network, an amount above 0 that the account's balance covers, a slippage above 0 and at
 * most 50 %. The minimum received is the quote less the slippage, in integers.
 */
export async function quoteSwap(client: SigilClient, params: QuoteSwapParameters): Promise<QuoteSwapReturnType> {
  const { from: user, network, held } = swapper(client)
  const { from, to, amount } = params
  const slippageBps = params.slippageBps ?? DEFAULT_SLIPPAGE_BPS
  const names = { from: from.symbol, to: to.symbol }
  if (from.address.toLowerCase() === to.address.toLowerCase()) throw new SwapError(texts.sameToken, 'SAME_TOKEN')
  if (tokenChainOf(from.address) !== network.caipNetworkId || tokenChainOf(to.address) !== network.caipNetworkId) {
    throw new SwapError(texts.networkNotSupported, 'NETWORK_NOT_SUPPORTED')
  }
  if (amount <= 0n) throw new SwapError(texts.invalidAmount(from.decimals), 'INVALID_AMOUNT')
  if (!Number.isInteger(slippageBps) || slippageBps <= 0 || slippageBps > MAX_SLIPPAGE_BPS) throw new SwapError(texts.invalidSlippage, 'INVALID_SLIPPAGE')
  const entry = heldSwapToken(held, from)
  if (amount > swapBalanceOf(held, from)) {
    throw new SwapError(texts.insufficientBalance(floorDecimals(entry?.quantity.numeric ?? '0', 3), from.symbol), 'INSUFFICIENT_BALANCE')
  }
  const api = swapApi(client)
  const gasPrice = await api.gasPrice(network.caipNetworkId).then(
    (g) => g.standard,
    () => undefined,
  )
  const quote = await api
    .quote({ amount, userAddress: user, from: from.address, to: to.address, gasPrice, slippage: slippageBps / 100 })
    .catch((error: unknown) => {
      throw named(error, names)
    })
  if (quote.toAmount <= 0n) throw new SwapError(swapErrorText('NO_ROUTE', names), 'NO_ROUTE')
  const now = Date.now()
  const quoted: QuotedSwap = {
    from,
    to,
    quote,
    slippageBps,
    minimumReceived: minimumReceived(quote.toAmount, slippageBps),
    quotedAt: now,
    expiresAt: now + QUOTE_TTL_MS,
  }
  if (gasPrice !== undefined) quoted.gasPrice = gasPrice
  return quoted
}

/** A SwapError the server gave, said again with the tokens' symbols (no route from X to Y). */
function named(error: unknown, names: { from: string; to: string }): unknown {
  if (error instanceof SwapError && error.code === 'NO_ROUTE') return new SwapError(swapErrorText('NO_ROUTE', names), 'NO_ROUTE', { cause: error })
  return error
}

/** Whether a quote no longer holds at `now`. */
export const isQuoteExpired = (quoted: Pick<QuotedSwap, 'expiresAt'>, now: number = Date.now()): boolean => now >= quoted.expiresAt

export type RequoteSwapReturnType = { quoted: QuotedSwap; moved: boolean }

/**
 * The same swap quoted again (an expired or refreshed quote): `moved` when the new quote gives
 * less than the old one's minimum received, i.e. the price moved past the slippage.
 */
export async function requoteSwap(client: SigilClient, quoted: QuotedSwap): Promise<RequoteSwapReturnType> {
  const fresh = await quoteSwap(client, { from: quoted.from, to: quoted.to, amount: quoted.quote.fromAmount, slippageBps: quoted.slippageBps })
  return { quoted: fresh, moved: fresh.quote.toAmount < quoted.minimumReceived }
}

export interface PrepareSwapParameters {
  quoted: QuotedSwap
  /** Approve unlimited spending instead of the exact amount (only if the user chose it). */
  unlimited?: boolean
}

/** The approval a swap needs first: how much (the exact amount unless unlimited), and whether the allowance is set to 0 before it. */
export interface SwapApproval {
  amount: bigint
  unlimited: boolean
  resetFirst: boolean
  /** The allowance the router has now. */
  current: bigint
}

/** What a swap will send once confirmed: its calls in order, and how. */
export interface PreparedSwap {
  quoted: QuotedSwap
  /** The zero-reset, the approval (when the allowance does not cover the amount), then the swap. */
  calls: Call[]
  /** Undefined when the allowance covers the amount already (or the native currency is sold). */
  approval?: SwapApproval
  /** Whether the calls go as one atomic batch (one confirmation in the wallet). */
  atomic: boolean
  /** The router the swap calls. */
  router: string
  /** About what the network fee comes to, in the native currency's smallest unit, when the gas is known. */
  fee?: bigint
}

export type PrepareSwapReturnType = PreparedSwap
export type PrepareSwapErrorType = SwapError | NotConnectedError | SigilError

/** approve(spender, 0) made from an approve's call data: the same spender, no amount. */
export function zeroApproveData(data: string): string | undefined {
  if (!data.toLowerCase().startsWith(APPROVE_SELECTOR) || data.length < 10 + 128) return undefined
  return `${data.slice(0, 10 + 64)}${'0'.repeat(64)}`
}

/**
 * What the swap will send: for a token sold, the router's allowance is read and, when it does not
 * cover the amount, an approval for exactly the amount (unlimited only if asked) is built, after
 * an approval of 0 when the server says the token needs it (USDT); then the swap with the user's
 * slippage. Whether the wallet can send them as one atomic batch is asked of it.
 */
export async function prepareSwap(client: SigilClient, params: PrepareSwapParameters): Promise<PrepareSwapReturnType> {
  const { adapter, from: user, network, provider } = swapper(client)
  const { quoted } = params
  const { from, to } = quoted
  const amount = quoted.quote.fromAmount
  const api = swapApi(client)
  const names = { from: from.symbol, to: to.symbol }
  const calls: Call[] = []
  let approval: SwapApproval | undefined
  if (!isNativeToken(from.address)) {
    const token = tokenAddressOf(from.address)
    const current = await api.allowance(from.address, user)
    if (current < amount) {
      const unlimited = params.unlimited === true
      const approve = await api.buildApprove({ userAddress: user, from: from.address, to: to.address, amount: unlimited ? MAX_UINT256 : amount })
      const resetFirst = approve.resetFirst && current > 0n
      if (resetFirst) {
        const reset =
          approve.resetData ??
          zeroApproveData(approve.data) ??
          (await api.buildApprove({ userAddress: user, from: from.address, to: to.address, amount: 0n })).data
        calls.push({ to: token, data: reset })
      }
      // The approval goes to the token's contract, whatever the answer's from and to say.
      calls.push({ to: token, data: approve.data })
      approval = { amount: unlimited ? MAX_UINT256 : amount, unlimited, resetFirst, current }
    }
  }
  const tx = await api
    .buildTransaction({ amount, userAddress: user, from: from.address, to: to.address, slippage: quoted.slippageBps / 100 })
    .catch((error: unknown) => {
      throw named(error, names)
    })
  // The value: the server's when it says, else the amount when the native currency is sold (AppKit's rule).
  const value = tx.value ?? (isNativeToken(from.address) ? amount : 0n)
  calls.push({ to: tx.to, data: tx.data, ...(value > 0n ? { value } : {}), ...(tx.gas !== undefined ? { gas: tx.gas } : {}) })
  const family = await adapter.calls.load()
  const atomic = calls.length > 1 ? await family.atomic(provider, user, network).catch(() => false) : false
  const prepared: PreparedSwap = { quoted, calls, atomic, router: tx.to }
  if (approval) prepared.approval = approval
  const price = tx.gasPrice ?? quoted.gasPrice
  if (tx.gas !== undefined && price !== undefined) prepared.fee = (tx.gas + APPROVE_GAS * BigInt(calls.length - 1)) * price
  return prepared
}

/** A chain's refusal of the swap said as the reason it names (the router's revert), when it names one. */
export function swapRefusal(error: unknown, names: { from: string; to: string }): unknown {
  if (!(error instanceof TransactionError) || error.code !== 'EXECUTION_REVERTED') return error
  const reason = swapReason(error.message)
  if (!reason) return error
  const text = reason === 'INSUFFICIENT_BALANCE' ? error.message : swapErrorText(reason, names)
  return new SwapError(text, reason, { cause: error })
}

export type ExecuteSwapReturnType = string
export type ExecuteSwapErrorType = SwapError | NotConnectedError | UserRejectedRequestError | TransactionError | SigilError

/**
 * Sends a prepared swap (refused with 'The quote expired' once its quote no longer holds: quote
 * again): its calls through the family's `calls` capability, as one atomic batch when prepared
 * so, else one after the other; the swap shows in Activity (pending, then confirmed or failed).
 * A router's revert becomes its reason (the price moved, not enough liquidity, the allowance).
 * The balances are read again after it. Resolves to the swap's transaction hash.
 */
export async function executeSwap(client: SigilClient, prepared: PreparedSwap): Promise<ExecuteSwapReturnType> {
  const { adapter, from: user, network, provider } = swapper(client)
  const { quoted } = prepared
  if (isQuoteExpired(quoted)) throw new SwapError(texts.quoteExpired, 'QUOTE_EXPIRED')
  const family = await adapter.calls.load()
  const entry = {
    chain: network.caipNetworkId,
    from: user,
    to: prepared.router,
    amount: formatUnits(quoted.quote.fromAmount, quoted.from.decimals),
    symbol: quoted.from.symbol,
    operationType: 'trade' as const,
  }
  const names = { from: quoted.from.symbol, to: quoted.to.symbol }
  try {
    return await sendWithActivity(client.store, entry, (onSubmitted) =>
      family.send(provider, { from: user, network, calls: prepared.calls, atomic: prepared.atomic, onSubmitted }),
    )
  } catch (error) {
    throw swapRefusal(error, names)
  } finally {
    void client.refreshBalance(network.chainNamespace, { force: true }).catch(() => undefined)
  }
}

/** The swap form's values, as the Swap view's route keeps them. */
export type SwapForm = ViewParams['Swap']

/** Keeps the form's values in its route, then shows the token choice for one side. */
export function openSwapTokens(client: SigilClient, form: SwapForm, side: 'from' | 'to'): void {
  replaceView(client.store, 'Swap', form)
  pushView(client.store, 'SwapSelectToken', { side })
}

/** Back to the form below with `token` chosen for `side` (the other side swapped when it was the same token). */
export function chooseSwapToken(client: SigilClient, { side, token }: { side: 'from' | 'to'; token: SwapToken }): void {
  client.store.setState((state) => {
    const history = state.router.history
    const at = history.map((r) => r.view).lastIndexOf('Swap')
    if (at < 0) return {}
    const form = (history[at] as Extract<RouteEntry, { view: 'Swap' }>).data
    const other = side === 'from' ? 'to' : 'from'
    const same = form[other]?.address.toLowerCase() === token.address.toLowerCase()
    const next: SwapForm = { ...form, [side]: token, ...(same ? { [other]: form[side] } : {}) }
    if (same && !form[side]) delete next[other]
    return { router: { history: [...history.slice(0, at), { view: 'Swap', data: next }] } }
  })
}

/** Keeps the form's values in its route, then shows the Preview of them. */
export function previewSwap(client: SigilClient, form: ViewParams['SwapPreview']): void {
  replaceView(client.store, 'Swap', form)
  pushView(client.store, 'SwapPreview', form)
}

export type ConfirmSwapReturnType = string

/** The Preview's 'Swap': sends it, then the form is done: the history goes back to what was below it, and the done state shows on top. */
export async function confirmSwap(client: SigilClient, prepared: PreparedSwap): Promise<ConfirmSwapReturnType> {
  const hash = await executeSwap(client, prepared)
  const { quoted } = prepared
  client.store.setState((s) => {
    const history = s.router.history
    const at = history.map((r) => r.view).lastIndexOf('Swap')
    const below = at < 0 ? history.slice(0, -1) : history.slice(0, at)
    const done: RouteEntry = {
      view: 'SwapDone',
      data: {
        hash,
        fromAmount: formatUnits(quoted.quote.fromAmount, quoted.from.decimals),
        fromSymbol: quoted.from.symbol,
        toAmount: formatUnits(quoted.quote.toAmount, quoted.to.decimals),
        toSymbol: quoted.to.symbol,
      },
    }
    return { router: { history: [...below, done] } }
  })
  return hash
}
