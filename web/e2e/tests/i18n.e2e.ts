/**
 * Languages (issue 28) in a real browser against the real server: the Connect view in every
 * shipped locale (its title in that locale's words, `lang` and `dir` on the modal root;
 * screenshots test-artifacts/e2e/i18n-connect-<tag>.png); then Arabic: Connect, the email login
 * (the frame follows the locale, the server's device and code mails are written in Arabic) and
 * Account, right to left, with the back arrow mirrored and the QR code not, and an address that
 * reads the same as in a left-to-right page (its text and its characters' visual order).
 * Screenshots: i18n-*-ar.png.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { LOCALES } from '../../packages/core/src/i18n.js'
import type { Translation } from '../../packages/core/src/messages/translation.js'
import { screenshot, walletAccount } from '../src/browser.js'
import { emb, freshEmail, typeCode } from '../src/embedded.js'
import { useDemo } from '../src/fixtures.js'
import { approveDevice, lastMailId, linkOf, waitForMail } from '../src/mail.js'
import { shortAddress, ui, waitConnected } from '../src/ui.js'

const t = useDemo()
const shot = (page: Page, name: string) => screenshot(page, join(t.env.artifactsDir, 'e2e'), `i18n-${name}`)

/** A locale's words, from its file (what the modal loads as its chunk). */
async function words(tag: string): Promise<Translation> {
  return ((await import(`../../packages/core/src/messages/locales/${tag}.ts`)) as { default: Translation }).default
}

/** The demo with `locale` as the host's option (and email login on). */
const demoIn = (locale: string, extra = '') => `${t.demoUrl}?siwx=off${extra}&options=${encodeURIComponent(JSON.stringify({ locale }))}`

const root = (page: Page) => ui.dialog(page).locator('xpath=ancestor::div[contains(@class,"root")]')
const title = (page: Page) => ui.dialog(page).locator('h2.title')

/** The modal's connect button, whatever its words: the page's ConnectButton by its class. */
const opener = (page: Page) => page.locator('button.sigil-cb').first()

/** The computed `transform` of the first svg under `target`. */
const svgTransform = (target: Locator) =>
  target
    .locator('svg')
    .first()
    .evaluate((svg) => getComputedStyle(svg).transform)

/**
 * How an address element reads: its text, its direction, and whether its first character is
 * drawn left of its last one (the visual order a left-to-right reader expects).
 */
async function addressReading(target: Locator): Promise<{ text: string; direction: string; firstLeftOfLast: boolean }> {
  return target.evaluate((el) => {
    const bdi = el.querySelector('bdi') ?? el
    const node = document.createTreeWalker(bdi, NodeFilter.SHOW_TEXT).nextNode() as Text
    const at = (i: number) => {
      const range = document.createRange()
      range.setStart(node, i)
      range.setEnd(node, i + 1)
      return range.getBoundingClientRect().left
    }
    const text = node.data
    return { text: bdi.textContent ?? '', direction: getComputedStyle(bdi).direction, firstLeftOfLast: at(0) < at(text.length - 1) }
  })
}

describe('every shipped locale', () => {
  it('ships at least English and twelve more', () => {
    expect(LOCALES.length).toBeGreaterThanOrEqual(13)
    expect(LOCALES).toContain('ar')
  })

  it.each(LOCALES.filter((l) => l !== 'en'))('%s: the Connect view in its words, with lang and dir', async (tag) => {
    const texts = await words(tag)
    const page = t.page
    await page.goto(demoIn(tag, '&email=on'))
    // The connect button says the locale's words once the modal chunk has loaded them (at idle).
    await expect.poll(() => opener(page).textContent(), { timeout: 20_000 }).toBe(texts.connectButton.label)
    await opener(page).click()
    await ui.walletButton(page).waitFor()
    await expect.poll(() => title(page).textContent()).toBe(texts.ui.titles.Connect)
    expect(await root(page).getAttribute('lang')).toBe(tag)
    expect(await root(page).getAttribute('dir')).toBe(tag === 'ar' || tag === 'he' ? 'rtl' : 'ltr')
    expect(await ui.dialog(page).evaluate((d) => getComputedStyle(d).direction)).toBe(tag === 'ar' || tag === 'he' ? 'rtl' : 'ltr')
    await shot(page, `connect-${tag}`)
  })
})

describe('Arabic, right to left', () => {
  it('Connect: the back arrow is mirrored, the QR code is not', async () => {
    const ar = await words('ar')
    const page = t.page
    await page.goto(demoIn('ar'))
    await expect.poll(() => opener(page).textContent(), { timeout: 20_000 }).toBe(ar.connectButton.label)
    await opener(page).click()
    await ui.walletButton(page).waitFor()
    expect(await root(page).getAttribute('dir')).toBe('rtl')
    await ui.walletButton(page, 'WalletConnect').click()
    await ui.dialog(page).getByTestId('wc-qr').waitFor({ timeout: 20_000 })
    const back = ui.dialog(page).getByRole('button', { name: ar.ui.back })
    expect(await svgTransform(back)).toBe('matrix(-1, 0, 0, 1, 0, 0)')
    expect(await svgTransform(ui.dialog(page).getByTestId('wc-qr'))).toBe('none')
    await shot(page, 'walletconnect-ar')
  })

  it('the email login: the frame follows the locale, the device and code mails are in Arabic; then Account', async () => {
    const ar = await words('ar')
    const page = t.page
    const email = freshEmail('i18n-ar')
    const before = await lastMailId(t.env.mailUrl, email)
    await page.goto(demoIn('ar', '&email=on'))
    await expect.poll(() => opener(page).textContent(), { timeout: 20_000 }).toBe(ar.connectButton.label)
    await opener(page).click()
    const field = ui.dialog(page).locator('form.email input[type=email]')
    await field.fill(email)
    await field.press('Enter')
    await emb.deviceView(page).waitFor({ state: 'visible', timeout: 30_000 })
    expect(await root(page).getAttribute('dir')).toBe('rtl')
    await expect.poll(() => title(page).textContent()).toBe(ar.ui.titles.EmailVerifyDevice)
    // The email is kept left to right inside the Arabic sentence.
    expect(await emb.deviceView(page).textContent()).toContain(`\u2066${email}\u2069`)
    await shot(page, 'email-device-ar')

    // The frame was made in the modal's locale: its URL names it and its page is right to left.
    expect(await page.locator('iframe[data-sigil-frame]').getAttribute('src')).toContain('locale=ar')
    await expect.poll(() => emb.frame(page).locator('html').getAttribute('dir')).toBe('rtl')

    const device = await waitForMail(t.env.mailUrl, email, /^وافق على هذا الجهاز لتسجيل الدخول$/, before)
    expect(device.text).toContain('يحاول شخص ما تسجيل الدخول إلى محفظتك من جهاز جديد')
    await approveDevice(linkOf(device))
    await emb.otpView(page).waitFor({ state: 'visible', timeout: 30_000 })
    await expect.poll(() => title(page).textContent()).toBe(ar.ui.titles.EmailVerifyOtp)
    await shot(page, 'email-code-ar')
    const mail = await waitForMail(t.env.mailUrl, email, /^(\d{6}) هو رمز تسجيل الدخول إلى Sigil$/, before)
    const code = /^(\d{6})/.exec(mail.subject)?.[1] ?? ''
    expect(mail.text).toContain(`رمز تسجيل الدخول الخاص بك هو ${code}.`)
    await typeCode(page, code)
    await waitConnected(page, 30_000)
    await ui.dialog(page).waitFor({ state: 'hidden' })
    await opener(page).click()
    await ui.accountName(page).waitFor()
    expect(await root(page).getAttribute('dir')).toBe('rtl')
    await shot(page, 'account-email-ar')
  })

  it('an address reads the same in a right-to-left page as in a left-to-right one', async () => {
    const readIn = async (locale: string) => {
      const page = await t.newPage()
      await page.goto(demoIn(locale))
      await expect.poll(() => page.evaluate(() => document.querySelector('sigil-modal') !== null), { timeout: 20_000 }).toBe(true)
      await opener(page).click()
      await ui.walletButton(page).click()
      await waitConnected(page)
      await ui.dialog(page).waitFor({ state: 'hidden' })
      await opener(page).click()
      await ui.tokenRow(page, 'SGL').waitFor({ timeout: 15_000 })
      expect(await root(page).getAttribute('dir')).toBe(locale === 'ar' ? 'rtl' : 'ltr')
      const reading = await addressReading(ui.accountName(page))
      if (locale === 'ar') await shot(page, 'account-ar')
      return { reading, address: await walletAccount(page) }
    }
    const rtl = await readIn('ar')
    const ltr = await readIn('en')
    expect(rtl.reading.text).toBe(shortAddress(rtl.address))
    expect(rtl.reading).toEqual({ text: ltr.reading.text, direction: 'ltr', firstLeftOfLast: true })
    expect(ltr.reading.direction).toBe('ltr')
  })
})
