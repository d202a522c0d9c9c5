import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { hideNotification, showError, showSuccess, SigilError } from '@sigil/core'
import type { AppKit } from '../appkit.js'
import { ConnectButton } from '../ConnectButton.js'
import { cleanup, press, render, shadow, stubDirectory, testAppKit, waitFor, dialogName } from '../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

async function openModal(options: Parameters<AppKit['open']>[0] = {}) {
  stubDirectory()
  const { appKit, fake } = testAppKit()
  current = appKit
  await act(() => appKit.open(options))
  const dialog = await waitFor(() => {
    const el = shadow().querySelector<HTMLElement>('[role=dialog]')
    if (!el) throw new Error('no dialog')
    return el
  })
  return { appKit, fake, dialog }
}

const view = () => shadow().querySelector('[role=dialog]')?.getAttribute('data-view')

describe('modal shell', () => {
  it('renders in a shadow root under body with dialog role, label and palette', async () => {
    const { dialog } = await openModal()
    const host = document.querySelector('sigil-modal') as HTMLElement
    expect(host.parentElement).toBe(document.body)
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    expect(dialogName(dialog)).toBe('Connect Wallet')
    // named by its header title (an h2 in the dialog), not a copy of it
    expect(shadow().getElementById(dialog.getAttribute('aria-labelledby') ?? '')?.tagName).toBe('H2')
    expect(dialog.contains(shadow().getElementById(dialog.getAttribute('aria-labelledby') ?? ''))).toBe(true)
    expect(shadow().querySelector('.root')?.getAttribute('data-theme')).toBe('dark')
    // Nothing of the modal is in the light DOM.
    expect(document.querySelector('[role=dialog]')).toBeNull()
  })

  it('applies themeVariables as custom properties and follows the theme mode', async () => {
    const { appKit } = await openModal()
    act(() => appKit.setThemeVariables({ 'sigil-accent': '#ff0000' }))
    act(() => appKit.setThemeMode('light'))
    const root = shadow().querySelector<HTMLElement>('.root')
    expect(root?.style.getPropertyValue('--sigil-accent')).toBe('#ff0000')
    expect(root?.getAttribute('data-theme')).toBe('light')
  })

  it('focuses the dialog on open, traps Tab inside it and restores focus on close', async () => {
    stubDirectory()
    const { appKit } = testAppKit()
    current = appKit
    const { container } = render(<ConnectButton />)
    const button = container.querySelector('button') as HTMLButtonElement
    button.focus()
    await act(async () => {
      button.click()
    })
    const dialog = await waitFor(() => {
      const el = shadow().querySelector<HTMLElement>('[role=dialog]')
      if (!el) throw new Error('no dialog')
      return el
    })
    // Once the opened dialog has been painted.
    await waitFor(() => expect(shadow().activeElement).toBe(dialog))
    const focusables = [...dialog.querySelectorAll<HTMLElement>('button:not([disabled])')]
    const first = focusables[0] as HTMLElement
    const last = focusables[focusables.length - 1] as HTMLElement
    last.focus()
    const forward = press('Tab')
    expect(forward.defaultPrevented).toBe(true)
    expect(shadow().activeElement).toBe(first)
    const backward = press('Tab', { shiftKey: true })
    expect(backward.defaultPrevented).toBe(true)
    expect(shadow().activeElement).toBe(last)

    press('Escape')
    expect(appKit.client.store.getState().modal.open).toBe(false)
    expect(shadow().querySelector('[role=dialog]')).toBeNull()
    expect(document.activeElement).toBe(button)
  })

  it('Escape does not close while closing is blocked (ApproveTransaction)', async () => {
    const { appKit } = await openModal()
    act(() => appKit.client.push('ApproveTransaction'))
    press('Escape')
    expect(appKit.client.store.getState().modal.open).toBe(true)
    expect(shadow().querySelector('[aria-label=Close]')).toBeNull()
  })

  it('every button has an accessible name', async () => {
    const { dialog } = await openModal()
    await waitFor(() => {
      if (!dialog.querySelector('[data-section=recommended]')) throw new Error('wallets not loaded')
    })
    for (const el of dialog.querySelectorAll('button')) {
      const name = el.getAttribute('aria-label') ?? el.textContent?.trim()
      expect(name, el.outerHTML).toBeTruthy()
    }
  })
})

describe('router-driven views', () => {
  it('switches views as the router history changes; Back pops', async () => {
    const { appKit, dialog } = await openModal()
    expect(view()).toBe('Connect')
    const all = await waitFor(() => {
      const el = dialog.querySelector<HTMLButtonElement>('[data-section=all]')
      if (!el) throw new Error('missing')
      return el
    })
    expect(all.textContent).toContain('95')
    // the first view is not announced (the dialog's name says it); the next ones are, politely
    const announcer = dialog.querySelector('[data-testid=view-announcer]')
    expect([announcer?.getAttribute('role'), announcer?.textContent]).toEqual(['status', ''])
    act(() => all.click())
    expect(view()).toBe('AllWallets')
    expect(dialogName(dialog)).toBe('All Wallets')
    expect(dialog.querySelector('[data-testid=view-announcer]')?.textContent).toBe('All Wallets')
    const back = shadow().querySelector<HTMLButtonElement>('[aria-label=Back]')
    act(() => back?.click())
    expect(view()).toBe('Connect')
    act(() => appKit.client.push('Networks'))
    expect(view()).toBe('Networks')
    expect(dialogName(dialog)).toBe('Choose Network')
  })

  it('Connect lists the announced wallet first, then recommended directory wallets and All Wallets', async () => {
    const { dialog } = await openModal()
    await waitFor(() => {
      if (!dialog.querySelector('[data-section=recommended]')) throw new Error('wallets not loaded')
    })
    const rows = [...dialog.querySelectorAll<HTMLElement>('.row')].map((r) => `${r.dataset.section}:${r.querySelector('.name')?.textContent}`)
    expect(rows).toEqual([
      'injected:Test Wallet',
      'recommended:Wallet 1',
      'recommended:Wallet 2',
      'recommended:Wallet 3',
      'recommended:Wallet 4',
      'all:All Wallets',
    ])
  })

  it('selecting the announced wallet connects through ConnectingExternal and closes on success', async () => {
    const { appKit, dialog, fake } = await openModal()
    // The Connect view's chunk loads on open: wait for its row rather than expect it at once.
    const row = await waitFor(() => {
      const found = dialog.querySelector<HTMLButtonElement>('[data-section=injected]')
      if (!found) throw new Error('no wallet row yet')
      return found
    })
    await act(async () => {
      row.click()
    })
    await waitFor(() => {
      if (appKit.client.store.getState().modal.open) throw new Error('still open')
    })
    expect(fake.connector.connect).toHaveBeenCalledWith({ namespaces: ['eip155'], networks: appKit.client.options.networks })
    expect(appKit.client.store.getState().chains.eip155?.connectionStatus).toBe('connected')
    // Opening again shows the account.
    await act(() => appKit.open())
    expect(view()).toBe('Account')
    await waitFor(() => expect(shadow().querySelector('[data-testid=account-address]')?.textContent).toBe('0x11…111111'))
    await waitFor(() => {
      if (shadow().querySelector('[data-testid=account-balance]')?.textContent !== '1.234 ETH') throw new Error('no balance')
    })
    expect(shadow().querySelectorAll('[role=tab]').length).toBe(3)
  })

  it('a rejected request shows the catalogue text and Try again retries', async () => {
    const { appKit, dialog, fake } = await openModal()
    fake.rejectNext({ code: 4001, message: 'User denied' })
    const row = dialog.querySelector<HTMLButtonElement>('[data-section=injected]') as HTMLButtonElement
    await act(async () => {
      row.click()
    })
    const message = await waitFor(() => {
      const text = shadow().querySelector('.sub.err')?.textContent
      if (!text) throw new Error('no error yet')
      return text
    })
    expect(message).toBe('User rejected the request.')
    expect(shadow().querySelector('.card')?.classList.contains('shake')).toBe(true)
    fake.rejectNext(undefined)
    const retry = [...shadow().querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent === 'Try again')
    await act(async () => {
      retry?.click()
    })
    await waitFor(() => {
      if (appKit.client.store.getState().modal.open) throw new Error('still open')
    })
    expect(fake.connector.connect).toHaveBeenCalledTimes(2)
    expect(SigilError).toBeDefined()
  })

  it('opens UnsupportedChain when the wallet moves to an unconfigured chain; switching back closes it', async () => {
    const { appKit, fake } = await openModal()
    await act(() => appKit.client.connect('com.test'))
    act(() => fake.emit()?.chainChanged(999))
    // the view's feature chunk loads on first show
    await waitFor(() => {
      if (view() !== 'UnsupportedChain' || !shadow().querySelector('[data-network]')) throw new Error(String(view()))
    })
    const networkRows = [...shadow().querySelectorAll<HTMLButtonElement>('[data-network]')].map((b) => b.dataset.network)
    expect(networkRows).toEqual(['eip155:31337', 'eip155:1', 'eip155:42161'])
    const eth = shadow().querySelector<HTMLButtonElement>('[data-network="eip155:1"]') as HTMLButtonElement
    await act(async () => {
      eth.click()
    })
    await waitFor(() => {
      if (appKit.client.store.getState().modal.open) throw new Error('still open')
    })
    expect(appKit.client.store.getState().activeCaipNetwork.caipNetworkId).toBe('eip155:1')
  })

  it('Networks marks the active network and switching goes back', async () => {
    const { appKit } = await openModal()
    await act(() => appKit.client.connect('com.test'))
    await act(() => appKit.open({ view: 'Account' }))
    act(() => appKit.client.push('Networks'))
    const active = shadow().querySelector('[aria-current=true]') as HTMLElement
    expect(active.dataset.network).toBe('eip155:31337')
    const arb = shadow().querySelector<HTMLButtonElement>('[data-network="eip155:42161"]') as HTMLButtonElement
    await act(async () => {
      arb.click()
    })
    await waitFor(() => {
      if (view() !== 'Account') throw new Error(String(view()))
    })
    expect(appKit.client.store.getState().activeCaipNetwork.caipNetworkId).toBe('eip155:42161')
  })
})

/** An image that loads at once, so the directory's image preload completes in tests. */
class InstantImage {
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  decoding = 'auto'
  set src(_url: string) {
    queueMicrotask(() => this.onload?.())
  }
}

describe('pre-rendered Connect view', () => {
  it('is rendered hidden once the wallets are prefetched; opening reveals it, closing starts afresh', async () => {
    stubDirectory()
    vi.stubGlobal('Image', InstantImage)
    const { appKit } = testAppKit()
    current = appKit
    await act(() => appKit.prefetch())
    const root = () => shadow().querySelector<HTMLElement>('.root')
    const hidden = await waitFor(() => {
      const el = shadow().querySelector<HTMLElement>('[role=dialog]')
      if (!el?.querySelector('[data-section=recommended]')) throw new Error('not pre-rendered')
      return el
    })
    expect(root()?.style.visibility).toBe('hidden')
    expect(appKit.client.store.getState().modal.open).toBe(false)
    // Hidden, it takes no focus (nor keys) from the page.
    expect(shadow().activeElement).toBeNull()
    // Preloaded icons show at once, without a placeholder.
    expect(hidden.querySelector('[data-section=recommended] .img')?.getAttribute('data-state')).toBe('loaded')

    // Frames are held back here: focus waits for the opened dialog's first paint.
    const frames: FrameRequestCallback[] = []
    const requestFrame = vi.spyOn(globalThis, 'requestAnimationFrame').mockImplementation((callback) => frames.push(callback))
    await act(() => appKit.open())
    expect(root()?.style.visibility).toBe('')
    expect(shadow().querySelector('[role=dialog]')).toBe(hidden)
    expect(view()).toBe('Connect')
    expect(shadow().activeElement).toBeNull()
    requestFrame.mockRestore()
    for (const callback of frames.splice(0)) callback(performance.now())
    await waitFor(() => expect(shadow().activeElement).toBe(hidden))
    // The view it opened on shows as it is; the views after it animate in.
    expect(shadow().querySelector('.view')?.classList.contains('enter')).toBe(false)
    expect(shadow().querySelector('.title')?.classList.contains('enter')).toBe(false)
    act(() => appKit.client.push('AllWallets'))
    expect(shadow().querySelector('.view')?.classList.contains('enter')).toBe(true)
    expect(shadow().querySelector('.title')?.classList.contains('enter')).toBe(true)

    press('Escape')
    expect(appKit.client.store.getState().modal.open).toBe(false)
    const next = await waitFor(() => {
      const el = shadow().querySelector<HTMLElement>('[role=dialog]')
      if (!el || el === hidden) throw new Error('no new pre-render')
      return el
    })
    expect(root()?.style.visibility).toBe('hidden')
    expect(next.getAttribute('data-view')).toBe('Connect')
  })

  it('a stale wallet page is fetched again when the hidden view opens, not while the modal stays closed', async () => {
    const fetchMock = stubDirectory()
    vi.stubGlobal('Image', InstantImage)
    const { appKit } = testAppKit()
    current = appKit
    await act(() => appKit.prefetch())
    await waitFor(() => {
      if (!shadow().querySelector('[role=dialog] [data-section=recommended]')) throw new Error('not pre-rendered')
    })
    const pageFetches = () => fetchMock.mock.calls.filter(([input]) => new URL(String(input)).pathname === '/getWallets').length
    const before = pageFetches()
    // A minute and more later, the cached pages are stale; closed, the hidden view fetches nothing.
    const now = Date.now()
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 61_000)
    try {
      await act(async () => undefined)
      expect(pageFetches()).toBe(before)
      await act(() => appKit.open())
      await act(async () => undefined)
      expect(pageFetches()).toBeGreaterThan(before)
    } finally {
      clock.mockRestore()
    }
  })

  it('opening on another view shows it without the view animation', async () => {
    stubDirectory()
    vi.stubGlobal('Image', InstantImage)
    const { appKit } = testAppKit()
    current = appKit
    await act(() => appKit.prefetch())
    await waitFor(() => {
      if (!shadow().querySelector('[role=dialog]')) throw new Error('not pre-rendered')
    })
    await act(() => appKit.open({ view: 'Networks' }))
    expect(view()).toBe('Networks')
    expect(shadow().querySelector('.view')?.classList.contains('enter')).toBe(false)
    expect(shadow().querySelector('.title')?.classList.contains('enter')).toBe(false)
  })

  it('with email and socials on, the hidden view shows them from its first render (their chunk loads with the prefetch)', async () => {
    stubDirectory()
    vi.stubGlobal('Image', InstantImage)
    const { appKit } = testAppKit({ features: { email: true, socials: ['google', 'x'], analytics: false } })
    current = appKit
    await act(() => appKit.prefetch())
    const hidden = await waitFor(() => {
      const el = shadow().querySelector<HTMLElement>('[role=dialog]')
      if (!el?.querySelector('[data-section=recommended]')) throw new Error('not pre-rendered')
      return el
    })
    expect(shadow().querySelector<HTMLElement>('.root')?.style.visibility).toBe('hidden')
    expect(hidden.querySelector('form.email')).not.toBeNull()
    // Google full width, X as an icon.
    expect(hidden.querySelectorAll('.social-login button')).toHaveLength(2)
  })
})

describe('banners', () => {
  const toast = () => shadow().querySelector<HTMLElement>('.toast')

  it('a banner is a line of its own between the header and the view: it covers neither the title nor the view', async () => {
    const { appKit } = await openModal()
    act(() => showError(appKit.client.store, 'Token Balance Unavailable'))
    const banner = await waitFor(() => {
      const el = toast()
      if (!el) throw new Error('no banner')
      return el
    })
    expect(banner.getAttribute('role')).toBe('alert')
    expect(banner.previousElementSibling?.classList.contains('header')).toBe(true)
    expect(banner.nextElementSibling?.classList.contains('sizer')).toBe(true)
    expect(banner.querySelector('.toast-text')?.textContent).toBe('Token Balance Unavailable')
    expect(banner.title).toBe('Token Balance Unavailable')
  })

  it('a new banner hands over in 150 ms: the open one fades out, then the new one shows', async () => {
    const { appKit } = await openModal()
    act(() => showSuccess(appKit.client.store, 'Address copied'))
    await waitFor(() => expect(toast()?.textContent).toBe('Address copied'))
    // said by the dialog's polite announcer (it outlives the banner); an error is an alert of its own
    expect(shadow().querySelector('[data-testid=view-announcer]')?.textContent).toBe('Address copied')
    expect(toast()?.getAttribute('role')).toBeNull()
    const start = Date.now()
    act(() => showError(appKit.client.store, 'Could not copy the address'))
    // The open one stays while it fades out...
    expect(toast()?.textContent).toBe('Address copied')
    expect(toast()?.hasAttribute('data-closing')).toBe(true)
    // ...and the new one takes its place 150 ms later.
    await waitFor(() => expect(toast()?.textContent).toBe('Could not copy the address'))
    expect(Date.now() - start).toBeGreaterThanOrEqual(140)
    expect(toast()?.hasAttribute('data-closing')).toBe(false)
  })

  it('a hidden banner leaves once it faded out', async () => {
    const { appKit } = await openModal()
    act(() => showSuccess(appKit.client.store, 'Address copied'))
    await waitFor(() => expect(toast()).not.toBeNull())
    act(() => hideNotification(appKit.client.store))
    expect(toast()?.hasAttribute('data-closing')).toBe(true)
    await waitFor(() => expect(toast()).toBeNull())
  })
})

describe('the overlay on a page wider than the screen', () => {
  it('covers the visual viewport (what the visitor sees), not the layout viewport a wide page stretches, and follows it', async () => {
    const viewport = Object.assign(new EventTarget(), { offsetLeft: 0, offsetTop: 0, width: 390, height: 844 })
    vi.stubGlobal('visualViewport', viewport)
    try {
      await openModal()
      // On the modal's root, which the overlay inherits them from (its CSS places it by them).
      const root = shadow().querySelector<HTMLElement>('.root') as HTMLElement
      expect(root.querySelector('.overlay')).not.toBeNull()
      const box = () => ['--vv-left', '--vv-top', '--vv-width', '--vv-height'].map((v) => root.style.getPropertyValue(v))
      expect(box()).toEqual(['0px', '0px', '390px', '844px'])
      // The visitor scrolls a 421 px wide page sideways, then an on-screen keyboard takes 300 px.
      act(() => {
        Object.assign(viewport, { offsetLeft: 31, height: 544 })
        viewport.dispatchEvent(new Event('scroll'))
        viewport.dispatchEvent(new Event('resize'))
      })
      expect(box()).toEqual(['31px', '0px', '390px', '544px'])
    } finally {
      vi.unstubAllGlobals()
    }
  })
})
