import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import type { ReactNode } from 'react'
import { vi } from 'vitest'
import type { KeyValueStorage, Wallet } from '@sigil/core'
import { fakeWallet } from '../../core/src/test-utils/index.js'
import { arbitrum, ethereum, sigilDev } from '@sigil/core/networks'
import { createAppKit, type AppKit, type AppKitOptions } from './appkit.js'

;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

export class MemoryStorage implements KeyValueStorage {
  readonly data = new Map<string, string>()
  getItem = (key: string) => this.data.get(key) ?? null
  setItem = (key: string, value: string) => void this.data.set(key, value)
  removeItem = (key: string) => void this.data.delete(key)
}

export const ADDRESS = '0x1111111111111111111111111111111111111111'

/** A scriptable eip155 wallet announcing itself as 'com.test': its connector and its adapter. */
export function fakeAdapter() {
  const fake = fakeWallet({ accounts: [ADDRESS], chainId: 31337, imageUrl: 'data:image/svg+xml,<svg/>' })
  return {
    ...fake,
    emit: () => fake.events(),
    /** The next connect fails with `error` (undefined: it succeeds). */
    rejectNext(error: unknown) {
      if (error !== undefined) fake.connector.connect.mockRejectedValueOnce(error)
    },
  }
}

export function wallet(i: number): Wallet {
  return { id: `w${i}`, name: `Wallet ${i}`, image_id: `img${i}` }
}

/** A balance entry as the Sigil server sends it (`address: null` for the native currency). */
export function serverBalance(symbol: string, numeric: string, extra: { name?: string; address?: string | null; decimals?: string; price?: number } = {}) {
  const price = extra.price ?? 0
  return {
    name: extra.name ?? symbol,
    symbol,
    chainId: 'eip155:31337',
    address: extra.address ?? null,
    value: Number(numeric) * price,
    price,
    quantity: { decimals: extra.decimals ?? '18', numeric },
    iconUrl: `https://api.test/public/getTokenImage/${symbol}?projectId=p1`,
  }
}

/** What the stubbed Sigil server answers for account data; a Response is sent as it is. */
export interface ServerData {
  balances?: unknown[] | (() => Response)
  identity?: { name: string | null; avatar: string | null } | (() => Response)
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/**
 * Stubs fetch with a directory of `total` wallets and the account data API (by default the
 * native 1.23456789 ETH and no name); returns the mock to inspect calls.
 */
export function stubDirectory(total = 95, server: ServerData = {}) {
  const all = Array.from({ length: total }, (_, i) => wallet(i + 1))
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input))
    if (/^\/v1\/account\/[^/]+\/balance$/.test(url.pathname)) {
      const balances = server.balances ?? [serverBalance('ETH', '1.23456789', { name: 'Ether' })]
      return typeof balances === 'function' ? balances() : json({ balances })
    }
    if (url.pathname.startsWith('/v1/identity/')) {
      const identity = server.identity ?? { name: null, avatar: null }
      return typeof identity === 'function' ? identity() : json(identity)
    }
    if (url.pathname !== '/getWallets') return new Response('{}', { status: 200 })
    const page = Number(url.searchParams.get('page') ?? 1)
    const entries = Number(url.searchParams.get('entries') ?? 40)
    const search = url.searchParams.get('search')?.toLowerCase()
    const include = url.searchParams.get('include')?.split(',')
    let list = all
    if (search) list = list.filter((w) => w.name.toLowerCase().includes(search))
    if (include) list = list.filter((w) => include.includes(w.id))
    const data = list.slice((page - 1) * entries, page * entries)
    return new Response(JSON.stringify({ count: list.length, data }), { status: 200, headers: { 'content-type': 'application/json' } })
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

export function walletCalls(fetchMock: ReturnType<typeof stubDirectory>): URL[] {
  return fetchMock.mock.calls.map(([input]) => new URL(String(input))).filter((u) => u.pathname === '/getWallets')
}

/** The balance requests made so far. */
export function balanceCalls(fetchMock: ReturnType<typeof stubDirectory>): URL[] {
  return fetchMock.mock.calls.map(([input]) => new URL(String(input))).filter((u) => u.pathname.endsWith('/balance'))
}

export function testAppKit(overrides: Partial<AppKitOptions> = {}) {
  const fake = fakeAdapter()
  const appKit = createAppKit({
    projectId: 'p1',
    apiUrl: 'https://api.test',
    networks: [sigilDev(), ethereum, arbitrum],
    adapters: [fake.adapter],
    connectors: [fake.source],
    features: { email: false, socials: false, analytics: false },
    themeMode: 'dark',
    prefetch: false,
    storage: new MemoryStorage(),
    ...overrides,
  })
  return { appKit, fake }
}

/** Renders into a fresh container; returns it and an unmount. */
const mounted = new Set<Root>()

export function render(node: ReactNode): { container: HTMLElement; root: Root; unmount: () => void } {
  const container = document.createElement('div')
  document.body.appendChild(container)
  const root = createRoot(container)
  mounted.add(root)
  act(() => root.render(node))
  return {
    container,
    root,
    unmount: () => {
      mounted.delete(root)
      act(() => root.unmount())
      container.remove()
    },
  }
}

export function shadow(): ShadowRoot {
  const host = document.querySelector('sigil-modal')
  if (!host?.shadowRoot) throw new Error('modal not mounted')
  return host.shadowRoot
}

/** The modal dialog's accessible name: the text of the header title it is labelled by (aria-labelledby). */
export function dialogName(dialog: Element | null | undefined = shadow().querySelector('[role=dialog]')): string | null | undefined {
  const id = dialog?.getAttribute('aria-labelledby')
  if (!dialog || !id) return dialog?.getAttribute('aria-label')
  return (dialog.getRootNode() as ShadowRoot | Document).getElementById(id)?.textContent
}

/** Polls `check` (inside act) until it returns without throwing. */
export async function waitFor<T>(check: () => T, timeoutMs = 3000): Promise<T> {
  const start = Date.now()
  for (;;) {
    try {
      return check()
    } catch (error) {
      if (Date.now() - start > timeoutMs) throw error
    }
    await act(async () => {
      await new Promise((r) => setTimeout(r, 10))
    })
  }
}

export async function flush(times = 3): Promise<void> {
  for (let i = 0; i < times; i++)
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0))
    })
}

export function cleanup(appKit: AppKit | undefined): void {
  for (const root of mounted) act(() => root.unmount())
  mounted.clear()
  act(() => appKit?.destroy())
  document.body.innerHTML = ''
}

export function press(key: string, init: KeyboardEventInit = {}): KeyboardEvent {
  const target = (shadow().activeElement as HTMLElement | null) ?? document.body
  const event = new KeyboardEvent('keydown', { key, bubbles: true, composed: true, cancelable: true, ...init })
  act(() => {
    target.dispatchEvent(event)
  })
  return event
}

/**
 * Makes every <img> behave as a browser's in `state`: still loading (not complete), or already
 * done, loaded (a natural width) or broken (none; decode() rejects), its load and error events
 * never reaching it, as with an image (a data: URI, a cached one) done before the listener was
 * there. happy-dom's images are otherwise complete at once, with no size. Returns a restore.
 */
export function stubImages(state: 'loading' | 'loaded' | 'broken'): () => void {
  const proto = HTMLImageElement.prototype
  const spies = [
    vi.spyOn(proto, 'complete', 'get').mockReturnValue(state !== 'loading'),
    vi.spyOn(proto, 'naturalWidth', 'get').mockReturnValue(state === 'loaded' ? 40 : 0),
    ...(state === 'broken' ? [vi.spyOn(proto, 'decode').mockRejectedValue(new DOMException('broken', 'EncodingError'))] : []),
  ]
  const swallow = (event: Event) => {
    if (state !== 'loading' && event.target instanceof HTMLImageElement) event.stopImmediatePropagation()
  }
  for (const type of ['load', 'error']) document.addEventListener(type, swallow, true)
  return () => {
    for (const spy of spies) spy.mockRestore()
    for (const type of ['load', 'error']) document.removeEventListener(type, swallow, true)
  }
}
