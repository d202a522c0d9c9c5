import { describe, expect, it, vi } from 'vitest'
import { createDirectoryAnalyticsSink } from './analytics-sink.js'
import type { DirectoryClient } from './directory.js'

function fakeApi(enabled: boolean | Error) {
  return {
    getAnalyticsConfig: vi.fn(async () => {
      if (enabled instanceof Error) throw enabled
      return { isAnalyticsEnabled: enabled }
    }),
    sendEvent: vi.fn(async () => {}),
  } as unknown as DirectoryClient & { sendEvent: ReturnType<typeof vi.fn>; getAnalyticsConfig: ReturnType<typeof vi.fn> }
}

const flush = () => new Promise((r) => setTimeout(r, 0))

describe('directory analytics sink', () => {
  it('posts events with id, url, domain and timestamp when enabled', async () => {
    const api = fakeApi(true)
    const sink = createDirectoryAnalyticsSink(api, { now: () => 1700000000000, uuid: () => 'u-1', pageUrl: () => 'https://shop.example/checkout' })
    sink.track({ type: 'track', event: 'MODAL_OPEN', properties: { connected: false } })
    await flush()
    expect(api.sendEvent).toHaveBeenCalledWith({
      eventId: 'u-1',
      url: 'https://shop.example/checkout',
      domain: 'shop.example',
      timestamp: 1700000000000,
      props: { type: 'track', event: 'MODAL_OPEN', properties: { connected: false } },
    })
    sink.track({ type: 'track', event: 'MODAL_CLOSE' })
    await flush()
    expect(api.getAnalyticsConfig).toHaveBeenCalledTimes(1)
    expect(api.sendEvent).toHaveBeenCalledTimes(2)
  })

  it('stamps an event when tracked and sends it later, outside the tracking call', async () => {
    const api = fakeApi(true)
    let now = 1000
    const sink = createDirectoryAnalyticsSink(api, { now: () => now, uuid: () => 'u-2', pageUrl: () => 'https://shop.example/' })
    await sink.enabled
    sink.track({ type: 'track', event: 'MODAL_OPEN' })
    now = 2000
    expect(api.sendEvent).not.toHaveBeenCalled()
    await flush()
    expect(api.sendEvent).toHaveBeenCalledWith(expect.objectContaining({ eventId: 'u-2', timestamp: 1000, domain: 'shop.example' }))
  })

  it('sends nothing when analytics is disabled or the config cannot be read', async () => {
    for (const state of [false, new Error('down')]) {
      const api = fakeApi(state)
      const sink = createDirectoryAnalyticsSink(api)
      sink.track({ type: 'track', event: 'MODAL_OPEN' })
      await flush()
      expect(await sink.enabled).toBe(false)
      expect(api.sendEvent).not.toHaveBeenCalled()
    }
  })

  it('generates v4 UUIDs by default', async () => {
    const api = fakeApi(true)
    createDirectoryAnalyticsSink(api).track({ type: 'track', event: 'X' })
    await flush()
    const body = api.sendEvent.mock.calls[0]?.[0] as { eventId: string }
    expect(body.eventId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })
})
