/** An analytics event as the modal emits it. */
export interface AnalyticsEvent {
  type: 'track'
  event: string
  properties?: Record<string, unknown>
}

/** Where events go. Injected so hosts, tests and the directory's /e endpoint can all receive them. */
export interface AnalyticsSink {
  track(event: AnalyticsEvent): void
}

/**
 * A sink that buffers events until `load` resolves to the real one, so the code that posts
 * events (and asks the server whether analytics is enabled) stays out of the host's first load.
 */
export function deferredAnalyticsSink(load: () => Promise<AnalyticsSink>): AnalyticsSink {
  let sink: AnalyticsSink | undefined
  let pending: AnalyticsEvent[] | undefined
  return {
    track(event) {
      if (sink) return sink.track(event)
      if (pending) return void pending.push(event)
      pending = [event]
      load().then(
        (loaded) => {
          sink = loaded
          for (const e of pending ?? []) loaded.track(e)
          pending = undefined
        },
        () => {
          // Analytics must never break the modal: drop what was buffered.
          sink = { track() {} }
          pending = undefined
        },
      )
    },
  }
}
