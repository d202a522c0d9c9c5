import {
  resolveOptions,
  WalletConnectError,
  walletConnectConnectors,
  type Connection,
  type Wallet,
  type WalletConnectSession,
  type WalletConnectSessionHost,
} from '@sigil/core'
import { arbitrum, ethereum, sigilDev } from '@sigil/core/networks'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeSessionFamilies } from '../../../../../core/src/test-utils/index.js'
import type { AppKit } from '../../../appkit.js'
import { cleanup, shadow, stubDirectory, testAppKit, waitFor } from '../../../test-utils.js'

const URI =
  'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?relay-protocol=irn&symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303&expiryTimestamp=1'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

/** The modal with a WalletConnect connector whose session module is a double the test drives. */
function setup() {
  stubDirectory(8)
  let host!: WalletConnectSessionHost
  let pending: { resolve: (c: Connection) => void; reject: (e: unknown) => void } | undefined
  const session: WalletConnectSession = {
    connect: vi.fn(
      () =>
        new Promise<Connection>((resolve, reject) => {
          host.setState({ pairing: 'ready', uri: URI, expiresAt: Date.now() + 230_000, relay: 'connected' })
          pending = { resolve, reject }
        }),
    ),
    reconnect: vi.fn(async () => undefined),
    disconnect: vi.fn(async () => undefined),
    provider: () => undefined,
    cancel: vi.fn(() => pending?.reject(WalletConnectError.cancelled())),
    retryRelay: vi.fn(async () => undefined),
    warmUp: vi.fn(async () => undefined),
  }
  const input = { projectId: 'p1', apiUrl: 'https://api.test', networks: [sigilDev(), ethereum, arbitrum] }
  const wc = walletConnectConnectors({
    options: resolveOptions(input),
    // The families the session serves (the adapters' session capabilities).
    families: fakeSessionFamilies(),
    load: async () => (h) => {
      host = h
      return session
    },
  })
  const { appKit, fake } = testAppKit({ connectors: [wc] })
  current = appKit
  return { appKit, fake, session, host: () => host, pending: () => pending }
}

const wcRow = () => {
  const row = shadow().querySelector<HTMLButtonElement>('button[data-section="walletConnect"]')
  if (!row) throw new Error('no WalletConnect row')
  return row
}

async function openQr(appKit: AppKit) {
  await act(() => appKit.open())
  const row = await waitFor(wcRow)
  await act(async () => row.click())
  return waitFor(() => {
    const qr = shadow().querySelector('[data-testid="wc-qr"]')
    if (!qr) throw new Error('no QR code yet')
    return qr
  })
}

describe('ConnectingWalletConnect', () => {
  it('choosing WalletConnect shows the QR code of the pairing URI (with its link to copy); the title names it', async () => {
    const { appKit, session } = setup()
    const qr = await openQr(appKit)
    expect(qr.getAttribute('data-uri')).toBe(URI)
    expect(qr.getAttribute('aria-label')).toBe('WalletConnect QR code')
    // dark modules drawn as one path
    expect(qr.querySelector('svg path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/)
    expect(session.connect).toHaveBeenCalledTimes(1)
    expect(shadow().textContent).toContain('Scan this QR code with a WalletConnect wallet')
    expect([...shadow().querySelectorAll('button')].some((b) => b.textContent?.includes('Copy link'))).toBe(true)
    // the QR code's link as text too: a read-only field, named
    const link = shadow().querySelector<HTMLInputElement>('[data-testid="wc-uri"]')
    expect([link?.value, link?.readOnly, link?.getAttribute('aria-label')]).toEqual([URI, true, 'WalletConnect link'])
    await waitFor(() => expect(shadow().querySelector('h2')?.textContent).toBe('WalletConnect'))
  })

  it('relay trouble shows with a retry that reconnects the socket', async () => {
    const { appKit, session, host } = setup()
    await openQr(appKit)
    act(() => host().setState({ relay: 'reconnecting' }))
    const status = await waitFor(() => {
      const s = shadow().querySelector('.wc-relay')
      if (!s) throw new Error('no relay status')
      return s
    })
    expect(status.textContent).toContain('Reconnecting to the relay…')
    const retry = [...status.querySelectorAll('button')].find((b) => b.textContent === 'Retry')
    await act(async () => retry?.click())
    expect(session.retryRelay).toHaveBeenCalledTimes(1)
  })

  it("a refused sign-in token shows 'Session Expired' with the time-settings hint, and Reconnect starts a new pairing", async () => {
    const { appKit, session, host, pending } = setup()
    await openQr(appKit)
    const expired = WalletConnectError.sessionExpired()
    act(() => {
      host().setState({ pairing: 'error', error: expired, uri: undefined })
      pending()?.reject(expired)
    })
    const alert = await waitFor(() => {
      const a = shadow().querySelector('[role="alert"]')
      if (!a?.textContent?.includes('Session Expired')) throw new Error('no alert')
      return a
    })
    expect(alert.textContent).toContain("check your device's time settings, then reconnect")
    const reconnect = [...shadow().querySelectorAll('button')].find((b) => b.textContent === 'Reconnect')
    await act(async () => reconnect?.click())
    expect(session.connect).toHaveBeenCalledTimes(2)
  })

  it('leaving the view stops waiting for the wallet', async () => {
    const { appKit, session } = setup()
    await openQr(appKit)
    await act(async () => appKit.client.goBack())
    await waitFor(() => expect(session.cancel).toHaveBeenCalled())
    await waitFor(() => expect(appKit.client.store.getState().chains.eip155?.connectionStatus).toBe('disconnected'))
  })

  describe('on a phone', () => {
    const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
    const rainbow = { id: 'rainbow', name: 'Rainbow', image_id: 'r', mobile_link: 'rainbow://' }
    const buttons = () => [...shadow().querySelectorAll<HTMLElement>('button, a')]
    const byText = (text: string) => buttons().find((b) => b.textContent?.trim() === text)

    function phone() {
      vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(PHONE)
      return vi.spyOn(window, 'open').mockReturnValue(null)
    }
    afterEach(() => vi.restoreAllMocks())

    it('tapping a wallet opens its app at once with the pairing URI; the button opens it again; the QR code waits behind "Copy link / other device"', async () => {
      const open = phone()
      const { appKit } = setup()
      await act(() => appKit.open())
      await act(async () => appKit.client.push('ConnectingWalletConnect', { wallet: rainbow }))
      const deepLink = `rainbow://wc?uri=${encodeURIComponent(URI)}`
      await waitFor(() => expect(open).toHaveBeenCalledWith(deepLink, '_self'))
      const button = await waitFor(() => {
        const a = shadow().querySelector<HTMLAnchorElement>('[data-testid="wc-deep-link"]')
        if (!a) throw new Error('no deep link yet')
        return a
      })
      expect(button.textContent).toBe('Open and continue in the wallet app')
      expect(button.getAttribute('href')).toBe(deepLink)
      expect(shadow().textContent).toContain('Continue in Rainbow')
      expect(shadow().querySelector('[data-testid="wc-qr"]')).toBeNull()
      expect(shadow().textContent).not.toContain('Scan this QR code')
      await act(async () => byText('Copy link / other device')?.click())
      const qr = await waitFor(() => {
        const q = shadow().querySelector('[data-testid="wc-qr"]')
        if (!q) throw new Error('no QR code')
        return q
      })
      expect(qr.getAttribute('data-uri')).toBe(URI)
      expect(byText('Copy link')).toBeDefined()
      // Opened once for the attempt, not again on a render.
      expect(open).toHaveBeenCalledTimes(1)
    })

    it('WalletConnect itself offers the wc: URI to any wallet app, without opening one by itself', async () => {
      const open = phone()
      const { appKit } = setup()
      await act(() => appKit.open())
      const row = await waitFor(wcRow)
      await act(async () => row.click())
      const link = await waitFor(() => {
        const a = shadow().querySelector<HTMLAnchorElement>('[data-testid="wc-deep-link"]')
        if (!a) throw new Error('no link yet')
        return a
      })
      expect(link.getAttribute('href')).toBe(URI)
      expect(open).not.toHaveBeenCalled()
    })

    it('coming back to the page with the relay lost reconnects it; with the relay up, nothing happens', async () => {
      phone()
      const { appKit, session, host } = setup()
      await act(() => appKit.open())
      await act(async () => appKit.client.push('ConnectingWalletConnect', { wallet: rainbow }))
      await waitFor(() => expect(shadow().querySelector('[data-testid="wc-deep-link"]')).not.toBeNull())
      const visible = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('visible')
      act(() => document.dispatchEvent(new Event('visibilitychange')))
      expect(session.retryRelay).not.toHaveBeenCalled()
      act(() => host().setState({ relay: 'disconnected' }))
      act(() => document.dispatchEvent(new Event('visibilitychange')))
      await waitFor(() => expect(session.retryRelay).toHaveBeenCalledTimes(1))
      visible.mockRestore()
    })
  })

  const RAINBOW: Wallet = { id: 'rainbow', name: 'Rainbow', image_id: 'rb', mobile_link: 'rainbow://', homepage: 'https://rainbow.me/' }
  const METAMASK: Wallet = {
    id: 'mm',
    name: 'MetaMask',
    image_id: 'mm',
    app_store: 'https://apps.apple.com/us/app/metamask/id1438144202',
    chrome_store: 'https://chrome.google.com/webstore/detail/metamask/nkbihfbeogaeaoehlefnkodbefgpgknn',
  }
  it("a wallet's QR view says 'Don't have Rainbow? Get it' with its link", async () => {
    const { appKit } = setup()
    await act(() => appKit.open())
    await act(async () => appKit.client.push('ConnectingWalletConnect', { wallet: RAINBOW }))
    const line = await waitFor(() => {
      const p = [...shadow().querySelectorAll('.newcomer')].find((e) => e.textContent?.startsWith("Don't have"))
      if (!p) throw new Error('no line')
      return p
    })
    expect(line.textContent).toBe("Don't have Rainbow?Get it")
    expect(line.querySelector('a')?.getAttribute('href')).toBe('https://rainbow.me/')
  })

  it('the Mobile, Desktop and Web tabs are one Tab stop; the arrow keys move between them', async () => {
    const { appKit } = setup()
    await act(() => appKit.open())
    const wallet: Wallet = { ...RAINBOW, desktop_link: 'rainbow-desktop://', webapp_link: 'https://app.rainbow.me/' }
    await act(async () => appKit.client.push('ConnectingWalletConnect', { wallet }))
    const tabs = await waitFor(() => {
      const list = [...shadow().querySelectorAll<HTMLButtonElement>('[role=tab]')]
      if (list.length !== 3) throw new Error('no tabs')
      return list
    })
    const state = () => tabs.map((t) => `${t.textContent}:${t.getAttribute('aria-selected')}:${t.tabIndex}`)
    expect(state()).toEqual(['Mobile:true:0', 'Desktop:false:-1', 'Web:false:-1'])
    const press = (key: string) => act(async () => void shadow().activeElement?.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true })))
    act(() => tabs[0]?.focus())
    await press('ArrowRight')
    expect(state()).toEqual(['Mobile:false:-1', 'Desktop:true:0', 'Web:false:-1'])
    expect(shadow().activeElement?.textContent).toBe('Desktop')
    await press('ArrowLeft')
    await press('ArrowLeft')
    expect(state()).toEqual(['Mobile:false:-1', 'Desktop:false:-1', 'Web:true:0'])
    expect(shadow().activeElement?.textContent).toBe('Web')
  })

  it("on an iPhone, 'Get it' is the wallet's App Store page", async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')
    vi.spyOn(window, 'open').mockReturnValue(null)
    const { appKit } = setup()
    await act(() => appKit.open())
    await act(async () => appKit.client.push('ConnectingWalletConnect', { wallet: METAMASK }))
    const link = await waitFor(() => {
      const a = shadow().querySelector('.newcomer a')
      if (!a) throw new Error('no link')
      return a
    })
    expect(link.getAttribute('href')).toBe(METAMASK.app_store)
    vi.restoreAllMocks()
  })
})
