import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AppKit } from '../../../appkit.js'
import { cleanup, shadow, stubDirectory, stubImages, testAppKit, waitFor, walletCalls } from '../../../test-utils.js'

let current: AppKit | undefined
let restoreImages: (() => void) | undefined
afterEach(() => {
  restoreImages?.()
  restoreImages = undefined
  vi.useRealTimers()
  cleanup(current)
  current = undefined
})

/** Records IntersectionObserver instances so a test can scroll the sentinel into view. */
function stubIntersectionObserver() {
  const observers: { callback: IntersectionObserverCallback; targets: Element[] }[] = []
  class FakeObserver {
    targets: Element[] = []
    constructor(readonly callback: IntersectionObserverCallback) {
      observers.push(this)
    }
    observe(target: Element) {
      this.targets.push(target)
    }
    unobserve() {}
    disconnect() {
      this.targets = []
    }
    takeRecords() {
      return []
    }
  }
  vi.stubGlobal('IntersectionObserver', FakeObserver)
  return {
    intersect() {
      for (const o of observers) {
        if (o.targets.length)
          o.callback(
            o.targets.map((target) => ({ isIntersecting: true, target }) as IntersectionObserverEntry),
            o as unknown as IntersectionObserver,
          )
      }
    },
  }
}

async function openAllWallets(total = 95) {
  const fetchMock = stubDirectory(total)
  const { appKit } = testAppKit()
  current = appKit
  await act(() => appKit.open({ view: 'AllWallets' }))
  await waitFor(() => {
    if (!shadow().querySelector('[data-testid=all-wallets-grid] .tile:not(.skeleton)')) throw new Error('grid not loaded')
  })
  return { appKit, fetchMock }
}

const tiles = () => [...shadow().querySelectorAll('.tile:not(.skeleton)')]

function type(input: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
  act(() => {
    setter?.call(input, value)
    input.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

describe('AllWallets', () => {
  it('shows the first 40 wallets and loads the next page when the end scrolls into view', async () => {
    const io = stubIntersectionObserver()
    const { fetchMock } = await openAllWallets()
    expect(tiles()).toHaveLength(40)
    expect(walletCalls(fetchMock).map((u) => u.searchParams.get('page'))).toEqual(['1'])
    expect(walletCalls(fetchMock)[0]?.searchParams.get('entries')).toBe('40')
    act(() => io.intersect())
    await waitFor(() => {
      if (tiles().length !== 80) throw new Error(String(tiles().length))
    })
    act(() => io.intersect())
    await waitFor(() => {
      if (tiles().length !== 95) throw new Error(String(tiles().length))
    })
    expect(walletCalls(fetchMock).map((u) => u.searchParams.get('page'))).toEqual(['1', '2', '3'])
    // Everything is loaded: no sentinel left.
    expect(shadow().querySelector('[data-testid=all-wallets-sentinel]')).toBeNull()
  })

  it('waits 300 ms after typing before searching (at most 100 results)', async () => {
    const { fetchMock } = await openAllWallets()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const input = shadow().querySelector<HTMLInputElement>('input[type=search]') as HTMLInputElement
    type(input, 'wal')
    await act(() => vi.advanceTimersByTimeAsync(200))
    type(input, 'wallet 9')
    await act(() => vi.advanceTimersByTimeAsync(299))
    expect(walletCalls(fetchMock).filter((u) => u.searchParams.has('search'))).toHaveLength(0)
    await act(() => vi.advanceTimersByTimeAsync(1))
    const searches = walletCalls(fetchMock).filter((u) => u.searchParams.has('search'))
    expect(searches.map((u) => u.searchParams.get('search'))).toEqual(['wallet 9'])
    expect(searches[0]?.searchParams.get('entries')).toBe('100')
    vi.useRealTimers()
    await waitFor(() => {
      if (!shadow().querySelector('[data-testid=search-results]')) throw new Error('no results')
    })
    // 'wallet 9' matches 9 and 90-95.
    expect(tiles().map((t) => t.textContent)).toEqual(['Wallet 9', 'Wallet 90', 'Wallet 91', 'Wallet 92', 'Wallet 93', 'Wallet 94', 'Wallet 95'])
  })

  it('shows an empty state when nothing matches', async () => {
    await openAllWallets()
    type(shadow().querySelector<HTMLInputElement>('input[type=search]') as HTMLInputElement, 'zzz')
    const state = await waitFor(() => {
      const el = shadow().querySelector('.state[role=status]')
      if (!el) throw new Error('no empty state')
      return el
    })
    expect(state.textContent).toContain('No wallet found')
  })

  it('shows an error state with a retry when the directory fails', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ error: { code: 'x', message: 'down' } }), { status: 503 }))
    vi.stubGlobal('fetch', fetchMock)
    const { appKit } = testAppKit()
    current = appKit
    await act(() => appKit.open({ view: 'AllWallets' }))
    const retry = await waitFor(() => {
      const el = shadow().querySelector<HTMLButtonElement>('[role=alert] button')
      if (!el) throw new Error('no error state')
      return el
    })
    expect(retry.textContent).toBe('Try again')
    stubDirectory()
    await act(async () => {
      retry.click()
    })
    await waitFor(() => {
      if (tiles().length !== 40) throw new Error('not reloaded')
    })
  })

  it('shows image placeholders while the page loads', async () => {
    restoreImages = stubImages('loading')
    let release: (() => void) | undefined
    const real = stubDirectory()
    vi.stubGlobal(
      'fetch',
      vi.fn((input: RequestInfo | URL) => new Promise<Response>((resolve) => (release = () => void real(input).then(resolve)))),
    )
    const { appKit } = testAppKit()
    current = appKit
    await act(() => appKit.open({ view: 'AllWallets' }))
    await waitFor(() => {
      if (!shadow().querySelector('.tile.skeleton')) throw new Error('no skeletons')
    })
    expect(shadow().querySelector('[aria-busy=true]')).not.toBeNull()
    await act(async () => release?.())
    await waitFor(() => {
      if (tiles().length !== 40) throw new Error('not loaded')
    })
    // Each wallet image shows its own placeholder until the image has loaded.
    expect(shadow().querySelector('.tile .img[data-state=loading]')).not.toBeNull()
  })
})
