/**
 * Host options of spec section 1 that show in the browser, through the demo page's
 * `?options=<JSON>` (merged into its createAppKit options): analytics off means no analytics
 * request at all, feature bundles are fetched only when their feature is on, legalCheckbox in a
 * real browser, a bad option's message on the page, and two custom themes (screenshots under
 * test-artifacts/e2e/, looked at by a person).
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { pageRequests, screenshot } from '../src/browser.js'
import { useDemo } from '../src/fixtures.js'
import { connectTestWallet, openModal, ui } from '../src/ui.js'

const t = useDemo()

/** The demo page with these createAppKit options (and other query parameters). */
function demoWith(options: object, params: Record<string, string> = {}): string {
  const url = new URL(t.demoUrl)
  url.searchParams.set('options', JSON.stringify(options))
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
  return url.toString()
}

/** A fresh page (empty storage) at `url`; its request log starts with this load. */
async function pageAt(url: string): Promise<{ page: Page; since: number }> {
  const page = await t.newPage()
  const since = pageRequests(page).length
  await page.goto(url)
  return { page, since }
}

const pathOf = (url: string) => new URL(url).pathname
/** The analytics API: its config (asked before the first event) and the events. */
const analyticsCalls = (urls: readonly string[]) => urls.filter((u) => pathOf(u) === '/getAnalyticsConfig' || pathOf(u) === '/e')
/** A bundle of the demo build by its chunk name (`swap-<hash>.js`). */
const bundle = (name: string) => (u: string) => new RegExp(`/assets/${name}-[\\w-]+\\.js$`).test(pathOf(u))

/** Resolves once the page has been idle twice over (the analytics sink loads when the page is idle). */
const idleTwice = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestIdleCallback(() => requestIdleCallback(() => resolve(), { timeout: 3000 }), {
          timeout: 3000,
        }),
      ),
  )

/** Opens and closes the modal, connects the test wallet, opens and closes it again: events to track. */
async function useTheModal(page: Page) {
  await openModal(page)
  await ui.closeButton(page).click()
  await connectTestWallet(page)
  await openModal(page)
  await ui.closeButton(page).click()
}

describe('analytics', () => {
  it('on (the default), the events reach the server; off, the page makes no analytics request at all', async () => {
    const on = await pageAt(demoWith({}))
    const off = await pageAt(demoWith({ features: { analytics: false } }))
    await useTheModal(on.page)
    await useTheModal(off.page)
    // The control: with analytics on, the same steps ask for the config and send events.
    await expect.poll(() => analyticsCalls(pageRequests(on.page).slice(on.since)).map(pathOf), { timeout: 10_000 }).toContain('/e')
    await idleTwice(off.page)
    expect(analyticsCalls(pageRequests(off.page).slice(off.since))).toEqual([])
  })
})

describe('feature bundles', () => {
  it('email and socials off: the Connect view fetches no email/social bundle; on, it does', async () => {
    const off = await pageAt(demoWith({}))
    await openModal(off.page)
    await ui.walletButton(off.page).waitFor()
    await idleTwice(off.page)
    expect(pageRequests(off.page).slice(off.since).filter(bundle('EmailSocial'))).toEqual([])

    const on = await pageAt(demoWith({}, { email: 'on' }))
    await openModal(on.page)
    await ui.dialog(on.page).getByRole('textbox', { name: /email/i }).waitFor()
    expect(pageRequests(on.page).slice(on.since).filter(bundle('EmailSocial')).length).toBeGreaterThan(0)
  })

  it('swaps, onramp and receive off: no button for them in the Account view and none of their bundles; on, each is fetched when used', async () => {
    const off = await pageAt(demoWith({ features: { swaps: false, onramp: false, receive: false } }))
    await connectTestWallet(off.page)
    await openModal(off.page)
    await ui.dialog(off.page).getByTestId('account-send').waitFor()
    for (const id of ['account-swap', 'account-buy', 'account-receive']) expect(await ui.dialog(off.page).getByTestId(id).count(), id).toBe(0)
    await idleTwice(off.page)
    const offBundles = pageRequests(off.page).slice(off.since)
    for (const name of ['swap', 'onramp', 'receive']) expect(offBundles.filter(bundle(name)), name).toEqual([])

    const on = await pageAt(demoWith({}))
    await connectTestWallet(on.page)
    await openModal(on.page)
    await ui.dialog(on.page).getByTestId('account-swap').click()
    await expect.poll(() => pageRequests(on.page).slice(on.since).filter(bundle('swap')).length).toBeGreaterThan(0)
  })
})

describe('legalCheckbox', () => {
  const legal = {
    features: { legalCheckbox: true },
    termsConditionsUrl: 'https://shop.example/terms',
    privacyPolicyUrl: 'https://shop.example/privacy',
  }

  it('the wallets are disabled until the terms are agreed to; the tick is remembered after a reload', async () => {
    const { page } = await pageAt(demoWith(legal))
    await openModal(page)
    const box = ui.dialog(page).getByRole('checkbox', { name: /i agree to the terms of service and privacy policy/i })
    expect(await ui.dialog(page).getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('https://shop.example/terms')
    expect(await ui.dialog(page).getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('https://shop.example/privacy')
    expect(await box.isChecked()).toBe(false)
    expect(await ui.walletButton(page).isDisabled()).toBe(true)
    expect(await ui.allWalletsButton(page).isDisabled()).toBe(true)
    await box.check()
    expect(await ui.walletButton(page).isDisabled()).toBe(false)
    await ui.walletButton(page).click()
    await ui
      .status(page)
      .filter({ hasText: /^connected$/ })
      .waitFor()

    // Remembered: after a reload (the connection restored), disconnecting shows the Connect view ticked.
    await page.reload()
    await ui
      .status(page)
      .filter({ hasText: /^connected$/ })
      .waitFor()
    await openModal(page)
    await ui.disconnectButton(page).click()
    await ui
      .status(page)
      .filter({ hasText: /^disconnected$/ })
      .waitFor()
    if (!(await ui.dialog(page).isVisible())) await openModal(page)
    await ui.walletButton(page).waitFor()
    expect(await box.isChecked()).toBe(true)
    expect(await ui.walletButton(page).isDisabled()).toBe(false)
  })
})

describe('a bad option', () => {
  it('shows its message on the page at createAppKit, never a blank modal', async () => {
    const unknown = await pageAt(demoWith({ features: { emial: true } }))
    await unknown.page.getByRole('alert').filter({ hasText: 'Unknown feature `emial`' }).waitFor()
    const both = await pageAt(demoWith({ siweConfig: {} }, { siwx: 'required' }))
    await both.page.getByRole('alert').filter({ hasText: 'Cannot set both `siweConfig` and `siwx` options' }).waitFor()
    expect(await ui.connectButton(both.page).count()).toBe(0)
  })
})

describe('themeVariables', () => {
  const themes = {
    'theme-coral-light': {
      themeMode: 'light',
      themeVariables: {
        'sigil-accent': '#e5484d',
        'sigil-accent-fg': '#ffffff',
        'sigil-border-radius-master': '1px',
        'sigil-font-family': 'Georgia, serif',
      },
    },
    'theme-green-dark': {
      themeMode: 'dark',
      themeVariables: { 'sigil-accent': '#30a46c', 'sigil-accent-fg': '#0b0b0b', 'sigil-border-radius-master': '8px' },
    },
  } as const
  const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`

  for (const [name, theme] of Object.entries(themes)) {
    it(`${name}: the accent colours the buttons, the radius scales the corners, the font is the host's; screenshot`, async () => {
      const { page } = await pageAt(
        demoWith({ ...theme, features: { legalCheckbox: true }, termsConditionsUrl: 'https://shop.example/terms' }, { email: 'on' }),
      )
      await openModal(page)
      const card = ui.dialog(page)
      await card.getByRole('checkbox').check()
      await card.getByRole('textbox', { name: /email/i }).fill('visitor@shop.example')
      const continueButton = card.locator('form.email button.btn')
      const style = await continueButton.evaluate((el) => {
        const s = getComputedStyle(el)
        return { background: s.backgroundColor, color: s.color, font: s.fontFamily }
      })
      expect(style.background).toBe(rgb(theme.themeVariables['sigil-accent']))
      expect(style.color).toBe(rgb(theme.themeVariables['sigil-accent-fg']))
      if ('sigil-font-family' in theme.themeVariables) expect(style.font).toBe(theme.themeVariables['sigil-font-family'])
      // The card's corners: 7 × the master radius.
      const radius = await card.evaluate((el) => getComputedStyle(el).borderTopLeftRadius)
      expect(radius).toBe(`${7 * Number.parseFloat(theme.themeVariables['sigil-border-radius-master'])}px`)
      await screenshot(page, join(t.env.artifactsDir, 'e2e'), name)
    })
  }
})
