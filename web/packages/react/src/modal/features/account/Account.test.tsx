import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AppKit } from '../../../appkit.js'
import { balanceCalls, cleanup, serverBalance, shadow, stubDirectory, testAppKit, waitFor, type ServerData } from '../../../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
  vi.useRealTimers()
})

const SGL = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const USDC = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const NFT = '0x9999999999999999999999999999999999999999'

/** Connected, then the modal opened on the Account view (Tokens is the first tab). */
async function accountView(server: ServerData = {}) {
  const fetchMock = stubDirectory(95, server)
  const { appKit } = testAppKit()
  current = appKit
  await act(async () => {
    await appKit.client.connect('com.test')
    // the balances and the identity connect asked for land inside act
    await appKit.client.refreshBalance()
    await new Promise((r) => setTimeout(r, 0))
  })
  await act(() => appKit.open({ view: 'Account' }))
  const dialog = await waitFor(() => {
    const el = shadow().querySelector<HTMLElement>('[role=dialog][data-view=Account]')
    if (!el) throw new Error('no account view')
    return el
  })
  return { appKit, fetchMock, dialog }
}

const text = (selector: string) => shadow().querySelector(selector)?.textContent ?? null
const rows = () =>
  [...shadow().querySelectorAll<HTMLElement>('[data-testid=token-row]')].map((row) => ({
    name: row.querySelector('.name')?.textContent,
    symbol: row.querySelector('.symbol')?.textContent,
    quantity: row.querySelector('.quantity')?.textContent,
    value: row.querySelector('.value')?.textContent ?? null,
    icon: row.querySelector('img')?.getAttribute('src') ?? null,
  }))
const refreshButton = () => shadow().querySelector<HTMLButtonElement>('button[aria-label="Refresh balances"]') as HTMLButtonElement

describe('Account view: balances from the Sigil server', () => {
  it('shows the native balance floored to 3 decimals, the fiat total, and a row per token (decimals-0 entries left out)', async () => {
    await accountView({
      balances: [
        serverBalance('ETH', '1.23456789', { name: 'Ether', price: 2000 }),
        serverBalance('SGL', '987000.0009999', { name: 'Sigil', address: SGL, price: 2.5 }),
        serverBalance('USDC', '12.5', { name: 'USD Coin', address: USDC, decimals: '6' }),
        serverBalance('PUNK', '3', { name: 'Punks', address: NFT, decimals: '0' }),
      ],
    })
    await waitFor(() => expect(rows()).toHaveLength(3))
    expect(text('[data-testid=account-balance]')).toBe('1.234 ETH')
    // 1.23456789 × 2000 + 987000.0009999 × 2.5, 2 decimals
    expect(text('[data-testid=account-fiat]')).toBe('$2469969.14')
    expect(rows()).toEqual([
      { name: 'Ether', symbol: 'ETH', quantity: '1.234', value: '$2469.14', icon: 'https://api.test/public/getTokenImage/ETH?projectId=p1' },
      { name: 'Sigil', symbol: 'SGL', quantity: '987000.000', value: '$2467500.00', icon: 'https://api.test/public/getTokenImage/SGL?projectId=p1' },
      // no price: no fiat value
      { name: 'USD Coin', symbol: 'USDC', quantity: '12.500', value: null, icon: 'https://api.test/public/getTokenImage/USDC?projectId=p1' },
    ])
    const list = shadow().querySelector('[role=tabpanel] ul')
    expect(list?.getAttribute('aria-label')).toBe('Token balances')
    expect(text('[data-testid=tokens-note]')).toBeNull()
  })

  it('a testnet has no fiat value: no total, no per-row value', async () => {
    await accountView({ balances: [serverBalance('ETH', '9999.99999', { name: 'Ether' }), serverBalance('SGL', '1000', { name: 'Sigil', address: SGL })] })
    await waitFor(() => expect(rows()).toHaveLength(2))
    expect(text('[data-testid=account-balance]')).toBe('9999.999 ETH')
    expect(text('[data-testid=account-fiat]')).toBeNull()
    expect(rows().map((r) => r.value)).toEqual([null, null])
  })

  it('an icon that fails to load shows the symbol initial', async () => {
    await accountView({ balances: [serverBalance('SGL', '1', { name: 'Sigil', address: SGL })] })
    const img = await waitFor(() => {
      const el = shadow().querySelector<HTMLImageElement>('[data-testid=token-row] img')
      if (!el) throw new Error('no icon')
      return el
    })
    act(() => {
      img.dispatchEvent(new Event('error'))
    })
    expect(text('[data-testid=token-row] .fallback')).toBe('S')
  })

  it('no balances at all: an empty state, and no balance line', async () => {
    await accountView({ balances: [] })
    await waitFor(() => expect(text('[data-testid=tokens-note]')).toBe('No tokens yet.'))
    expect(rows()).toEqual([])
    expect(text('[data-testid=account-balance]')).toBe('—')
  })

  it("a failed fetch shows 'Token Balance Unavailable' in the list and as a banner; no new fetch within 30 s, one after", async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    let failing = true
    const { fetchMock } = await accountView({
      balances: () =>
        failing
          ? new Response(JSON.stringify({ error: { code: 'upstream_unavailable', message: 'All upstreams of eip155:31337 are unavailable' } }), { status: 503 })
          : new Response(JSON.stringify({ balances: [serverBalance('ETH', '2', { name: 'Ether' })] }), { status: 200 }),
    })
    await waitFor(() => expect(text('[data-testid=tokens-note]')).toBe('Token Balance Unavailable'))
    expect(shadow().querySelector('.toast[role=alert]')?.textContent).toBe('Token Balance Unavailable')
    expect(shadow().querySelector('.tokens-head .sub.err')).not.toBeNull()
    expect(text('[data-testid=account-balance]')).toBe('—')
    expect(balanceCalls(fetchMock)).toHaveLength(1)

    // Refresh during the lock: nothing is asked.
    failing = false
    await act(async () => refreshButton().click())
    vi.setSystemTime(Date.now() + 29_000)
    await act(async () => refreshButton().click())
    expect(balanceCalls(fetchMock)).toHaveLength(1)
    expect(text('[data-testid=tokens-note]')).toBe('Token Balance Unavailable')

    // 30 s after the failure: the refresh goes out, forced, and the balances show.
    vi.setSystemTime(Date.now() + 1_000)
    await act(async () => refreshButton().click())
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(balanceCalls(fetchMock)).toHaveLength(2)
    expect(balanceCalls(fetchMock)[1]?.searchParams.get('forceUpdate')).toBe('true')
    expect(text('[data-testid=account-balance]')).toBe('2.000 ETH')
    expect(text('[data-testid=tokens-note]')).toBeNull()
  })

  it('Refresh asks with forceUpdate=true and shows the new quantities', async () => {
    let sgl = '1000'
    const { fetchMock } = await accountView({
      balances: () =>
        new Response(JSON.stringify({ balances: [serverBalance('ETH', '1', { name: 'Ether' }), serverBalance('SGL', sgl, { name: 'Sigil', address: SGL })] })),
    })
    await waitFor(() => expect(rows().map((r) => r.quantity)).toEqual(['1.000', '1000.000']))
    // Opening the view asked nothing more: the answer fetched on connect is 30 s fresh.
    expect(balanceCalls(fetchMock)).toHaveLength(1)
    expect(balanceCalls(fetchMock)[0]?.searchParams.has('forceUpdate')).toBe(false)
    sgl = '1250.5'
    await act(async () => refreshButton().click())
    await waitFor(() => expect(rows().map((r) => r.quantity)).toEqual(['1.000', '1250.500']))
    expect(balanceCalls(fetchMock)).toHaveLength(2)
    expect(balanceCalls(fetchMock)[1]?.searchParams.get('forceUpdate')).toBe('true')
  })

  it('NFTs are the nfts feature (features/nfts/views.test.tsx: none where the adapter cannot send them); Activity the activity feature (ActivityList.test.tsx), and not there with history off', async () => {
    await accountView()
    const tabs = [...shadow().querySelectorAll<HTMLButtonElement>('[role=tab]')]
    act(() => tabs[1]?.click())
    await waitFor(() => expect(text('[role=tabpanel] [data-testid=nfts-unsupported]')).toBe('NFTs on Sigil Dev are not shown.'))
    expect(tabs.map((t) => t.textContent)).toEqual(['Tokens', 'NFTs', 'Activity'])
  })
})

describe('Account view: identity', () => {
  it('shows the ENS name instead of the address, and the avatar', async () => {
    const avatar = 'data:image/svg+xml;base64,PHN2Zy8+'
    const { fetchMock } = await accountView({ identity: { name: 'alice.eth', avatar } })
    await waitFor(() => expect(text('[data-testid=account-address]')).toBe('alice.eth'))
    expect(shadow().querySelector('.account img')?.getAttribute('src')).toBe(avatar)
    const identityCall = fetchMock.mock.calls.map(([u]) => new URL(String(u))).find((u) => u.pathname.startsWith('/v1/identity/'))
    expect(identityCall?.searchParams.get('sender')).toBe(identityCall?.pathname.split('/').pop())
  })

  it('without a name: the shortened address and the generated avatar', async () => {
    const { fetchMock } = await accountView({ identity: { name: null, avatar: null } })
    await waitFor(() => expect(fetchMock.mock.calls.some(([u]) => String(u).includes('/v1/identity/'))).toBe(true))
    expect(text('[data-testid=account-address]')).toBe('0x11…111111')
    expect(shadow().querySelector('.account .avatar')).not.toBeNull()
  })
})
