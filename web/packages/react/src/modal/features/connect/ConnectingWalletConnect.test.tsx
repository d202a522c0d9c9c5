import {
  resolveOptions,
  WalletConnectError,
  walletConnectConnectors,
  type Connection,
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
})
