import { act } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppKit } from './appkit.js'
import { ConnectButton } from './ConnectButton.js'
import { cleanup, flush, render, shadow, stubDirectory, testAppKit, waitFor } from './test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

describe('<ConnectButton/>', () => {
  it('shows the label and opens the modal on the Connect view', async () => {
    stubDirectory()
    const { appKit } = testAppKit()
    current = appKit
    const { container } = render(<ConnectButton />)
    const button = container.querySelector('button') as HTMLButtonElement
    expect(button.textContent).toBe('Connect Wallet')
    expect(button.getAttribute('aria-haspopup')).toBe('dialog')
    await act(async () => {
      button.click()
    })
    expect(appKit.client.store.getState().modal.open).toBe(true)
    const dialog = await waitFor(() => shadow().querySelector('[role=dialog]'))
    expect(dialog?.getAttribute('aria-label')).toBe('Connect Wallet')
    expect(dialog?.getAttribute('data-view')).toBe('Connect')
  })

  it('shows the shortened address and balance when connected, and opens Account', async () => {
    stubDirectory()
    const { appKit } = testAppKit()
    current = appKit
    const { container } = render(<ConnectButton />)
    await act(() => appKit.client.connect('com.test'))
    await flush()
    const button = container.querySelector('button') as HTMLButtonElement
    expect(button.textContent).toContain('0x11…111111')
    expect(button.textContent).toContain('1.234 ETH')
    await act(async () => {
      button.click()
    })
    const dialog = await waitFor(() => shadow().querySelector('[role=dialog]'))
    expect(dialog?.getAttribute('data-view')).toBe('Account')
  })

  it('shows the account name where it has one, as the Account view does', async () => {
    stubDirectory(5, { identity: { name: 'alice.eth', avatar: null } })
    const { appKit } = testAppKit()
    current = appKit
    const { container } = render(<ConnectButton />)
    await act(() => appKit.client.connect('com.test'))
    const button = container.querySelector('button') as HTMLButtonElement
    await waitFor(() => expect(button.textContent).toContain('alice.eth'))
    expect(button.textContent).not.toContain('0x11…111111')
    expect(button.textContent).toContain('1.234 ETH')
    // The address stays at hand: the name's title is the full address.
    expect(button.querySelector('[title]')?.getAttribute('title')).toBe('0x1111111111111111111111111111111111111111')
  })

  it('uses a custom label', () => {
    stubDirectory()
    const { appKit } = testAppKit()
    current = appKit
    const { container } = render(<ConnectButton label="Sign in" />)
    expect(container.querySelector('button')?.textContent).toBe('Sign in')
  })
})
