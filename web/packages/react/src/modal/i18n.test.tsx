import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { loadTranslation } from '@sigil/core/i18n'
import type { AppKit } from '../appkit.js'
import { ConnectButton } from '../ConnectButton.js'
import { useAppKitLocale } from '../hooks.js'
import { cleanup, render, shadow, stubDirectory, testAppKit, waitFor } from '../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

const title = () => shadow().querySelector('h2.title')?.textContent
const root = () => shadow().querySelector<HTMLElement>('.root')

async function open(options: Parameters<typeof testAppKit>[0]) {
  stubDirectory()
  const { appKit } = testAppKit(options)
  current = appKit
  await act(() => appKit.open())
  return appKit
}

describe('the modal’s language', () => {
  it('starts in the locale option, with its words, lang and direction', async () => {
    const de = await loadTranslation('de')
    await open({ locale: 'de-AT' })
    await waitFor(() => expect(title()).toBe(de?.ui.titles.Connect))
    expect(de?.ui.titles.Connect).not.toBe('Connect Wallet')
    expect(root()?.getAttribute('lang')).toBe('de')
    expect(root()?.getAttribute('dir')).toBe('ltr')
  })

  it('without the option, takes the browser’s languages, negotiated', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['nl-NL', 'pt-PT', 'en'])
    const pt = await loadTranslation('pt-BR')
    await open({})
    await waitFor(() => expect(title()).toBe(pt?.ui.titles.Connect))
    expect(root()?.getAttribute('lang')).toBe('pt-BR')
  })

  it('switches at run time: the open modal and the connect button render again, right to left for Arabic', async () => {
    const ar = await loadTranslation('ar')
    const appKit = await open({ locale: 'en' })
    await waitFor(() => expect(root()?.getAttribute('lang')).toBe('en'))
    expect(title()).toBe('Connect Wallet')
    const { container } = render(<ConnectButton />)
    const seen: string[] = []
    function Probe() {
      seen.push(useAppKitLocale().locale)
      return null
    }
    render(<Probe />)
    expect(container.textContent).toBe('Connect Wallet')
    await act(() => appKit.setLocale('ar'))
    expect(title()).toBe(ar?.ui.titles.Connect)
    expect(root()?.getAttribute('dir')).toBe('rtl')
    expect(root()?.getAttribute('lang')).toBe('ar')
    expect(container.textContent).toBe(ar?.connectButton.label)
    expect(seen.at(-1)).toBe('ar')
    // And back: the words loaded once are used again.
    await act(() => appKit.setLocale(['en-GB']))
    expect(title()).toBe('Connect Wallet')
    expect(root()?.getAttribute('dir')).toBe('ltr')
    expect(container.textContent).toBe('Connect Wallet')
  })

  it('the host’s overrides replace a text of a locale, and of English', async () => {
    const fr = await loadTranslation('fr')
    const appKit = await open({
      locale: 'fr',
      messages: { fr: { ui: { titles: { Connect: 'Mon portefeuille' } } }, en: { ui: { titles: { Connect: 'Sign in' } } } },
    })
    await waitFor(() => expect(title()).toBe('Mon portefeuille'))
    // The rest is the translation's: the close button's name, say.
    expect(fr?.ui.close).not.toBe('Close')
    expect(shadow().querySelector(`button[aria-label="${fr?.ui.close}"]`)).not.toBeNull()
    await act(() => appKit.setLocale('en'))
    expect(title()).toBe('Sign in')
  })
})
