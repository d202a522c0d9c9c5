/*
 * Host options of spec section 1, each through createAppKit to what the visitor sees: the
 * directory's include/exclude/featured wallet ids, the connector type order, the wallet features
 * order (and send off), the default network.
 */
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { arbitrum, ethereum, sigilDev } from '@sigil/core/networks'
import type { AppKit } from './appkit.js'
import { cleanup, fakeAdapter, shadow, stubDirectory, testAppKit, waitFor, walletCalls } from './test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  vi.restoreAllMocks()
  cleanup(current)
  current = undefined
})

async function openConnect(options: Parameters<typeof testAppKit>[0]) {
  const fetchMock = stubDirectory(12)
  const { appKit } = testAppKit(options)
  current = appKit
  await act(() => appKit.open())
  await waitFor(() => expect(shadow().querySelector('[data-testid=connect-view]')).not.toBeNull())
  return { appKit, fetchMock }
}

/** The Connect view's rows: name and section, in order. */
const rows = () =>
  [...shadow().querySelectorAll<HTMLButtonElement>('[data-testid=connect-view] button.row')].map((b) => ({
    name: b.querySelector('.name')?.textContent,
    section: b.dataset.section,
  }))

describe('wallet ids', () => {
  it('featuredWalletIds: those wallets first, fetched by id, a page of their number', async () => {
    const { fetchMock } = await openConnect({ featuredWalletIds: ['w7', 'w3'] })
    await waitFor(() => expect(rows().filter((r) => r.section === 'featured')).toHaveLength(2))
    expect(
      rows()
        .filter((r) => r.section === 'featured')
        .map((r) => r.name),
    ).toEqual(['Wallet 7', 'Wallet 3'])
    const featured = walletCalls(fetchMock).find((u) => u.searchParams.get('include'))
    expect(featured?.searchParams.get('include')).toBe('w7,w3')
  })

  it('excludeWalletIds: never listed, asked of the directory as excluded', async () => {
    const { fetchMock } = await openConnect({ featuredWalletIds: ['w1', 'w2'], excludeWalletIds: ['w2'] })
    await waitFor(() => expect(rows().some((r) => r.name === 'Wallet 1')).toBe(true))
    expect(rows().some((r) => r.name === 'Wallet 2')).toBe(false)
    expect(walletCalls(fetchMock).some((u) => u.searchParams.get('exclude')?.split(',').includes('w2'))).toBe(true)
  })

  it('includeWalletIds: the directory is asked for those wallets only', async () => {
    const { fetchMock } = await openConnect({ includeWalletIds: ['w4', 'w5'] })
    await waitFor(() => expect(walletCalls(fetchMock).length).toBeGreaterThan(0))
    const pages = walletCalls(fetchMock).filter((u) => u.searchParams.get('page'))
    expect(pages.length).toBeGreaterThan(0)
    for (const u of pages) expect(u.searchParams.get('include')).toBe('w4,w5')
  })
})

describe('features.connectorTypeOrder', () => {
  it("the Connect view's sections follow it", async () => {
    await openConnect({ featuredWalletIds: ['w1'] })
    await waitFor(() => expect(rows().some((r) => r.section === 'featured')).toBe(true))
    const sections = () => [...new Set(rows().map((r) => r.section))]
    expect(sections().indexOf('injected')).toBeLessThan(sections().indexOf('featured'))
    cleanup(current)

    await openConnect({ featuredWalletIds: ['w1'], features: { email: false, socials: false, connectorTypeOrder: ['featured', 'injected'] } })
    await waitFor(() => expect(rows().some((r) => r.section === 'featured')).toBe(true))
    expect(sections().indexOf('featured')).toBeLessThan(sections().indexOf('injected'))
  })
})

describe('features.walletFeaturesOrder and send', () => {
  async function accountButtons(features: Record<string, unknown>) {
    stubDirectory(10)
    // An adapter that can send, so that Send is among the buttons.
    const { adapter } = fakeAdapter()
    const { appKit } = testAppKit({
      adapters: [{ ...adapter, sendTransfer: vi.fn(async () => `0x${'ab'.repeat(32)}`) }],
      features: { email: false, socials: false, analytics: false, ...features },
    })
    current = appKit
    await act(async () => {
      await appKit.client.connect('com.test')
    })
    await act(() => appKit.open({ view: 'Account' }))
    await waitFor(() => expect(shadow().querySelector('[data-testid=account-view] .account-actions button')).not.toBeNull())
    const ids = [...shadow().querySelectorAll<HTMLButtonElement>('.account-actions button')].map((b) => b.dataset.testid)
    cleanup(current)
    current = undefined
    return ids
  }

  it("the Account view's buttons follow it; send: false leaves Send out", async () => {
    const byDefault = await accountButtons({})
    expect(byDefault).toContain('account-send')
    expect(byDefault.indexOf('account-receive')).toBeLessThan(byDefault.indexOf('account-send'))
    const reversed = await accountButtons({ walletFeaturesOrder: ['send', 'receive', 'swaps', 'onramp'] })
    expect(reversed).toEqual([...byDefault].reverse())
    expect(await accountButtons({ send: false })).toEqual(byDefault.filter((id) => id !== 'account-send'))
  })
})

describe('defaultNetwork', () => {
  it('the modal starts on it (the first network otherwise)', async () => {
    stubDirectory(0)
    const first = testAppKit({ networks: [sigilDev(), ethereum, arbitrum] })
    expect(first.appKit.getCaipNetwork().caipNetworkId).toBe(sigilDev().caipNetworkId)
    cleanup(first.appKit)
    const chosen = testAppKit({ networks: [sigilDev(), ethereum, arbitrum], defaultNetwork: arbitrum })
    current = chosen.appKit
    expect(chosen.appKit.getCaipNetwork().caipNetworkId).toBe('eip155:42161')
  })
})
