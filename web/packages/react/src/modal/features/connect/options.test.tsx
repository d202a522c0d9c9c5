/*
 * The Connect view's host options (spec section 1): legalCheckbox with the terms and privacy
 * links, collapseWallets, emailShowWallets and allWallets.
 */
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AppKit, AppKitOptions } from '../../../appkit.js'
import { cleanup, MemoryStorage, shadow, stubDirectory, testAppKit, waitFor } from '../../../test-utils.js'
import { LEGAL_ACCEPTED_KEY } from './Connect.js'

let current: AppKit | undefined
afterEach(() => {
  vi.restoreAllMocks()
  cleanup(current)
  current = undefined
})

async function openWith(options: Partial<AppKitOptions>) {
  stubDirectory(12)
  const { appKit, fake } = testAppKit(options)
  current = appKit
  await act(() => appKit.open())
  await waitFor(() => expect(shadow().querySelector('[data-testid=connect-view]')).not.toBeNull())
  return { appKit, fake }
}

const view = () => shadow().querySelector('[data-testid=connect-view]') as HTMLElement
const walletRows = () => [...view().querySelectorAll<HTMLButtonElement>('button.row')]
const named = (name: string) => walletRows().find((b) => b.querySelector('.name')?.textContent === name)
const legalBox = () => view().querySelector<HTMLInputElement>('[data-testid=connect-legal] input[type=checkbox]')

describe('legalCheckbox', () => {
  const legal = {
    features: { legalCheckbox: true },
    termsConditionsUrl: 'https://shop.example/terms',
    privacyPolicyUrl: 'https://shop.example/privacy',
  } satisfies Partial<AppKitOptions>

  it('links the terms and the privacy policy from the options; every connect control is disabled until ticked', async () => {
    const { appKit } = await openWith({ ...legal, features: { ...legal.features, email: true } })
    await waitFor(() => expect(named('Test Wallet')).toBeDefined())
    const label = view().querySelector('[data-testid=connect-legal]') as HTMLElement
    expect(label.textContent).toBe('I agree to the Terms of Service and Privacy Policy')
    expect([...label.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Terms of Service', 'https://shop.example/terms'],
      ['Privacy Policy', 'https://shop.example/privacy'],
    ])
    const controls = view().querySelector('[data-testid=connect-controls]') as HTMLFieldSetElement
    expect(controls.disabled).toBe(true)
    // A disabled fieldset disables what it holds (the browser's part; the e2e sees it): the wallet rows and the email field.
    expect(named('Test Wallet')?.closest('fieldset')).toBe(controls)
    await waitFor(() => expect(view().querySelector('input[type=email]')?.closest('fieldset')).toBe(controls))

    await act(async () => legalBox()?.click())
    expect(controls.disabled).toBe(false)
    await act(async () => named('Test Wallet')?.click())
    await waitFor(() => expect(appKit.client.store.getState().chains.eip155?.connectionStatus).toBe('connected'))
  })

  it('the tick is remembered: the next visit starts ticked; unticking is remembered too', async () => {
    const storage = new MemoryStorage()
    await openWith({ ...legal, storage })
    await act(async () => legalBox()?.click())
    expect(storage.getItem(LEGAL_ACCEPTED_KEY)).toBe('true')
    cleanup(current)

    await openWith({ ...legal, storage })
    expect(legalBox()?.checked).toBe(true)
    expect((view().querySelector('[data-testid=connect-controls]') as HTMLFieldSetElement).disabled).toBe(false)
    await act(async () => legalBox()?.click())
    expect(storage.getItem(LEGAL_ACCEPTED_KEY)).toBe('false')
    expect((view().querySelector('[data-testid=connect-controls]') as HTMLFieldSetElement).disabled).toBe(true)
  })

  it('only the links given are shown; off by default, and with no link there is nothing to agree to', async () => {
    await openWith({ features: { legalCheckbox: true }, privacyPolicyUrl: 'https://shop.example/privacy' })
    expect(view().querySelector('[data-testid=connect-legal]')?.textContent).toBe('I agree to the Privacy Policy')
    cleanup(current)
    for (const options of [{ termsConditionsUrl: 'https://shop.example/terms' }, { features: { legalCheckbox: true } }]) {
      await openWith(options)
      expect(view().querySelector('[data-testid=connect-legal]')).toBeNull()
      expect((view().querySelector('[data-testid=connect-controls]') as HTMLFieldSetElement).disabled).toBe(false)
      cleanup(current)
    }
  })
})

describe('collapseWallets and emailShowWallets', () => {
  const showWallets = () => view().querySelector<HTMLButtonElement>('[data-testid=connect-show-wallets]')

  it('collapseWallets: with email on, the wallets are one "Continue with a wallet" button that shows them', async () => {
    await openWith({ features: { email: true, collapseWallets: true } })
    expect(showWallets()?.textContent).toBe('Continue with a wallet')
    expect(named('Test Wallet')).toBeUndefined()
    await act(async () => showWallets()?.click())
    await waitFor(() => expect(named('Test Wallet')).toBeDefined())
    expect(showWallets()).toBeNull()
  })

  it('emailShowWallets: false does the same (the older name)', async () => {
    await openWith({ features: { email: true, emailShowWallets: false } })
    expect(showWallets()).not.toBeNull()
    expect(named('Test Wallet')).toBeUndefined()
  })

  it('by default, or with nothing above the wallets to collapse them for, the wallets show', async () => {
    const off = { email: false, socials: false } as const
    for (const features of [{ email: true }, { ...off, collapseWallets: true }, { ...off, emailShowWallets: false }]) {
      await openWith({ features })
      await waitFor(() => expect(named('Test Wallet'), JSON.stringify(features)).toBeDefined())
      expect(showWallets()).toBeNull()
      cleanup(current)
    }
  })
})

describe('allWallets', () => {
  const allButton = () => view().querySelector('button.row[data-section=all]')

  it('on by default: the All Wallets row; off: no way to the whole directory', async () => {
    await openWith({})
    await waitFor(() => expect(allButton()?.textContent).toContain('All Wallets'))
    cleanup(current)
    await openWith({ features: { allWallets: false } })
    await waitFor(() => expect(named('Test Wallet')).toBeDefined())
    expect(allButton()).toBeNull()
  })
})
