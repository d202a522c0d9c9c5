import { act } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { ethereum } from '@sigil/core/networks'
import type { AppKit } from './appkit.js'
import { useAppKit, useAppKitAccount, useAppKitNetwork, useAppKitState, useAppKitTheme, useDisconnect } from './hooks.js'
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
    expect(fake.adapter.disconnect).toHaveBeenCalled()
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
