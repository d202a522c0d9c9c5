import { act } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { ethereum } from '@sigil/core/networks'
import type { AppKit } from './appkit.js'
import type { SigilEvent } from '@sigil/core'
import {
  useAppKit,
  useAppKitAccount,
  useAppKitEvents,
  useAppKitNetwork,
  useAppKitProvider,
  useAppKitState,
  useAppKitTheme,
  useDisconnect,
  useWalletInfo,
} from './hooks.js'
import { ADDRESS, cleanup, flush, render, stubDirectory, testAppKit, waitFor } from './test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

function Probe() {
  const account = useAppKitAccount()
  const network = useAppKitNetwork()
  const state = useAppKitState()
  const theme = useAppKitTheme()
  return (
    <dl>
      <dd id="status">{account.status}</dd>
      <dd id="connected">{String(account.isConnected)}</dd>
      <dd id="address">{account.address ?? ''}</dd>
      <dd id="balance">{account.balance ?? ''}</dd>
      <dd id="network">{network.caipNetworkId}</dd>
      <dd id="chain">{String(network.chainId)}</dd>
      <dd id="open">{String(state.open)}</dd>
      <dd id="selected">{state.selectedNetworkId}</dd>
      <dd id="theme">{theme.themeMode}</dd>
    </dl>
  )
}

const text = (container: HTMLElement, id: string) => container.querySelector(`#${id}`)?.textContent

/** Render nothing; hand the hooks' functions to the test through these variables. */
let api: ReturnType<typeof useAppKit> | undefined
function Opener() {
  api = useAppKit()
  return null
}

let disconnect: ReturnType<typeof useDisconnect>['disconnect'] | undefined
let setTheme: ((m: 'light' | 'dark') => void) | undefined
function Controls() {
  disconnect = useDisconnect().disconnect
  setTheme = useAppKitTheme().setThemeMode
  return null
}

describe('hooks', () => {
  it('throw a clear error before createAppKit', () => {
    expect(() => render(<Probe />)).toThrow(/createAppKit/)
  })

  it('reflect account, network and status changes from the store', async () => {
    stubDirectory()
    const { appKit } = testAppKit()
    current = appKit
    const { container } = render(<Probe />)
    expect(text(container, 'status')).toBe('disconnected')
    expect(text(container, 'connected')).toBe('false')
    expect(text(container, 'network')).toBe('eip155:31337')

    await act(() => appKit.client.connect('com.test'))
    await flush()
    expect(text(container, 'status')).toBe('connected')
    expect(text(container, 'connected')).toBe('true')
    expect(text(container, 'address')).toBe(ADDRESS)
    // from the Sigil server's balance API (stubbed), loaded after connecting
    await waitFor(() => expect(text(container, 'balance')).toBe('1.23456789'))

    await act(() => appKit.switchNetwork(ethereum))
    await flush()
    expect(text(container, 'network')).toBe('eip155:1')
    expect(text(container, 'chain')).toBe('1')
    expect(text(container, 'selected')).toBe('eip155:1')
  })

  it('useAppKit opens and closes; useAppKitState follows', async () => {
    stubDirectory()
    const { appKit } = testAppKit()
    current = appKit
    const { container } = render(
      <>
        <Opener />
        <Probe />
      </>,
    )
    await act(async () => {
      await api?.open()
    })
    expect(text(container, 'open')).toBe('true')
    act(() => {
      api?.close()
    })
    expect(text(container, 'open')).toBe('false')
  })

  it('useDisconnect clears the account; useAppKitTheme switches the theme', async () => {
    stubDirectory()
    const { appKit, fake } = testAppKit()
    current = appKit
    const { container } = render(
      <>
        <Controls />
        <Probe />
      </>,
    )
    await act(() => appKit.client.connect('com.test'))
    expect(text(container, 'connected')).toBe('true')
    await act(async () => {
      await disconnect?.()
    })
    expect(fake.connector.disconnect).toHaveBeenCalled()
    expect(text(container, 'status')).toBe('disconnected')
    expect(text(container, 'address')).toBe('')
    act(() => setTheme?.('light'))
    expect(text(container, 'theme')).toBe('light')
  })

  it('wallet events (account changed, disconnected) reach the hooks', async () => {
    stubDirectory()
    const { appKit, fake } = testAppKit()
    current = appKit
    const { container } = render(<Probe />)
    await act(() => appKit.client.connect('com.test'))
    act(() => fake.emit()?.accountChanged('0x2222222222222222222222222222222222222222'))
    expect(text(container, 'address')).toBe('0x2222222222222222222222222222222222222222')
    act(() => fake.emit()?.disconnected())
    expect(text(container, 'status')).toBe('disconnected')
  })
})

/** What the provider hooks give, as text, and the provider object itself for identity checks. */
let seenProvider: unknown
function ProviderProbe() {
  const { walletProvider, walletProviderType } = useAppKitProvider('eip155')
  const solana = useAppKitProvider('solana')
  const { walletInfo } = useWalletInfo()
  const account = useAppKitAccount({ namespace: 'eip155' })
  const event = useAppKitEvents()
  seenProvider = walletProvider
  return (
    <dl>
      <dd id="provider">{walletProvider ? 'yes' : 'no'}</dd>
      <dd id="type">{walletProviderType ?? ''}</dd>
      <dd id="solana">{solana.walletProvider ? 'yes' : 'no'}</dd>
      <dd id="wallet">{walletInfo?.name ?? ''}</dd>
      <dd id="all">{account.allAccounts.map((a) => `${a.address}:${a.type}`).join(',')}</dd>
      <dd id="event">{event.data.event}</dd>
    </dl>
  )
}

describe('provider hooks', () => {
  it("useAppKitProvider gives the connected wallet's provider and connector type, and nothing once disconnected", async () => {
    stubDirectory()
    const { appKit, fake } = testAppKit()
    current = appKit
    const { container } = render(<ProviderProbe />)
    expect(text(container, 'provider')).toBe('no')
    expect(text(container, 'type')).toBe('')
    expect(text(container, 'event')).toBe('MODAL_CREATED')
    await act(() => appKit.client.connect('com.test'))
    expect(text(container, 'provider')).toBe('yes')
    expect(seenProvider).toBe(fake.providers.get('eip155'))
    expect(text(container, 'type')).toBe('ANNOUNCED')
    expect(text(container, 'solana')).toBe('no')
    expect(text(container, 'wallet')).toBe('Test Wallet')
    expect(text(container, 'all')).toBe(`${ADDRESS}:eoa`)
    expect(text(container, 'event')).toBe('CONNECT_SUCCESS')
    await act(() => appKit.disconnect())
    expect(text(container, 'provider')).toBe('no')
    expect(seenProvider).toBeUndefined()
    expect(text(container, 'wallet')).toBe('')
    expect(text(container, 'event')).toBe('DISCONNECT_SUCCESS')
  })
})

describe('framework-free instance API', () => {
  it('getProvider and subscribeProviders follow connect and disconnect', async () => {
    stubDirectory()
    const { appKit, fake } = testAppKit()
    current = appKit
    const seen: Record<string, unknown>[] = []
    const stop = appKit.subscribeProviders((providers) => seen.push(providers))
    expect(appKit.getProvider('eip155')).toBeUndefined()
    await appKit.client.connect('com.test')
    expect(appKit.getProvider('eip155')).toBe(fake.providers.get('eip155'))
    expect(appKit.getWalletProviderType('eip155')).toBe('ANNOUNCED')
    await appKit.disconnect()
    expect(seen).toEqual([{ eip155: fake.providers.get('eip155') }, {}])
    stop()
    await appKit.client.connect('com.test')
    expect(seen).toHaveLength(2)
  })

  it('subscribeAccount, subscribeNetwork, subscribeWalletInfo and subscribeState fire on real changes only', async () => {
    stubDirectory()
    const { appKit, fake } = testAppKit()
    current = appKit
    const accounts: string[] = []
    const networks: string[] = []
    const wallets: (string | undefined)[] = []
    const states: string[] = []
    appKit.subscribeAccount((a) => accounts.push(`${a.status}:${a.address ?? ''}`))
    appKit.subscribeNetwork((n) => networks.push(`${n.caipNetworkId}:${n.chainId}`))
    appKit.subscribeWalletInfo((w) => wallets.push(w?.name))
    appKit.subscribeState((s) => states.push(`${s.open}:${s.selectedNetworkId}:${s.activeChain}`))
    await appKit.client.connect('com.test')
    await appKit.client.refreshBalance()
    expect(accounts.at(-1)).toBe(`connected:${ADDRESS}`)
    expect(appKit.getAccount()).toMatchObject({ address: ADDRESS, isConnected: true, status: 'connected', allAccounts: [{ address: ADDRESS, type: 'eoa' }] })
    expect(appKit.getIsConnectedState()).toBe(true)
    expect(appKit.getWalletInfo()).toEqual({ name: 'Test Wallet' })
    expect(wallets).toEqual(['Test Wallet'])
    fake.emit().chainChanged(1)
    expect(networks).toEqual(['eip155:1:1'])
    expect(appKit.getChainId()).toBe(1)
    expect(appKit.getCaipNetwork()).toBe(ethereum)
    await appKit.open()
    expect(states).toEqual(['false:eip155:1:eip155', 'true:eip155:1:eip155'])
    expect(appKit.getState()).toEqual({ open: true, loading: false, selectedNetworkId: 'eip155:1', activeChain: 'eip155' })
    // the same state gives the same object (stable for hooks)
    expect(appKit.getState()).toBe(appKit.getState())
    expect(appKit.getAccount()).toBe(appKit.getAccount())
  })

  it('subscribeEvents hears the modal events, also with analytics off', async () => {
    stubDirectory()
    const { appKit } = testAppKit()
    current = appKit
    const events: SigilEvent[] = []
    appKit.subscribeEvents((e) => events.push(e))
    expect(appKit.getEvent().data.event).toBe('MODAL_CREATED')
    await appKit.open()
    await appKit.client.connect('com.test')
    expect(events.map((e) => e.data.event)).toEqual(['MODAL_OPEN', 'CONNECT_SUCCESS', 'MODAL_CLOSE'])
    expect(appKit.getEvent()).toBe(events.at(-1))
  })
})
