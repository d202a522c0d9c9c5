import type { AnalyticsSink } from '../analytics.js'
import type { DirectoryClient } from './directory.js'

export interface DirectoryAnalyticsOptions {
  now?: () => number
  uuid?: () => string
  /** Page URL sent with events; defaults to location.href. */
  pageUrl?: () => string
}

function randomUuid(): string {
  const c = (globalThis as { crypto?: { randomUUID?: () => string } }).crypto
  if (c?.randomUUID) return c.randomUUID()
  // Fallback for insecure contexts, where randomUUID is missing: RFC 4122 v4 layout.
  const hex = Array.from({ length: 32 }, () => Math.floor(Math.random() * 16).toString(16))
  hex[12] = '4'
  hex[16] = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16)
  const s = hex.join('')
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`
}

/** Runs `task` once the page is idle (at most 2 s later), outside the interaction that tracked the event. */
function whenIdle(task: () => void): void {
  const idle = (globalThis as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback
  if (typeof idle === 'function') idle(task, { timeout: 2000 })
  else setTimeout(task, 0)
}

/**
 * Posts events to the server's /e, only once GET /getAnalyticsConfig said analytics is
 * enabled for the project (asked once). Failures are swallowed: analytics never breaks the modal.
 * An event is stamped when tracked and sent when the page is idle: tracking the modal's opening
 * never adds work to the click that opened it.
 */
export function createDirectoryAnalyticsSink(
  api: DirectoryClient,
  options: DirectoryAnalyticsOptions = {},
): AnalyticsSink & { readonly enabled: Promise<boolean> } {
  const now = options.now ?? Date.now
  const uuid = options.uuid ?? randomUuid
  const pageUrl = options.pageUrl ?? (() => (globalThis as { location?: { href?: string } }).location?.href ?? '')
  const enabled = api.getAnalyticsConfig().then(
    (config) => config.isAnalyticsEnabled,
    () => false,
  )
  return {
    enabled,
    track(event) {
      const url = pageUrl()
      const timestamp = now()
      const props = { ...event } as Record<string, unknown>
      whenIdle(() => {
        let domain = ''
        try {
          domain = new URL(url).hostname
        } catch {
          // not a URL (e.g. about:blank): domain stays empty
        }
        const body = { eventId: uuid(), url, domain, timestamp, props }
        void enabled.then((on) => (on ? api.sendEvent(body).catch(() => undefined) : undefined))
      })
    },
  }
}
