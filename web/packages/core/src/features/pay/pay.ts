/*
 * The pay feature's actions (issue 27): a deposit from an exchange to the connected address.
 * The assets one can deposit on the active network (its coin, then the account's tokens there),
 * the exchanges the server is configured with, the exchange's page for one deposit (minted by the
 * server with a session, in a window of its own), and following it: the server reads the
 * address's balance on chain and says SUCCESS once the amount arrived, FAILED once the session
 * expired. Loaded with the pay views, never with the host page.
 */
import { activeAccount } from '../../account.js'
import type { SigilClient } from '../../client.js'
import { NotConnectedError } from '../../errors.js'
import { localized } from '../../messages/active.js'
import { pay as englishPay } from '../../messages/pay.js'
import { perClient } from '../../api/per-client.js'
import { pushView, replaceView } from '../../router.js'
import { leaveView } from '../leave.js'
import { openThirdPartyWindow, showThirdPartyPage } from '../third-party-window.js'
import type { RouteEntry, ViewParams } from '../../store.js'
import { createPayClient, type Exchange, type PayStatus } from './api.js'
import { PayError } from './errors.js'

/** The pay texts in the modal's locale (English before it loads). */
const texts = localized('pay', englishPay)

/** How often a deposit in progress is looked at. */
export const PAY_POLL_MS = 2000
/** Pages of exchanges read at most (10 a page). */
const MAX_PAGES = 10

/** The Sigil server's deposit API, one per modal. */
export const payApi = perClient(createPayClient)

/** An asset one can deposit on the active network. */
export interface PayAsset {
  /** CAIP-19. */
  id: string
  symbol: string
  decimals: number
}

/** The active network's coin, then the tokens the account holds there (CAIP-19 ids). */
export function payAssets(client: SigilClient): PayAsset[] {
  const state = client.store.getState()
  const network = state.activeCaipNetwork
  if (network.chainNamespace !== 'eip155') return []
  const assets: PayAsset[] = [{ id: `${network.caipNetworkId}/slip44:60`, symbol: network.nativeCurrency.symbol, decimals: network.nativeCurrency.decimals }]
  for (const token of activeAccount(state).tokenBalance ?? []) {
    const address = token.address?.split(':').pop()
    if (!address || !/^0x[0-9a-fA-F]{40}$/.test(address)) continue
    const id = `${network.caipNetworkId}/erc20:${address.toLowerCase()}`
    if (!assets.some((a) => a.id === id)) assets.push({ id, symbol: token.symbol, decimals: Number(token.quantity.decimals) || 0 })
  }
  return assets
}

/** The exchanges that deposit `asset`, every page of them. */
export async function loadExchanges(client: SigilClient, asset?: string): Promise<Exchange[]> {
  const api = payApi(client)
  const found: Exchange[] = []
  for (let page = 0; page < MAX_PAGES; page++) {
    const { exchanges, total } = await api.exchanges({ page, ...(asset ? { asset } : {}) })
    found.push(...exchanges)
    if (exchanges.length === 0 || found.length >= total) break
  }
  return found
}

/** Why `amount` (as typed) is not an amount of an asset with `decimals`, or undefined when it is. */
export function payAmountRefusal(amount: string, decimals: number): string | undefined {
  const value = amount.trim()
  const match = /^(\d{1,30})(?:\.(\d*))?$/.exec(value)
  if (!match || (match[2] ?? '').length > decimals || !/[1-9]/.test(value)) return texts.invalidAmount(decimals)
  return undefined
}

/** A window for the exchange's page, opened while the click that asks for it is handled (later, browsers block it): a popup on a desktop, a tab on a phone. */
export function openExchangeWindow(client: SigilClient): Window | null {
  return openThirdPartyWindow(client, 'sigil-pay')
}

/** A deposit in progress as its view carries it. */
export type PayProgress = ViewParams['PayProgress']

export type StartPayErrorType = PayError | NotConnectedError

/**
 * Deposits `amount` of `asset` from `exchange`: the server mints the exchange's page for the
 * connected address, it opens in `popup` (opened by the caller on the click; when the browser
 * blocked it, the progress view offers the link), and the progress view shows on top of the form.
 */
export async function startPay(
  client: SigilClient,
  { exchange, asset, amount, popup }: { exchange: Exchange; asset: PayAsset; amount: string; popup: Window | null },
): Promise<PayProgress> {
  const state = client.store.getState()
  const address = activeAccount(state).address
  const network = state.activeCaipNetwork.caipNetworkId
  const refusal = payAmountRefusal(amount, asset.decimals)
  if (!address || refusal) {
    popup?.close()
    throw address ? new PayError(refusal as string, 'INVALID_AMOUNT') : new NotConnectedError()
  }
  let minted: { url: string; sessionId: string }
  try {
    minted = await payApi(client).payUrl({ exchangeId: exchange.id, asset: asset.id, amount: amount.trim(), recipient: `${network}:${address}` })
  } catch (e) {
    popup?.close()
    throw e
  }
  const opened = showThirdPartyPage(popup, minted.url)
  const progress: PayProgress = {
    sessionId: minted.sessionId,
    exchangeId: exchange.id,
    exchange: exchange.name,
    url: minted.url,
    opened,
    amount: amount.trim(),
    symbol: asset.symbol,
    network,
  }
  replaceView(client.store, 'PayWithExchange', { asset: asset.id, amount: amount.trim() })
  pushView(client.store, 'PayProgress', progress)
  return progress
}

export type WatchPayReturnType = { status: Extract<PayStatus, 'SUCCESS' | 'FAILED'>; txHash?: string | undefined }

/** Asks the deposit's status every PAY_POLL_MS until it is SUCCESS or FAILED; `signal` stops it (rejects with its reason). */
export async function watchPay(client: SigilClient, progress: PayProgress, signal: AbortSignal): Promise<WatchPayReturnType> {
  const api = payApi(client)
  for (;;) {
    signal.throwIfAborted()
    const answer = await api.status({ sessionId: progress.sessionId, exchangeId: progress.exchangeId }).catch(() => undefined)
    if (answer && (answer.status === 'SUCCESS' || answer.status === 'FAILED')) return { status: answer.status, txHash: answer.txHash }
    signal.throwIfAborted()
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, PAY_POLL_MS)
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer)
          reject(signal.reason)
        },
        { once: true },
      )
    })
  }
}

/** The deposit ended: balances are read again (on success), and the progress view says how it ended. */
export function finishPay(client: SigilClient, progress: PayProgress, outcome: WatchPayReturnType): void {
  if (outcome.status === 'SUCCESS') void client.refreshBalance(undefined, { force: true }).catch(() => undefined)
  client.store.setState((s) => {
    const history = s.router.history
    const top = history[history.length - 1]
    if (top?.view !== 'PayProgress' || top.data.sessionId !== progress.sessionId) return {}
    const done: RouteEntry = { view: 'PayProgress', data: { ...progress, status: outcome.status, txHash: outcome.txHash } }
    return { router: { history: [...history.slice(0, -1), done] } }
  })
}

/** Shows the deposit form (the Account view's 'Deposit from exchange'). */
export function openPay(client: SigilClient): void {
  pushView(client.store, 'PayWithExchange', {})
}

/** Leaves the deposit: back to what was below the form (the Account view). */
export function leavePay(client: SigilClient): void {
  leaveView(client.store, 'PayWithExchange')
}
