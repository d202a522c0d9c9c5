import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AUTH_CONNECTOR_ID, UserRejectedRequestError, type AuthConnector, type SocialProvider } from '@sigil/core'
import { fakeAuthConnector } from '../../../../../core/src/test-utils/index.js'
import type { AppKit } from '../../../appkit.js'
import { ADDRESS, cleanup, shadow, stubDirectory, testAppKit, waitFor } from '../../../test-utils.js'
import { BRAND_ICONS } from './brands.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

const PROVIDER_URI = 'https://idp.example/auth?state=s1'

/** An embedded-wallet connector whose social steps the test scripts. */
function fakeAuth(connectSocial: AuthConnector['connectSocial'] = async () => ({ provider: 'google', userName: 'alice' })) {
  return fakeAuthConnector(
    {
      connect: vi.fn(async () => ({
        connectorId: AUTH_CONNECTOR_ID,
        accounts: [{ namespace: 'eip155' as const, address: ADDRESS, type: 'eoa' as const, chainId: 31337 }],
        user: { username: 'alice' },
        socialProvider: 'google',
      })),
      getSocialRedirectUri: vi.fn(async () => PROVIDER_URI),
      connectSocial: vi.fn(connectSocial),
    },
    ADDRESS,
  )
}

/** A login window the test watches: where it was sent, and whether it was closed. */
function fakePopup() {
  return {
    location: { href: '' },
    closed: false,
    close: vi.fn(function (this: { closed: boolean }) {
      this.closed = true
    }),
  }
}

async function openWith(socials: SocialProvider[], auth = fakeAuth()) {
  stubDirectory()
  const { appKit } = testAppKit({ connectors: [auth.source], features: { email: false, socials, analytics: false } })
  current = appKit
  await act(async () => {
    await appKit.open()
  })
  await waitFor(() => {
    if (!shadow().querySelector('.social-wide')) throw new Error('no social buttons')
  })
  return { appKit, ...auth }
}

const click = async (selector: string) => {
  const el = await waitFor(() => {
    const found = shadow().querySelector<HTMLElement>(selector)
    if (!found) throw new Error(`no ${selector}`)
    return found
  })
  await act(async () => el.click())
}

describe('social login views', () => {
  it('the Connect view shows the socials in order: the first full width, the rest as icons, past six behind "more"', async () => {
    await openWith(['github', 'google', 'x', 'discord', 'farcaster', 'apple', 'facebook'])
    const wide = shadow().querySelector<HTMLButtonElement>('.social-wide')
    expect(wide?.textContent).toBe('Continue with GitHub')
    const icons = [...shadow().querySelectorAll<HTMLButtonElement>('.socials [data-provider]')].map((b) => b.getAttribute('aria-label'))
    expect(icons).toEqual(['Continue with Google', 'Continue with X', 'Continue with Discord', 'Continue with Farcaster'])
    await click('[data-testid=socials-more]')
    const all = await waitFor(() => {
      const rows = [...shadow().querySelectorAll('[data-testid=connect-socials] button')].map((b) => b.textContent)
      if (rows.length === 0) throw new Error('no list')
      return rows
    })
    expect(all).toEqual([
      'Continue with GitHub',
      'Continue with Google',
      'Continue with X',
      'Continue with Discord',
      'Continue with Farcaster',
      'Continue with Apple',
      'Continue with Facebook',
    ])
  })

  it("each social button shows its brand's icon (simple-icons), a provider the set lacks a neutral one; no initials", async () => {
    await openWith(['google', 'github', 'x', 'discord', 'apple', 'company'])
    const glyphs = [...shadow().querySelectorAll<HTMLButtonElement>('.social-login [data-provider]')].map((b) => {
      const glyph = b.querySelector('.social-glyph')
      return {
        provider: b.dataset.provider,
        icon: glyph?.getAttribute('data-icon'),
        text: glyph?.textContent,
        path: glyph?.querySelector('svg path')?.getAttribute('d'),
      }
    })
    expect(glyphs.map((g) => g.provider)).toEqual(['google', 'github', 'x', 'discord', 'apple', 'company'])
    expect(glyphs.map((g) => g.icon)).toEqual(['google', 'github', 'x', 'discord', 'apple', 'generic'])
    for (const g of glyphs) expect(g.text, `${g.provider} draws no letter`).toBe('')
    expect(glyphs[0]?.path).toBe(BRAND_ICONS.google?.path)
    expect(glyphs[1]?.path).toBe(BRAND_ICONS.github?.path)
    // Google and GitHub (both "G" before) and every other: distinct icons.
    expect(new Set(glyphs.map((g) => g.path)).size).toBe(glyphs.length)
    // A brand in its colour; the near-black ones in the text colour, to show on the dark theme.
    const fill = (p: string) => shadow().querySelector(`[data-provider=${p}] .social-glyph path`)?.getAttribute('fill')
    expect(fill('google')).toBe('#4285F4')
    expect(fill('github')).toBe('currentColor')
  })

  it('six or fewer: no "more" button', async () => {
    await openWith(['google', 'github', 'farcaster'])
    expect(shadow().querySelectorAll('.socials [data-provider]')).toHaveLength(2)
    expect(shadow().querySelector('[data-testid=socials-more]')).toBeNull()
  })

  it('opens the login window in the click, sends it to the provider, and connects once the frame has the session', async () => {
    const popup = fakePopup()
    const open = vi.fn(() => popup)
    vi.stubGlobal('open', open)
    const { appKit, auth } = await openWith(['google', 'github'])
    await click('.social-wide')
    expect(open).toHaveBeenCalledTimes(1)
    await waitFor(() => {
      if (!appKit.getIsConnectedState()) throw new Error('not connected')
    })
    expect(auth.getSocialRedirectUri).toHaveBeenCalledWith('google')
    expect(popup.location.href).toBe(PROVIDER_URI)
    expect(auth.connectSocial).toHaveBeenCalledWith(PROVIDER_URI, expect.objectContaining({ signal: expect.any(AbortSignal) }))
    expect(popup.close).toHaveBeenCalled()
    expect(appKit.getWalletProviderType('eip155')).toBe('AUTH')
    const account = appKit.client.store.getState().chains.eip155?.account
    expect([account?.socialProvider, account?.user?.username]).toEqual(['google', 'alice'])
  })

  it('a blocked window: the message and a retry', async () => {
    const open = vi.fn(() => null)
    vi.stubGlobal('open', open)
    const { auth } = await openWith(['google'])
    await click('.social-wide')
    const text = await waitFor(() => {
      const el = shadow().querySelector('[data-testid=social-error]')
      if (!el) throw new Error('no message')
      return el.textContent
    })
    expect(text).toBe('Your browser blocked the login window')
    expect(auth.getSocialRedirectUri).not.toHaveBeenCalled()
    const retry = [...shadow().querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent === 'Try again')
    await act(async () => retry?.click())
    expect(open).toHaveBeenCalledTimes(2)
  })

  it('cancelled at the provider: back to Connect with a message', async () => {
    vi.stubGlobal('open', vi.fn(fakePopup))
    const { appKit } = await openWith(
      ['github'],
      fakeAuth(async () => Promise.reject(new UserRejectedRequestError())),
    )
    await click('.social-wide')
    await waitFor(() => {
      if (appKit.client.store.getState().notification.message !== 'The login with GitHub was cancelled') throw new Error('no message')
    })
    expect(appKit.client.store.getState().router.history.map((r) => r.view)).toEqual(['Connect'])
    expect(appKit.getIsConnectedState()).toBe(false)
  })

  it('a refused login stays on the view with the reason', async () => {
    vi.stubGlobal('open', vi.fn(fakePopup))
    await openWith(
      ['google'],
      fakeAuth(async () => Promise.reject(new Error("Google's answer did not verify"))),
    )
    await click('.social-wide')
    const text = await waitFor(() => {
      const el = shadow().querySelector('[data-testid=social-error]')
      if (!el) throw new Error('no message')
      return el.textContent
    })
    expect(text).toBe("Google's answer did not verify")
  })

  it('Farcaster: a QR code and the link, then connected', async () => {
    const { appKit, auth } = await openWith(['google', 'farcaster'])
    let signedIn: () => void = () => undefined
    auth.connectFarcaster.mockImplementationOnce(() => new Promise((resolve) => (signedIn = () => resolve({ provider: 'farcaster', userName: 'alice' }))))
    await click('.socials [data-provider=farcaster]')
    const link = await waitFor(() => {
      const el = shadow().querySelector('[data-testid=farcaster-link]')
      if (!el) throw new Error('no link')
      return el.getAttribute('href')
    })
    expect(link).toBe('https://farcaster.xyz/~/siwf?channelToken=c1')
    expect(shadow().querySelector('[data-testid=farcaster-qr] path')?.getAttribute('d')).toMatch(/^M\d+ \d+h1v1h-1z/)
    expect(appKit.getIsConnectedState()).toBe(false)
    signedIn()
    await waitFor(() => {
      if (!appKit.getIsConnectedState()) throw new Error('not connected')
    })
    expect(auth.getFarcasterUri).toHaveBeenCalledTimes(1)
    expect(auth.connectFarcaster).toHaveBeenCalledTimes(1)
  })
})
