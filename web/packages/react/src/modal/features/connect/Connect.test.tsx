import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ConnectorSource, Wallet } from '@sigil/core'
import { bitcoin, ethereum, sigilDev, solana } from '@sigil/core/networks'
import { fakeAdapter, fakeConnector } from '../../../../../core/src/test-utils/index.js'
import type { AppKit } from '../../../appkit.js'
import { cleanup, shadow, stubDirectory, testAppKit, waitFor } from '../../../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  vi.restoreAllMocks()
  cleanup(current)
  current = undefined
})

const SOL = 'So11111111111111111111111111111111111111112'

/** One wallet reached two ways (an EVM connector and a Solana one, same name), and an EVM-only wallet. */
function setup() {
  const evm = fakeConnector({ id: 'multi-evm', name: 'Multi Wallet' })
  const sol = fakeConnector({ id: 'multi-sol', name: 'Multi Wallet', wallets: { solana: { accounts: [SOL], chainId: solana.id } } })
  const other = fakeConnector({ id: 'other', name: 'Other Wallet' })
  const source: ConnectorSource = {
    watch(onChange) {
      onChange([evm.connector, sol.connector, other.connector])
      return () => {}
    },
  }
  stubDirectory(0)
  const { appKit } = testAppKit({
    networks: [sigilDev(), ethereum, solana],
    adapters: [fakeAdapter('eip155').adapter, fakeAdapter('solana').adapter],
    connectors: [source],
  })
  current = appKit
  return { appKit, evm, sol }
}

const rows = () =>
  [...shadow().querySelectorAll<HTMLButtonElement>('[data-testid=connect-view] button.row')]
    .filter((b) => b.dataset.section !== 'all')
    .map((b) => ({ name: b.querySelector('.name')?.textContent, families: b.dataset.families }))

describe('Connect view across chain families', () => {
  it('lists a wallet reached through several connectors once, with its families, and connects them together', async () => {
    const { appKit, evm, sol } = setup()
    await act(() => appKit.open())
    await waitFor(() => expect(rows()).toHaveLength(2))
    expect(rows()).toEqual([
      { name: 'Multi Wallet', families: 'eip155 solana' },
      { name: 'Other Wallet', families: 'eip155' },
    ])
    const multi = [...shadow().querySelectorAll<HTMLButtonElement>('button.row')].find((b) => b.querySelector('.name')?.textContent === 'Multi Wallet')
    await act(async () => multi?.click())
    await waitFor(() => expect(appKit.client.store.getState().chains.solana?.connectionStatus).toBe('connected'))
    expect(appKit.client.store.getState().chains.eip155?.connectionStatus).toBe('connected')
    expect(evm.connector.connect).toHaveBeenCalledTimes(1)
    expect(sol.connector.connect).toHaveBeenCalledTimes(1)
    await waitFor(() => expect(appKit.client.store.getState().modal.open).toBe(false))
  })
})

describe('Connect view tags', () => {
  it("an extension found in the page is 'Installed'; WalletConnect, reached by a QR code, says so instead", async () => {
    const wc = fakeConnector({ id: 'walletConnect', name: 'WalletConnect', type: 'WALLET_CONNECT' })
    const injected = fakeConnector({ id: 'ext', name: 'Extension Wallet', type: 'ANNOUNCED' })
    const source: ConnectorSource = {
      watch(onChange) {
        onChange([wc.connector, injected.connector])
        return () => {}
      },
    }
    stubDirectory(0)
    const { appKit } = testAppKit({ networks: [sigilDev()], adapters: [fakeAdapter('eip155').adapter], connectors: [source] })
    current = appKit
    await act(() => appKit.open())
    const tags = () =>
      Object.fromEntries(
        [...shadow().querySelectorAll<HTMLButtonElement>('[data-testid=connect-view] button.row')].map((b) => [
          b.querySelector('.name')?.textContent,
          b.querySelector('.tag')?.textContent,
        ]),
      )
    await waitFor(() => expect(tags()).toMatchObject({ WalletConnect: 'QR code', 'Extension Wallet': 'Installed' }))
  })

  it("on a phone WalletConnect carries no 'QR code' tag (it opens a wallet app there)", async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')
    const wc = fakeConnector({ id: 'walletConnect', name: 'WalletConnect', type: 'WALLET_CONNECT' })
    const source: ConnectorSource = {
      watch(onChange) {
        onChange([wc.connector])
        return () => {}
      },
    }
    stubDirectory(0)
    const { appKit } = testAppKit({ networks: [sigilDev()], adapters: [fakeAdapter('eip155').adapter], connectors: [source] })
    current = appKit
    await act(() => appKit.open())
    const row = await waitFor(() => {
      const found = shadow().querySelector<HTMLButtonElement>('button.row[data-section=walletConnect]')
      if (!found) throw new Error('no WalletConnect row')
      return found
    })
    expect(row.querySelector('.name')?.textContent).toBe('WalletConnect')
    expect(row.querySelector('.tag')).toBeNull()
  })

  it('the families a wallet speaks are a line under its name, never tags beside it', async () => {
    const { appKit } = setup()
    await act(() => appKit.open())
    await waitFor(() => expect(rows()).toHaveLength(2))
    const multi = [...shadow().querySelectorAll<HTMLButtonElement>('[data-testid=connect-view] button.row')].find(
      (b) => b.querySelector('.name')?.textContent === 'Multi Wallet',
    )
    expect(multi?.querySelector('.meta .families')?.textContent).toBe('EVM · Solana')
    expect([...(multi?.querySelectorAll('.tag') ?? [])].map((t) => t.textContent)).toEqual(['Installed'])
  })
})

describe('Connect view: the wallets featured per chain family', () => {
  const ETH = 'eip155:1'
  const SOL_MAIN = solana.caipNetworkId
  const BTC_MAIN = bitcoin.caipNetworkId
  const dir = (id: string, chains: string[]): Wallet => ({ id, name: id, image_id: id, chains })
  const DIRECTORY = [
    dir('evm-1', [ETH]),
    dir('evm-2', [ETH]),
    dir('evm-3', [ETH]),
    dir('sol-1', [SOL_MAIN]),
    dir('btc-1', [BTC_MAIN]),
    dir('btc-2', [BTC_MAIN, ETH]),
  ]

  /** A directory that answers `chains` as the server does (any of them). */
  function stubFamilyDirectory() {
    const fetchMock = stubDirectory(0)
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(String(input))
        if (url.pathname !== '/getWallets') return fetchMock(input)
        const chains = url.searchParams.get('chains')?.split(',')
        const list = chains ? DIRECTORY.filter((w) => w.chains?.some((c) => chains.includes(c))) : DIRECTORY
        return json({ count: list.length, data: list.slice(0, Number(url.searchParams.get('entries') ?? 40)) })
      }),
    )
  }

  function setup() {
    const evm = fakeConnector({ id: 'evm-ext', name: 'EVM Extension' })
    const sol = fakeConnector({ id: 'wallet-standard:sol', name: 'Solana Extension', wallets: { solana: { accounts: [SOL], chainId: solana.id } } })
    const source: ConnectorSource = {
      watch(onChange) {
        onChange([evm.connector, sol.connector])
        return () => {}
      },
    }
    stubFamilyDirectory()
    const { appKit } = testAppKit({
      networks: [sigilDev(), solana, bitcoin],
      adapters: [fakeAdapter('eip155').adapter, fakeAdapter('solana').adapter, fakeAdapter('bip122').adapter],
      connectors: [source],
    })
    current = appKit
    return { appKit }
  }

  const sections = () =>
    [...shadow().querySelectorAll<HTMLButtonElement>('[data-testid=connect-view] button.row')]
      .filter((b) => b.dataset.section !== 'all')
      .map((b) => `${b.dataset.section}:${b.querySelector('.name')?.textContent}`)

  it("features each family's first wallets in turn, not only EVM ones", async () => {
    const { appKit } = setup()
    await act(() => appKit.open())
    await waitFor(() => expect(sections().filter((s) => s.startsWith('recommended'))).toHaveLength(4))
    expect(sections()).toEqual([
      'injected:EVM Extension',
      'injected:Solana Extension',
      'recommended:evm-1',
      'recommended:sol-1',
      'recommended:btc-1',
      'recommended:evm-2',
    ])
  })

  it('connecting a further family lists that family alone, each wallet once (the recent one is its connector row)', async () => {
    const { appKit } = setup()
    // Solana connected through its extension (now a recent wallet), then Bitcoin chosen.
    await act(() => appKit.open())
    const solRow = await waitFor(() => {
      const row = [...shadow().querySelectorAll<HTMLButtonElement>('button.row')].find((b) => b.querySelector('.name')?.textContent === 'Solana Extension')
      if (!row) throw new Error('no Solana row')
      return row
    })
    await act(async () => solRow.click())
    await waitFor(() => expect(appKit.client.store.getState().chains.solana?.connectionStatus).toBe('connected'))
    await act(() => appKit.client.switchNetwork(bitcoin))
    await act(() => appKit.open({ view: 'Account' }))
    await waitFor(() => expect(shadow().querySelector('[data-testid=no-wallet]')?.textContent).toBe('No Bitcoin wallet connected.'))
    await act(() => appKit.open({ view: 'Connect' }))
    await waitFor(() => expect(sections()).toEqual(['recommended:btc-1', 'recommended:btc-2']))
    // On the page's own list (Solana active again) the recent Solana wallet is one row.
    await act(() => appKit.client.switchNetwork(solana))
    await act(() => appKit.open({ view: 'Connect' }))
    await waitFor(() => expect(sections().filter((s) => s.endsWith('Solana Extension'))).toEqual(['recent:Solana Extension']))
  })
})
