import type { ChainAdapter } from './adapter.js'
import type { AnalyticsEvent, AnalyticsSink } from './analytics.js'
import type { ResolvedOptions } from './options.js'
import type { SigilStorage } from './storage.js'
import type { SigilStore } from './store.js'
import type { ChainNamespace } from './types.js'

/** Everything the controllers work on. One per modal instance. */
export interface SigilContext {
  store: SigilStore
  options: ResolvedOptions
  storage: SigilStorage
  analytics: AnalyticsSink | undefined
  adapters: Partial<Record<ChainNamespace, ChainAdapter>>
  isMobile: () => boolean
}

/** Sends an event to the sink unless the host turned analytics off. */
export function track(ctx: SigilContext, event: string, properties?: Record<string, unknown>): void {
  if (!ctx.options.features.analytics || !ctx.analytics) return
  const payload: AnalyticsEvent = properties ? { type: 'track', event, properties } : { type: 'track', event }
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
