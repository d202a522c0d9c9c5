import { addPendingTransaction } from '@sigil/core/activity'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AppKit } from '../../../appkit.js'
import { ADDRESS, cleanup, shadow, stubDirectory, testAppKit, waitFor } from '../../../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
  vi.useRealTimers()
})

const OTHER = '0x2222222222222222222222222222222222222222'
const POISON = '0x2222000000000000000000000000000000222222'
const CHAIN = 'eip155:31337'
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`
const NOW = Date.now()

interface Tx {
  id: string
  metadata: Record<string, unknown>
  transfers: unknown[]
}

/** A history entry of the API's shape, `minutesAgo` old. */
function tx(
  n: number,
  minutesAgo: number,
  extra: { op?: string; dir?: 'in' | 'out'; symbol?: string; amount?: string; status?: string; spam?: string; chain?: string; from?: string } = {},
): Tx {
  const out = (extra.dir ?? 'out') === 'out'
  return {
    id: `${extra.chain ?? CHAIN}:${hashOf(n)}`,
    metadata: {
      minedAt: new Date(NOW - minutesAgo * 60_000).toISOString(),
      chain: extra.chain ?? CHAIN,
      status: extra.status ?? 'confirmed',
      operationType: extra.op ?? (out ? 'send' : 'receive'),
      sentFrom: out ? ADDRESS : (extra.from ?? OTHER),
      sentTo: out ? OTHER : ADDRESS,
      hash: hashOf(n),
      nonce: n,
      spam: extra.spam ? { reason: extra.spam } : null,
    },
    transfers: [
      {
        fungible_info: { name: extra.symbol ?? 'Sigil', symbol: extra.symbol ?? 'SGL', icon: null },
        direction: out ? 'out' : 'in',
        quantity: { numeric: extra.amount ?? '1.5' },
        value: 0,
        price: 0,
      },
    ],
  }
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** The stubbed server with a history of `all` (newest first, 20 a page, flagged ones only with includeSpam). */
function withHistory(all: Tx[] | (() => Response)) {
  const directory = stubDirectory(10)
  const calls: URL[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input))
    if (!url.pathname.endsWith('/history')) return directory(input)
    calls.push(url)
    if (typeof all === 'function') return all()
    const listed = all.filter((t) => url.searchParams.get('includeSpam') === 'true' || !t.metadata.spam)
    const from = Number(url.searchParams.get('cursor') ?? 0)
    return json({ data: listed.slice(from, from + 20), next: from + 20 < listed.length ? String(from + 20) : null })
  })
  vi.stubGlobal('fetch', fetchMock)
  return calls
}

/** Connected, the Account view open on its Activity tab. */
async function activityTab() {
  const { appKit } = testAppKit()
  current = appKit
  await act(async () => {
    await appKit.client.connect('com.test')
    await new Promise((r) => setTimeout(r, 0))
  })
  await act(() => appKit.open({ view: 'Account' }))
  const tab = await waitFor(() => {
    const el = [...shadow().querySelectorAll<HTMLButtonElement>('[role=tab]')].find((t) => t.textContent === 'Activity')
    if (!el) throw new Error('no activity tab')
    return el
  })
  act(() => tab.click())
  return appKit
}

const rows = () =>
  [...shadow().querySelectorAll<HTMLElement>('[data-testid=activity-row]')].map((row) => ({
    hash: row.dataset.hash,
    name: row.querySelector('.name')?.textContent,
    party: row.querySelector('.party')?.textContent,
    amount: [...row.querySelectorAll('[data-testid=activity-amount]')].map((a) => a.textContent).join(' '),
    when: row.querySelector('.when')?.textContent,
    status: row.dataset.status,
    spam: row.dataset.spam ?? null,
  }))
const headings = () => [...shadow().querySelectorAll('.activity h3')].map((h) => h.textContent)
const button = (name: RegExp | string) =>
  [...shadow().querySelectorAll<HTMLButtonElement>('button')].find((b) =>
    typeof name === 'string' ? b.textContent === name : name.test(b.textContent ?? ''),
  ) as HTMLButtonElement

describe('Activity tab', () => {
  it('rows grouped by month, with the operation, the signed amount, the counterparty 4+6 and a relative time', async () => {
    withHistory([
      tx(1, 1, { dir: 'in', amount: '1.5' }),
      tx(2, 125, { dir: 'out', symbol: 'ETH', amount: '0.0100' }),
      tx(3, 3 * 1440 + 5, { op: 'mint', dir: 'in', amount: '100' }),
      tx(4, 400 * 1440, { op: 'burn', dir: 'out', amount: '2', status: 'failed' }),
    ])
    await activityTab()
    await waitFor(() => expect(rows()).toHaveLength(4))
    const month = (minutesAgo: number) => new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' }).format(new Date(NOW - minutesAgo * 60_000))
    expect(headings()).toEqual([...new Set([month(1), month(125), month(3 * 1440 + 5), month(400 * 1440)])])
    expect(rows()).toEqual([
      { hash: hashOf(1), name: 'Received', party: 'from 0x22…222222', amount: '+1.5 SGL', when: '1 min', status: 'confirmed', spam: null },
      { hash: hashOf(2), name: 'Sent', party: 'to 0x22…222222', amount: '-0.01 ETH', when: '2 hrs', status: 'confirmed', spam: null },
      { hash: hashOf(3), name: 'Minted', party: 'from 0x22…222222', amount: '+100 SGL', when: '3 days', status: 'confirmed', spam: null },
      { hash: hashOf(4), name: 'BurnedFailed', party: 'via 0x22…222222', amount: '-2 SGL', when: '1 yr', status: 'failed', spam: null },
    ])
    // A screen reader hears the whole row.
    const first = shadow().querySelector('[data-testid=activity-row]')
    expect(first?.getAttribute('aria-label') ?? first?.querySelector('a')?.getAttribute('aria-label')).toBe('Received +1.5 SGL from 0x22…222222, 1 min ago')
  })

  it('asks for the connected chain and shows only its rows', async () => {
    const calls = withHistory([tx(1, 1), tx(2, 2, { chain: 'eip155:1' }), tx(3, 3)])
    await activityTab()
    await waitFor(() => expect(rows().map((r) => r.hash)).toEqual([hashOf(1), hashOf(3)]))
    expect(calls[0]?.pathname).toBe(`/v1/account/${ADDRESS}/history`)
    expect(calls[0]?.searchParams.get('chainId')).toBe(CHAIN)
  })

  it("pages by cursor with 'Load more' (the end of the list scrolling into view does the same)", async () => {
    const calls = withHistory(Array.from({ length: 45 }, (_, i) => tx(i, i)))
    await activityTab()
    await waitFor(() => expect(rows()).toHaveLength(20))
    act(() => button('Load more').click())
    await waitFor(() => expect(rows()).toHaveLength(40))
    expect(calls[1]?.searchParams.get('cursor')).toBe('20')
    act(() => button('Load more').click())
    await waitFor(() => expect(rows()).toHaveLength(45))
    expect(button('Load more')).toBeUndefined()
    expect(new Set(rows().map((r) => r.hash)).size).toBe(45)
  })

  it("a failure: 'Failed to fetch transactions' in the banner and an empty list", async () => {
    withHistory(() => json({ error: { code: 'UPSTREAM', message: 'down' } }, 502))
    await activityTab()
    await waitFor(() => expect(shadow().querySelector('[data-testid=activity-empty]')).not.toBeNull())
    expect(rows()).toEqual([])
    await waitFor(() => expect(shadow().querySelector('.toast')?.textContent).toBe('Failed to fetch transactions'))
  })

  it('nothing yet: the empty state', async () => {
    withHistory([])
    await activityTab()
    await waitFor(() => expect(shadow().querySelector('[data-testid=activity-empty]')?.textContent).toContain('No transactions yet.'))
  })

  it('a poisoning transfer is hidden until asked for, then marked, without a link or a way to copy its address', async () => {
    const calls = withHistory([tx(1, 1), tx(2, 2, { dir: 'in', amount: '0', spam: 'zero-value', from: POISON }), tx(3, 3)])
    await activityTab()
    await waitFor(() => expect(rows().map((r) => r.hash)).toEqual([hashOf(1), hashOf(3)]))
    act(() => button('Show hidden transactions').click())
    await waitFor(() => expect(rows().map((r) => r.hash)).toEqual([hashOf(1), hashOf(2), hashOf(3)]))
    expect(calls.at(-1)?.searchParams.get('includeSpam')).toBe('true')
    const spam = shadow().querySelector<HTMLElement>('[data-spam=zero-value]') as HTMLElement
    expect(spam.querySelector('.tag')?.textContent).toBe('Spam')
    expect(spam.textContent).toContain('Possible address poisoning')
    expect(spam.textContent).not.toContain('0x22')
    expect(spam.querySelector('a,button')).toBeNull()
    act(() => button('Hide spam (1)').click())
    await waitFor(() => expect(rows().map((r) => r.hash)).toEqual([hashOf(1), hashOf(3)]))
  })

  it('a pending send older than a few minutes (a chain the server does not index) is not asked for again', async () => {
    const calls = withHistory([])
    const appKit = await activityTab()
    await waitFor(() => expect(shadow().querySelector('[data-testid=activity-empty]')).not.toBeNull())
    act(() =>
      addPendingTransaction(appKit.client.store, {
        hash: hashOf(5),
        chain: CHAIN,
        from: ADDRESS,
        to: OTHER,
        amount: '1',
        symbol: 'ETH',
        direction: 'out',
        sentAt: Date.now() - 10 * 60_000,
      }),
    )
    expect(rows()[0]).toMatchObject({ hash: hashOf(5), status: 'pending', when: expect.stringMatching(/^(9|10) mins$/) })
    const asked = calls.length
    await act(() => new Promise((r) => setTimeout(r, 3500)))
    expect(calls).toHaveLength(asked)
  })

  it('a send on a chain the server does not index reads as sent once its adapter says the chain has it, or failed', async () => {
    withHistory([])
    const appKit = await activityTab()
    await waitFor(() => expect(shadow().querySelector('[data-testid=activity-empty]')).not.toBeNull())
    const sent = { chain: CHAIN, from: ADDRESS, to: OTHER, amount: '1', symbol: 'ETH', direction: 'out' as const }
    act(() => addPendingTransaction(appKit.client.store, { ...sent, hash: hashOf(6) }))
    act(() => addPendingTransaction(appKit.client.store, { ...sent, hash: hashOf(7) }))
    expect(rows().map((r) => [r.name, r.status])).toEqual([
      ['Sending', 'pending'],
      ['Sending', 'pending'],
    ])
    act(() => addPendingTransaction(appKit.client.store, { ...sent, hash: hashOf(6), status: 'confirmed' }))
    act(() => addPendingTransaction(appKit.client.store, { ...sent, hash: hashOf(7), status: 'failed' }))
    expect(rows().map((r) => [r.hash, r.name, r.status, r.amount])).toEqual([
      [hashOf(7), 'SentFailed', 'failed', '-1 ETH'],
      [hashOf(6), 'Sent', 'confirmed', '-1 ETH'],
    ])
  })

  it('coming back to the tab keeps the list and asks for its first page again', async () => {
    const history = [tx(1, 10)]
    const calls = withHistory(history)
    await activityTab()
    await waitFor(() => expect(rows()).toHaveLength(1))
    history.unshift(tx(2, 1))
    const tabs = [...shadow().querySelectorAll<HTMLButtonElement>('[role=tab]')]
    act(() => tabs[0]?.click())
    act(() => tabs[2]?.click())
    // At once the rows shown before, then the new one.
    expect(rows().map((r) => r.hash)).toEqual([hashOf(1)])
    await waitFor(() => expect(rows().map((r) => r.hash)).toEqual([hashOf(2), hashOf(1)]))
    expect(calls).toHaveLength(2)
  })

  it('no Activity tab when the host turned history off', async () => {
    withHistory([])
    const { appKit } = testAppKit({ features: { email: false, socials: false, analytics: false, history: false } })
    current = appKit
    await act(async () => {
      await appKit.client.connect('com.test')
    })
    await act(() => appKit.open({ view: 'Account' }))
    const tabs = await waitFor(() => {
      const list = [...shadow().querySelectorAll('[role=tab]')].map((t) => t.textContent)
      if (!list.length) throw new Error('no tabs')
      return list
    })
    expect(tabs).toEqual(['Tokens', 'NFTs'])
  })

  it('a send of this session shows at once as pending and becomes the listed row once indexed', async () => {
    const history = [tx(1, 10)]
    withHistory(history)
    const appKit = await activityTab()
    await waitFor(() => expect(rows()).toHaveLength(1))
    act(() =>
      addPendingTransaction(appKit.client.store, { hash: hashOf(9), chain: CHAIN, from: ADDRESS, to: OTHER, amount: '0.01', symbol: 'ETH', direction: 'out' }),
    )
    expect(rows()[0]).toMatchObject({ hash: hashOf(9), name: 'Sending', amount: '-0.01 ETH', status: 'pending', party: 'to 0x22…222222', when: 'now' })
    history.unshift(tx(9, 0, { symbol: 'ETH', amount: '0.01' }))
    // The first page is asked again every few seconds while something is pending.
    await waitFor(() => expect(rows()[0]).toMatchObject({ hash: hashOf(9), name: 'Sent', status: 'confirmed' }), 8000)
    expect(rows()).toHaveLength(2)
  })
})
