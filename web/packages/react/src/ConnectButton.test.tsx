import { act } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppKit } from './appkit.js'
import { ConnectButton } from './ConnectButton.js'
import { cleanup, flush, render, shadow, stubDirectory, testAppKit, waitFor, dialogName } from './test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

/** The display the button's stylesheet gives `el` through its media rules that match the window now (happy-dom's computed style leaves them out). */
function mediaDisplay(el: Element): string | undefined {
  const sheet = (document.querySelector('style[data-href="sigil-connect-button-style"]') as HTMLStyleElement).sheet as CSSStyleSheet
  let display: string | undefined
  for (const rule of [...sheet.cssRules]) {
    if (!(rule instanceof CSSMediaRule) || !window.matchMedia(rule.conditionText).matches) continue
    for (const inner of [...rule.cssRules])
      if (inner instanceof CSSStyleRule && el.matches(inner.selectorText) && inner.style.display) display = inner.style.display
  }
  return display
}

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
    expect(dialogName(dialog)).toBe('Connect Wallet')
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
    // In a locale with a decimal comma (once the modal has loaded it), the balance is written with it.
    act(() =>
      appKit.client.store.setState({ locale: { tag: 'de', dir: 'ltr', connectButton: { label: 'Wallet verbinden', loading: 'Verbinde…' }, decimal: ',' } }),
    )
    expect(container.querySelector('.sigil-cb-bal')?.textContent).toBe('1,234 ETH')
    act(() => appKit.client.store.setState({ locale: undefined }))
    await act(async () => {
      button.click()
    })
    const dialog = await waitFor(() => shadow().querySelector('[role=dialog]'))
    expect(dialog?.getAttribute('data-view')).toBe('Account')
  })

  it('on a phone-wide screen the connected button is the account alone, the balance left out so that it fits a header', async () => {
    stubDirectory()
    const { appKit } = testAppKit()
    current = appKit
    const { container } = render(<ConnectButton />)
    await act(() => appKit.client.connect('com.test'))
    await flush()
    const balance = container.querySelector<HTMLElement>('.sigil-cb-bal') as HTMLElement
    const account = container.querySelector<HTMLElement>('.sigil-cb > span:last-child') as HTMLElement
    const viewport = (window as unknown as { happyDOM: { setViewport(v: { width: number; height: number }): void } }).happyDOM
    try {
      viewport.setViewport({ width: 1280, height: 900 })
      expect(mediaDisplay(balance)).toBeUndefined()
      viewport.setViewport({ width: 390, height: 844 })
      expect(mediaDisplay(balance)).toBe('none')
      expect(mediaDisplay(account)).toBeUndefined()
      // A long name shrinks with an ellipsis rather than widen the page.
      expect(getComputedStyle(account).textOverflow).toBe('ellipsis')
      expect(getComputedStyle(container.querySelector('button') as HTMLElement).maxWidth).toBe('100%')
    } finally {
      viewport.setViewport({ width: 1024, height: 768 })
    }
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
