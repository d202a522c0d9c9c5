import type { ChainAdapter } from './adapter.js'
import type { AnalyticsEvent, AnalyticsSink } from './analytics.js'
import type { WalletConnector } from './connectors/types.js'
import type { BlockchainClient } from './features/account/blockchain.js'
import type { ResolvedOptions } from './options.js'
import type { SigilStorage } from './storage.js'
import type { SigilStore } from './store.js'
import type { ChainNamespace } from './types.js'

/** One of the modal's events, as hosts see them (Reown's `useAppKitEvents` shape). */
export interface SigilEvent {
  timestamp: number
  data: AnalyticsEvent
}

/** Balances and names of the connected accounts (see balance.ts and identity.ts). */
export interface AccountData {
  /** Fetches the namespace's balances and name after its account or network changed. */
  refresh(namespace: ChainNamespace): Promise<void>
  /** Drops what belonged to the namespace's previous account (balances and name) or network (balances). */
  reset(namespace: ChainNamespace, scope: 'account' | 'network'): void
  /** Forgets every remembered answer (a disconnect). */
  clear(): void
}

/** Everything the controllers and actions work on. One per modal instance. */
export interface SigilContext {
  store: SigilStore
  options: ResolvedOptions
  storage: SigilStorage
  analytics: AnalyticsSink | undefined
  adapters: Partial<Record<ChainNamespace, ChainAdapter>>
  isMobile: () => boolean
  /** Connectors present in the page, by id, from every connector source. */
  connectors: Map<string, WalletConnector>
  /** The connector each connected namespace goes through. */
  connected: Map<ChainNamespace, WalletConnector>
  accountData: AccountData
  /** The Sigil server's blockchain data API, loaded on first use (names, balances). */
  blockchainApi?: () => Promise<BlockchainClient>
  /** Listeners of the modal's events; they hear them whether analytics is on or not. */
  eventListeners: Set<(event: SigilEvent) => void>
  lastEvent: SigilEvent | undefined
}

/** Tells the host's listeners about an event, and the analytics sink unless the host turned analytics off. */
export function track(ctx: SigilContext, event: string, properties?: Record<string, unknown>): void {
  const payload: AnalyticsEvent = properties ? { type: 'track', event, properties } : { type: 'track', event }
  const sigilEvent: SigilEvent = { timestamp: Date.now(), data: payload }
  ctx.lastEvent = sigilEvent
  for (const listener of [...ctx.eventListeners]) {
    try {
      listener(sigilEvent)
    } catch {
      // A host's listener must not break the modal.
    }
  }
  if (!ctx.options.features.analytics || !ctx.analytics) return
  try {
    ctx.analytics.track(payload)
  } catch {
    // A failing sink must not break the modal.
  }
}

/** Whether a user-agent string looks like a phone or tablet. */
export function isMobileUserAgent(userAgent: string): boolean {
  return /Android|iPhone|iPad|iPod|Mobile|Opera Mini|IEMobile/i.test(userAgent)
}

export function detectMobile(): boolean {
  const nav = (globalThis as { navigator?: { userAgent?: string } }).navigator
  return isMobileUserAgent(nav?.userAgent ?? '')
}
