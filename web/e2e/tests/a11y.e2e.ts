/**
 * Accessibility (WCAG 2.2 AA) of the views the other suites do not check with axe, in both
 * themes: Connect with email, socials and a recent wallet (the 'Recent' tag), ConnectingExternal
 * waiting and declined, the WalletConnect QR view, the sign-in (SIWXSignMessage), Account and
 * Networks, the email views (device, code, a wrong code), the device-approval page and the
 * embedded wallet's frame (ApproveTransaction with the frame's approval): no serious or critical
 * axe finding. Then: reduced motion turns the transitions and the shake off; at 320 px wide and at
 * 200 % zoom nothing of the modal overflows sideways and its main buttons can be used.
 * Screenshots: test-artifacts/e2e/a11y-*.png.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { screenshot, seriousA11yViolations, wallet, type Theme } from '../src/browser.js'
import { emb, freshEmail, rejectInFrame, submitEmail, typeCode } from '../src/embedded.js'
import { useDemo } from '../src/fixtures.js'
import { approveDevice, codeOf, DEVICE_LINK, lastMailId, linkOf, LOGIN_CODE, waitForMail } from '../src/mail.js'
import { send } from '../src/send.js'
import { installTestWallet } from '../src/test-wallet.js'
import { openModal, ui, waitConnected } from '../src/ui.js'

const t = useDemo()
const THEMES: Theme[] = ['light', 'dark']
const shot = (page: Page, name: string) => screenshot(page, join(t.env.artifactsDir, 'e2e'), `a11y-${name}`)

/** MetaMask from the directory as a recent wallet (storage as the modal keeps it), so Connect shows its 'Recent' tag. */
const RECENT = [{ id: 'c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96', name: 'MetaMask' }]

/** Runs axe on the page (the modal's shadow root and the frame included): nothing serious or critical. */
async function expectAccessible(page: Page, view: string): Promise<void> {
  const findings = await seriousA11yViolations(page)
  expect(findings, `${view}: ${JSON.stringify(findings, null, 2)}`).toEqual([])
}

/** A view once its transition (150 ms) has run: the dialog shows `view`. */
async function onView(page: Page, view: string): Promise<void> {
  await expect.poll(() => ui.dialog(page).getAttribute('data-view'), { timeout: 20_000 }).toBe(view)
  // The view's own animations end; spinners and placeholders go on (infinite), not waited for.
  await ui.dialog(page).evaluate((d) =>
    Promise.all(
      d
        .getAnimations({ subtree: true })
        .filter((a) => a.effect?.getComputedTiming().iterations !== Number.POSITIVE_INFINITY)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  )
}

describe.each(THEMES)('axe in the %s theme', (theme) => {
  it('Connect (email, socials, a recent wallet), ConnectingExternal waiting and declined, the WalletConnect QR view', async () => {
    const page = await t.newPage({ theme })
    await page.evaluate((recent) => localStorage.setItem('@appkit/recent_wallets', JSON.stringify(recent)), RECENT)
    await page.goto(`${t.demoUrl}?email=on&socials=google,github,farcaster&siwx=off`)
    await openModal(page)
    await ui.walletButton(page).waitFor()
    const recent = ui.dialog(page).locator('.tag', { hasText: /^recent$/i })
    await recent.waitFor()
    await onView(page, 'Connect')
    await expectAccessible(page, 'Connect')
    await shot(page, `connect-${theme}`)

    await wallet(page, 'holdApprovals', true)
    await ui.walletButton(page).click()
    await expect.poll(() => wallet(page, 'pendingCount')).toBe(1)
    await onView(page, 'ConnectingExternal')
    await expectAccessible(page, 'ConnectingExternal (waiting)')
    await wallet(page, 'rejectPending')
    await ui.dialog(page).getByText('User rejected the request.').waitFor()
    await expectAccessible(page, 'ConnectingExternal (declined)')

    await ui.backButton(page).click()
    await ui.walletButton(page, 'WalletConnect').click()
    await ui.dialog(page).getByTestId('wc-qr').waitFor({ timeout: 20_000 })
    await onView(page, 'ConnectingWalletConnect')
    await expectAccessible(page, 'WalletConnect QR')
    await shot(page, `walletconnect-${theme}`)
  })

  it('SIWXSignMessage, Account and Networks', async () => {
    const page = await t.newPage({ theme })
    await page.goto(`${t.demoUrl}?siwx=required`)
    await openModal(page)
    await ui.walletButton(page).click()
    const sign = ui.dialog(page).getByRole('button', { name: /^sign$/i })
    await sign.waitFor({ timeout: 15_000 })
    await onView(page, 'SIWXSignMessage')
    await expectAccessible(page, 'SIWXSignMessage')
    await sign.click()
    await ui.dialog(page).waitFor({ state: 'hidden', timeout: 15_000 })
    await ui.accountButton(page).click()
    await ui.tokenRow(page, 'SGL').waitFor({ timeout: 15_000 })
    await onView(page, 'Account')
    await expectAccessible(page, 'Account')
    await ui.networkButton(page).click()
    await ui.networkOption(page, 'Arbitrum').waitFor()
    await onView(page, 'Networks')
    await expectAccessible(page, 'Networks')
  })

  it("email: device approval (the modal's view and the approval page), the code, a wrong code; the frame's approval", async () => {
    const page = await t.newPage({ theme })
    await page.goto(`${t.demoUrl}?email=on&siwx=off`)
    const email = freshEmail(`a11y-${theme}`)
    const before = await lastMailId(t.env.mailUrl, email)
    await openModal(page)
    await submitEmail(page, email)
    await emb.deviceView(page).waitFor({ state: 'visible', timeout: 30_000 })
    await onView(page, 'EmailVerifyDevice')
    await expectAccessible(page, 'EmailVerifyDevice')
    const deviceMail = await waitForMail(t.env.mailUrl, email, DEVICE_LINK, before)
    // The approval page the mail links to, in the same theme.
    const approvalPage = await page.context().newPage()
    await approvalPage.goto(linkOf(deviceMail))
    await approvalPage.getByRole('button', { name: 'Approve this device' }).waitFor()
    await expectAccessible(approvalPage, 'device approval page')
    await approvalPage.close()
    await approveDevice(linkOf(deviceMail))
    await emb.otpView(page).waitFor({ state: 'visible', timeout: 30_000 })
    await onView(page, 'EmailVerifyOtp')
    await expectAccessible(page, 'EmailVerifyOtp')
    await shot(page, `email-code-${theme}`)
    const code = codeOf(await waitForMail(t.env.mailUrl, email, LOGIN_CODE, deviceMail.id))
    await typeCode(page, code === '000000' ? '111111' : '000000')
    await expect.poll(() => emb.otpError(page).innerText(), { timeout: 15_000 }).toBe('Invalid code')
    await expectAccessible(page, 'EmailVerifyOtp (wrong code)')
    await expect.poll(() => emb.otpInputs(page).first().isEnabled()).toBe(true)
    await typeCode(page, code)
    await waitConnected(page, 30_000)

    // A message to sign: the modal's ApproveTransaction with the frame's approval in it.
    await emb.provider.signMessage(page).click()
    await emb.approval(page).waitFor({ state: 'visible', timeout: 20_000 })
    await onView(page, 'ApproveTransaction')
    await expectAccessible(page, 'ApproveTransaction (the frame)')
    await shot(page, `frame-approval-${theme}`)
    await rejectInFrame(page)
  })

  it('ConnectingSocial waiting for its login window, ConnectingFarcaster with its QR code and link', async () => {
    const page = await t.newPage({ theme })
    await page.goto(`${t.demoUrl}?email=on&socials=google,github,farcaster&siwx=off`)
    await openModal(page)
    const [popup] = await Promise.all([page.context().waitForEvent('page'), ui.dialog(page).locator('.social-wide').click()])
    await expect.poll(() => ui.dialog(page).getByTestId('connecting-social').getAttribute('data-phase')).toBe('waiting')
    await onView(page, 'ConnectingSocial')
    await expectAccessible(page, 'ConnectingSocial')
    await popup.close()
    await ui.dialog(page).getByTestId('connect-view').waitFor({ state: 'visible' })
    await ui.dialog(page).locator('.socials [data-provider="farcaster"]').click()
    await expect.poll(() => ui.dialog(page).getByTestId('connecting-farcaster').getAttribute('data-url')).toMatch(/^https:\/\/farcaster\.xyz\//)
    await onView(page, 'ConnectingFarcaster')
    await expectAccessible(page, 'ConnectingFarcaster')
    await shot(page, `farcaster-${theme}`)
  })
})

/** Computed animation and transition durations of the modal's moving parts. */
const durations = (page: Page, selector: string, property: 'animationDuration' | 'transitionDuration') =>
  ui
    .dialog(page)
    .locator(selector)
    .first()
    .evaluate((el, p) => getComputedStyle(el)[p as 'animationDuration'], property)

describe('reduced motion', () => {
  it('prefers-reduced-motion: reduce turns the view slide, the title fade, the height transition and the shake off (they run without it)', async () => {
    for (const motion of ['no-preference', 'reduce'] as const) {
      const page = await t.newPage()
      await page.emulateMedia({ reducedMotion: motion })
      await openModal(page)
      await wallet(page, 'holdApprovals', true)
      await ui.walletButton(page).click()
      await ui.dialog(page).locator('.view.enter').waitFor()
      const measured = {
        view: await durations(page, '.view.enter', 'animationDuration'),
        title: await durations(page, '.title.enter', 'animationDuration'),
        height: await durations(page, '.sizer', 'transitionDuration'),
        spinner: await durations(page, '.ring', 'animationDuration'),
        shake: '',
      }
      await wallet(page, 'rejectPending')
      // The card shakes for 500 ms after the refusal: read it while it does.
      await ui.dialog(page).and(page.locator('.shake')).waitFor()
      measured.shake = await ui.dialog(page).evaluate((el) => getComputedStyle(el).animationDuration)
      const expected =
        motion === 'reduce'
          ? { view: '0s', title: '0s', height: '0s', spinner: '0s', shake: '0s' }
          : { view: '0.15s', title: '0.12s', height: '0.15s', spinner: '1s', shake: '0.5s' }
      expect(measured, motion).toEqual(expected)
    }
  })
})

/** Parts of the dialog that stick out of its card sideways (clipped or scrolled away), and the card's own scroll. */
const sideways = (page: Page) =>
  ui.dialog(page).evaluate((card) => {
    const box = card.getBoundingClientRect()
    const out: string[] = []
    for (const el of card.querySelectorAll<HTMLElement>('*')) {
      const r = el.getBoundingClientRect()
      if (r.width === 0 || r.height === 0 || el.closest('.sr,[aria-hidden=true]')) continue
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5)
        out.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(r.left)}..${Math.round(r.right)}`)
    }
    return {
      scroll: card.scrollWidth <= card.clientWidth,
      inViewport: box.left >= -0.5 && box.right <= window.innerWidth + 0.5,
      out: out.slice(0, 5),
    }
  })

/** The modal fits sideways, and `buttons` show and take a click (Playwright's trial click: visible, steady, not covered). */
async function expectFits(page: Page, view: string, buttons: Locator[]): Promise<void> {
  expect(await sideways(page), view).toEqual({ scroll: true, inViewport: true, out: [] })
  for (const button of buttons) {
    await button.scrollIntoViewIfNeeded()
    if (await button.isEnabled()) {
      await button.click({ trial: true, timeout: 5_000 })
    } else {
      // A disabled one (a resend while the 30 s run) shows, in the viewport.
      const box = await button.boundingBox()
      const size = page.viewportSize()
      expect(
        box && size && box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height,
        `${view}: ${await button.innerText()}`,
      ).toBe(true)
    }
  }
}

describe.each([
  { name: '320 px wide', viewport: { width: 320, height: 640 }, deviceScaleFactor: 1 },
  // A 1280 x 900 window at 200 % zoom lays out in 640 x 450 CSS pixels, each drawn as 2 x 2.
  { name: '200 % zoom', viewport: { width: 640, height: 450 }, deviceScaleFactor: 2 },
])('at $name', ({ name, viewport, deviceScaleFactor }) => {
  it('Connect (with email), AllWallets, the email views, ConnectingExternal, Account, Networks and the send form fit, their buttons usable', async () => {
    const context = await t.browser.newContext({ colorScheme: 'dark', viewport, deviceScaleFactor })
    try {
      await context.addInitScript(installTestWallet, { rpcUrl: t.env.rpcUrl, chainId: 31337 })
      await run(await context.newPage(), name.replace(/[^0-9a-z]+/gi, '-'))
    } finally {
      await context.close()
    }
  })
})

async function run(page: Page, tag: string): Promise<void> {
  await page.goto(`${t.demoUrl}?email=on&siwx=off`)
  await openModal(page)
  await ui.walletButton(page).waitFor()
  await onView(page, 'Connect')
  await expectFits(page, 'Connect', [ui.walletButton(page), emb.continueButton(page), ui.closeButton(page)])
  await shot(page, `connect-${tag}`)
  await ui.allWalletsButton(page).scrollIntoViewIfNeeded()
  await ui.allWalletsButton(page).click()
  await ui.walletButton(page, 'MetaMask').waitFor()
  await onView(page, 'AllWallets')
  await expectFits(page, 'AllWallets', [ui.walletButton(page, 'MetaMask'), ui.search(page), ui.backButton(page)])
  await ui.backButton(page).click()
  await onView(page, 'Connect')

  // The email views: the device approval, then the code (its six boxes).
  const email = freshEmail('narrow')
  const before = await lastMailId(t.env.mailUrl, email)
  await submitEmail(page, email)
  await emb.deviceView(page).waitFor({ state: 'visible', timeout: 30_000 })
  await onView(page, 'EmailVerifyDevice')
  await expectFits(page, 'EmailVerifyDevice', [ui.dialog(page).getByTestId('device-resend')])
  const deviceMail = await waitForMail(t.env.mailUrl, email, DEVICE_LINK, before)
  await approveDevice(linkOf(deviceMail))
  await emb.otpView(page).waitFor({ state: 'visible', timeout: 30_000 })
  await onView(page, 'EmailVerifyOtp')
  await expectFits(page, 'EmailVerifyOtp', [emb.otpInputs(page).first(), emb.resend(page)])
  await shot(page, `email-code-${tag}`)
  await ui.closeButton(page).click()
  await ui.dialog(page).waitFor({ state: 'hidden' })
  await openModal(page)
  await onView(page, 'Connect')

  await wallet(page, 'holdApprovals', true)
  await ui.walletButton(page).click()
  await onView(page, 'ConnectingExternal')
  await expectFits(page, 'ConnectingExternal', [ui.dialog(page).getByRole('button', { name: /try again/i })])
  await wallet(page, 'approvePending')
  await waitConnected(page)
  await ui.dialog(page).waitFor({ state: 'hidden' })
  await ui.accountButton(page).click()
  await ui.tokenRow(page, 'ETH').waitFor({ timeout: 15_000 })
  await onView(page, 'Account')
  await expectFits(page, 'Account', [send.open(page), ui.networkButton(page), ui.disconnectButton(page)])
  await shot(page, `account-${tag}`)
  await ui.networkButton(page).click()
  await onView(page, 'Networks')
  await expectFits(page, 'Networks', [ui.networkOption(page, 'Arbitrum'), ui.networkOption(page, 'Sigil Dev')])
  await ui.backButton(page).click()
  await onView(page, 'Account')
  await send.open(page).scrollIntoViewIfNeeded()
  await send.open(page).click()
  await send.form(page).waitFor()
  await onView(page, 'WalletSend')
  await expectFits(page, 'WalletSend', [send.amount(page), send.to(page), send.submit(page)])
  await shot(page, `send-${tag}`)
}

describe('right to left (Arabic, `locale: "ar"`)', () => {
  it.each(THEMES)(
    '%s theme: Connect, ConnectingExternal declined, the email device view and Account are laid out right to left; nothing serious for axe',
    async (theme) => {
      const page = await t.newPage({ theme })
      await page.goto(`${t.demoUrl}?email=on&siwx=off&options=${encodeURIComponent(JSON.stringify({ locale: 'ar' }))}`)
      // The page's ConnectButton speaks Arabic too: found by its class.
      const opener = page.locator('button.sigil-cb').first()
      await opener.click()
      await ui.walletButton(page).waitFor()
      await onView(page, 'Connect')
      expect(await ui.dialog(page).evaluate((d) => d.closest('.root')?.getAttribute('dir'))).toBe('rtl')
      expect(await ui.dialog(page).evaluate((d) => getComputedStyle(d).direction)).toBe('rtl')
      await expectAccessible(page, 'Connect (ar)')
      await shot(page, `connect-ar-${theme}`)

      await wallet(page, 'holdApprovals', true)
      await ui.walletButton(page).click()
      await expect.poll(() => wallet(page, 'pendingCount')).toBe(1)
      await wallet(page, 'rejectPending')
      await wallet(page, 'holdApprovals', false)
      await onView(page, 'ConnectingExternal')
      await ui.dialog(page).locator('.sub.err').waitFor()
      await expectAccessible(page, 'ConnectingExternal declined (ar)')
      await page.keyboard.press('Escape')
      await ui.dialog(page).waitFor({ state: 'hidden' })

      await opener.click()
      const field = ui.dialog(page).locator('form.email input[type=email]')
      await field.fill(freshEmail(`rtl-${theme}`))
      await field.press('Enter')
      await emb.deviceView(page).waitFor({ state: 'visible', timeout: 30_000 })
      await onView(page, 'EmailVerifyDevice')
      await expectAccessible(page, 'EmailVerifyDevice (ar)')
      await page.keyboard.press('Escape')
      await ui.dialog(page).waitFor({ state: 'hidden' })

      await opener.click()
      await ui.walletButton(page).click()
      await waitConnected(page)
      await ui.dialog(page).waitFor({ state: 'hidden' })
      await page.locator('button.sigil-cb').first().click()
      await ui.tokenRow(page, 'SGL').waitFor({ timeout: 15_000 })
      await onView(page, 'Account')
      await expectAccessible(page, 'Account (ar)')
      await shot(page, `account-ar-${theme}`)
    },
  )
})
