import { describe, expect, it, vi } from 'vitest'
import { deferredAnalyticsSink, type AnalyticsEvent } from './analytics.js'

describe('deferred analytics sink', () => {
  it('buffers until the real sink loads, then forwards in order', async () => {
    const received: AnalyticsEvent[] = []
    let release!: () => void
    const load = vi.fn(() => new Promise<{ track: (e: AnalyticsEvent) => void }>((r) => (release = () => r({ track: (e) => void received.push(e) }))))
    const sink = deferredAnalyticsSink(load)
    sink.track({ type: 'track', event: 'A' })
    sink.track({ type: 'track', event: 'B' })
    expect(received).toEqual([])
    release()
    await Promise.resolve()
    await Promise.resolve()
    sink.track({ type: 'track', event: 'C' })
    expect(received.map((e) => e.event)).toEqual(['A', 'B', 'C'])
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('drops events when loading fails', async () => {
    const sink = deferredAnalyticsSink(() => Promise.reject(new Error('chunk failed')))
    sink.track({ type: 'track', event: 'A' })
    await new Promise((r) => setTimeout(r, 0))
    expect(() => sink.track({ type: 'track', event: 'B' })).not.toThrow()
  })
})
