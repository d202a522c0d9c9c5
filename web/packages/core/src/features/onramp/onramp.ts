/*
 * The onramp feature's actions (spec sections 2, 7 and 9; issue 24): what the providers serving
 * the visitor's country sell on the active network and for which currencies, each provider's
 * quote for an amount (checked against the payment method's limits first), the purchase itself
 * (the provider's page, minted by the server for the connected address, in a window of its own:
 * a popup on a desktop, a whole tab on a phone), and following it to done or failed: the
 * provider's status through the server, or the bought coins arriving at the address (the
 * account's history), whichever says so first. Loaded with the onramp views, never with the
 * host page.
 */
import { activeAccount } from '../../account.js'
import type { SigilClient } from '../../client.js'
import { NotConnectedError } from '../../errors.js'
import { localized } from '../../messages/active.js'
import { onramp as englishOnramp } from '../../messages/onramp.js'
import { pushView, replaceView } from '../../router.js'
import { leaveView } from '../leave.js'
import { openThirdPartyWindow, showThirdPartyPage } from '../third-party-window.js'
import type { RouteEntry, ViewParams } from '../../store.js'
import type { CaipNetwork } from '../../types.js'
import { historyApi } from '../activity/activity.js'
import type { HistoryClient } from '../activity/api.js'
import { perClient } from '../../api/per-client.js'
import { createOnrampClient, type OnrampOptions, type OnrampQuote, type OnrampSession, type PaymentMethodLimit, type PurchaseCurrency } from './api.js'
import type { OnrampError } from './errors.js'

/** Its words in the visitor's locale (English until the modal loads one). */
const texts = localized('onramp', englishOnramp)

/** Namespaces a purchase can be sent to (spec section 9: eip155 and solana). */
export const ONRAMP_NAMESPACES: readonly string[] = ['eip155', 'solana']
/** How often a purchase in progress is looked at. */
export const ONRAMP_POLL_MS = 3000
/**
 * Providers whose purchases the server follows (their status API, or its own sandbox): their
 * status alone ends a purchase. For others, coins arriving at the address end it too, which
 * cannot tell two purchases of the same amount apart.
 */
export const FOLLOWED_PROVIDERS: readonly string[] = ['sandbox', 'coinbase']
/** The payment method asked for when the visitor picks none (spec section 9's sample limits: card). */
export const DEFAULT_PAYMENT_METHOD = 'card'

/** The Sigil server's onramp API, one per modal. */
export const onrampApi = perClient(createOnrampClient)

/** The host's country option (ISO 3166-1 alpha-2), when it gives a well-formed one; else the server takes the browser's language region. */
export function onrampCountry(client: SigilClient): string | undefined {
  const country = client.options.country?.trim().toUpperCase()
  return country && /^[A-Z]{2}$/.test(country) ? country : undefined
}

const optionLists = new WeakMap<SigilClient, Promise<OnrampOptions>>()

/** The providers and currencies for the visitor's country, asked once per modal (again after a failure). */
export function loadOnrampOptions(client: SigilClient): Promise<OnrampOptions> {
  let pending = optionLists.get(client)
  if (!pending) {
    pending = onrampApi(client).options(onrampCountry(client))
    pending.catch(() => optionLists.delete(client))
    optionLists.set(client, pending)
  }
  return pending
}

/** An asset one can buy on a network: the options' currency, and its entry for that network. */
export interface Purchase {
  currency: PurchaseCurrency
  /** The CAIP-2 id of the network it is bought on. */
  network: string
  /** '' for the network's own coin. */
  contractAddress: string
}

/** The assets on sale on `network`, its own coin first. */
export function purchasesOn(options: OnrampOptions, network: CaipNetwork): Purchase[] {
  const reference = network.caipNetworkId.slice(network.caipNetworkId.indexOf(':') + 1)
  const found: Purchase[] = []
  for (const currency of options.purchaseCurrencies) {
    const entry = currency.networks.find((n) => n.chain_id === reference)
    if (entry) found.push({ currency, network: network.caipNetworkId, contractAddress: entry.contract_address })
  }
  return found.sort((a, b) => Number(a.contractAddress !== '') - Number(b.contractAddress !== ''))
}

/** The providers of `options` that sell on `network`'s namespace. */
export const providersOn = (options: OnrampOptions, network: CaipNetwork) => options.providers.filter((p) => p.supportedChains.includes(network.chainNamespace))

/** The limits of paying in `currency` by `method`, when the options give them. */
export function paymentLimit(options: OnrampOptions, currency: string, method: string): PaymentMethodLimit | undefined {
  return options.paymentCurrencies.find((c) => c.id === currency)?.payment_method_limits.find((l) => l.id === method)
}

/** Why `amount` (fiat, as typed) cannot be paid within `limit`, or undefined when it can. */
export function amountRefusal(amount: string, currency: string, limit: PaymentMethodLimit | undefined, methodLabel: string): string | undefined {
  const value = amount.trim()
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(value) || Number(value) <= 0) return texts.invalidAmount
  if (limit && Number(value) < Number(limit.min)) return texts.belowMinimum(limit.min, currency, methodLabel)
  if (limit && Number(value) > Number(limit.max)) return texts.aboveMaximum(limit.max, currency, methodLabel)
  return undefined
}

/** What the OnRamp view's form says. */
export interface OnrampForm {
  purchase: Purchase
  /** ISO 4217. */
  paymentCurrency: string
  /** Fiat, decimal ('100'). */
  amount: string
  paymentMethod: string
}

const quoteParams = (client: SigilClient, provider: string, form: OnrampForm) => ({
  provider,
  purchaseCurrency: form.purchase.currency.id,
  paymentCurrency: form.paymentCurrency,
  amount: form.amount.trim(),
  network: form.purchase.network,
  paymentMethod: form.paymentMethod,
  country: onrampCountry(client),
})

export type QuoteOnrampReturnType = OnrampQuote
export type QuoteOnrampErrorType = OnrampError

/** `provider`'s quote for the form: what paying `amount` buys, and the fees. */
export function quoteOnramp(client: SigilClient, provider: string, form: OnrampForm): Promise<QuoteOnrampReturnType> {
  return onrampApi(client).quote(quoteParams(client, provider, form))
}

/** A purchase in progress as its view carries it. */
export type OnrampProgress = ViewParams['OnRampProgress']

/** A window for the provider's page, opened while the click that asks for it is being handled (later, browsers block it): a popup on a desktop, a tab on a phone. */
export function openProviderWindow(client: SigilClient): Window | null {
  return openThirdPartyWindow(client, 'sigil-onramp')
}

export type StartOnrampErrorType = OnrampError | NotConnectedError

/**
 * Buys through `provider`: the server mints its page for the connected address, the page opens
 * in `popup` (opened by the caller on the click; when the browser blocked it, the progress view
 * offers the link), and the progress view shows on top of the form.
 */
export async function startOnramp(
  client: SigilClient,
  { provider, label, form, quote, popup }: { provider: string; label: string; form: OnrampForm; quote?: OnrampQuote; popup: Window | null },
): Promise<OnrampProgress> {
  const state = client.store.getState()
  const address = activeAccount(state).address
  if (!address) {
    popup?.close()
    throw new NotConnectedError()
  }
  let minted: { url: string; sessionId: string }
  try {
    minted = await onrampApi(client).sessionUrl({ ...quoteParams(client, provider, form), address, redirectUrl: pageUrl() })
  } catch (e) {
    popup?.close()
    throw e
  }
  const opened = showThirdPartyPage(popup, minted.url)
  const progress: OnrampProgress = {
    sessionId: minted.sessionId,
    provider,
    label,
    url: minted.url,
    opened,
    paid: { amount: form.amount.trim(), currency: form.paymentCurrency },
    buying: quote ? quote.purchaseAmount : { amount: '', currency: form.purchase.currency.symbol },
    network: form.purchase.network,
    since: Date.now(),
  }
  replaceView(client.store, 'OnRamp', {
    paymentCurrency: form.paymentCurrency,
    amount: form.amount,
    asset: form.purchase.currency.id,
    paymentMethod: form.paymentMethod,
  })
  pushView(client.store, 'OnRampProgress', progress)
  return progress
}

const pageUrl = () => (typeof location === 'undefined' || location.origin === 'null' ? undefined : location.href)

/** A purchase's outcome: the provider's status, with the transaction that delivered it when known. */
export type WatchOnrampReturnType = OnrampSession

/**
 * Follows a purchase until it ends: every ONRAMP_POLL_MS, the provider's status through the
 * server; for a provider the server cannot follow (FOLLOWED_PROVIDERS), while that says pending,
 * the account's recent history too, where coins of the bought symbol arriving at the address
 * since the purchase began end it. Resolves with the final state; `signal` stops it (rejects
 * with its reason).
 */
export async function watchOnramp(client: SigilClient, progress: OnrampProgress, signal: AbortSignal): Promise<WatchOnrampReturnType> {
  const api = onrampApi(client)
  const history = historyApi(client)
  for (;;) {
    signal.throwIfAborted()
    const session = await api.session(progress.sessionId).catch(() => undefined)
    if (session && session.status !== 'pending') return session
    if (session && !FOLLOWED_PROVIDERS.includes(session.provider)) {
      const arrived = await arrivedTransfer(history, session, progress).catch(() => undefined)
      if (arrived) return { ...session, status: 'completed', txHash: arrived }
    }
    signal.throwIfAborted()
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ONRAMP_POLL_MS)
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

/** The hash of a transfer of the bought symbol into the address mined since the purchase began, on an EVM network's history. */
async function arrivedTransfer(history: HistoryClient, session: OnrampSession, progress: OnrampProgress): Promise<string | undefined> {
  if (!progress.network.startsWith('eip155:')) return undefined
  const page = await history.getHistory(session.address, { chainId: progress.network })
  const symbol = progress.buying.currency.toUpperCase()
  const found = page.data.find(
    (t) =>
      Date.parse(t.metadata.minedAt) >= progress.since - 60_000 &&
      t.metadata.status === 'confirmed' &&
      (t.transfers ?? []).some((x) => x.direction === 'in' && x.fungible_info?.symbol.toUpperCase() === symbol),
  )
  return found?.metadata.hash ?? undefined
}

/** The purchase ended: balances are read again, and the progress view says how it ended. */
export function finishOnramp(client: SigilClient, progress: OnrampProgress, session: OnrampSession): void {
  if (session.status === 'completed') void client.refreshBalance(undefined, { force: true }).catch(() => undefined)
  client.store.setState((s) => {
    const history = s.router.history
    const top = history[history.length - 1]
    if (top?.view !== 'OnRampProgress' || top.data.sessionId !== progress.sessionId) return {}
    const done: RouteEntry = {
      view: 'OnRampProgress',
      data: { ...progress, status: session.status, txHash: session.txHash ?? undefined, ...(session.purchaseAmount ? { buying: session.purchaseAmount } : {}) },
    }
    return { router: { history: [...history.slice(0, -1), done] } }
  })
}

/** Shows the OnRamp form (the Account view's 'Buy'). */
export function openOnramp(client: SigilClient): void {
  pushView(client.store, 'OnRamp', {})
}

/** Leaves the purchase: back to what was below the OnRamp form (the Account view). */
export function leaveOnramp(client: SigilClient): void {
  leaveView(client.store, 'OnRamp')
}
