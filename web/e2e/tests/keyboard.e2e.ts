/**
 * Every flow of the modal by keyboard alone (Tab, Shift+Tab, Enter, Escape, and typing into
 * fields; no click): the injected test wallet with the required sign-in (SIWX), a network switch
 * and a send, the email code (from the mail sink) and the embedded wallet's approval in its frame
 * (reached by Tab), and WalletConnect's QR view (its link as text,
 * copied with the keyboard, approved by a wallet in Node). Focus stays in the dialog while it is
 * open and goes back to what opened it; Escape closes except where the spec blocks closing (the
 * required sign-in); each new view is announced by its title.
 */
import { getAddress, parseEther } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { wallet } from '../src/browser.js'
import { nativeBalance } from '../src/chain.js'
import { emb, freshEmail } from '../src/embedded.js'
import { useDemo } from '../src/fixtures.js'
import { approveDevice, codeOf, DEVICE_LINK, lastMailId, linkOf, LOGIN_CODE, waitForMail } from '../src/mail.js'
import { send } from '../src/send.js'
import { ui, waitConnected } from '../src/ui.js'
import { startNodeWallet, type NodeWallet } from '../src/wc-wallet.js'

const t = useDemo()
const nodeWallets: NodeWallet[] = []
afterEach(async () => {
  await Promise.all(nodeWallets.splice(0).map((w) => w.close()))
})

/** Whether `el` is the element focused in the page (looking through shadow roots). */
const isFocused = (el: Element) => {
  let active = document.activeElement
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
  return active === el
}

/** The focused element, described (for failure messages), and whether it is inside the modal's dialog. */
const focusNow = (page: Page) =>
  page.evaluate(() => {
    let el = document.activeElement
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
    if (!el) return { inDialog: false, text: '(nothing)' }
    const root = el.getRootNode()
    const dialog = root instanceof ShadowRoot ? root.querySelector('[role=dialog]') : null
    const name = el.getAttribute('aria-label') ?? el.getAttribute('data-testid') ?? (el.textContent ?? '').trim().slice(0, 50)
    return { inDialog: dialog?.contains(el), text: `${el.tagName.toLowerCase()} "${name}"` }
  })

/**
 * Presses Tab (or Shift+Tab) until `target` has focus. While the dialog is open, every stop on
 * the way must be inside it (the focus trap).
 */
async function tabTo(page: Page, target: Locator, { shift = false, max = 60 } = {}): Promise<void> {
  await target.waitFor({ state: 'visible', timeout: 20_000 })
  const trapped = await ui.dialog(page).isVisible()
  const seen: string[] = []
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(shift ? 'Shift+Tab' : 'Tab')
    if (await target.evaluate(isFocused)) return
    const now = await focusNow(page)
    seen.push(now.text)
    if (trapped && (await ui.dialog(page).isVisible())) expect(now.inDialog, `Tab left the open dialog for ${now.text}`).toBe(true)
  }
  throw new Error(`${max} Tabs never reached the target; focus went: ${seen.join(' -> ')}`)
}

/** Tabs to `target` and presses Enter on it. */
async function activate(page: Page, target: Locator): Promise<void> {
  await tabTo(page, target)
  await page.keyboard.press('Enter')
}

/** The dialog's accessible name (its header title) and what the polite view announcer says. */
const dialogTitle = (page: Page) =>
  ui.dialog(page).evaluate((d) => (d.getRootNode() as ShadowRoot).getElementById(d.getAttribute('aria-labelledby') ?? '')?.textContent ?? '')
const announced = (page: Page) => ui.dialog(page).getByTestId('view-announcer').innerText()

/** Opens the modal from the page's ConnectButton with Enter; focus moves into the dialog. */
async function openByKeyboard(page: Page): Promise<void> {
  await activate(page, ui.connectButton(page).or(ui.accountButton(page)).first())
  await ui.dialog(page).waitFor({ state: 'visible' })
  await expect.poll(async () => (await focusNow(page)).inDialog).toBe(true)
}

describe('keyboard only', () => {
  it('injected wallet and required sign-in: focus trapped, Escape closes (not while sign-in is required), focus back on the opener', async () => {
    const page = t.page
    await page.goto(`${t.demoUrl}?siwx=required`)
    await openByKeyboard(page)
    expect(await ui.dialog(page).getAttribute('aria-modal')).toBe('true')
    expect(await dialogTitle(page)).toBe('Connect Wallet')
    await ui.walletButton(page).waitFor()
    // The trap: Tab and Shift+Tab go round inside the dialog, never out to the page.
    for (const key of ['Tab', 'Shift+Tab']) {
      for (let i = 0; i < 25; i++) {
        await page.keyboard.press(key)
        const now = await focusNow(page)
        expect(now.inDialog, `${key} #${i + 1} left the dialog for ${now.text}`).toBe(true)
      }
    }
    // Escape closes; focus is back on the Connect Wallet button.
    await page.keyboard.press('Escape')
    await ui.dialog(page).waitFor({ state: 'hidden' })
    expect(await ui.connectButton(page).evaluate(isFocused)).toBe(true)
    // Open again; the Close button, reached by Tab, closes too, and focus comes back again.
    await page.keyboard.press('Enter')
    await ui.dialog(page).waitFor()
    await activate(page, ui.closeButton(page))
    await ui.dialog(page).waitFor({ state: 'hidden' })
    expect(await ui.connectButton(page).evaluate(isFocused)).toBe(true)

    // Connect with the test wallet; the required sign-in follows.
    await page.keyboard.press('Enter')
    await ui.dialog(page).waitFor()
    await activate(page, ui.walletButton(page))
    const sign = ui.dialog(page).getByRole('button', { name: /^sign$/i })
    await sign.waitFor({ timeout: 15_000 })
    expect(await ui.dialog(page).getAttribute('data-view')).toBe('SIWXSignMessage')
    expect(await dialogTitle(page)).not.toBe('')
    // The spec blocks closing while sign-in is required: Escape leaves it open.
    await page.keyboard.press('Escape')
    expect(await ui.dialog(page).isVisible()).toBe(true)
    expect(await ui.closeButton(page).count()).toBe(0)
    await activate(page, sign)
    await page.waitForFunction(() => document.querySelector('[data-testid="siwx-status"]')?.textContent === 'signed-in', undefined, { timeout: 15_000 })
    await ui.dialog(page).waitFor({ state: 'hidden' })
    await waitConnected(page)
  })

  it('network switch and a send, from the Account view', async () => {
    const page = t.page
    await page.goto(`${t.demoUrl}?siwx=off`)
    await openByKeyboard(page)
    await activate(page, ui.walletButton(page))
    await waitConnected(page)
    await ui.dialog(page).waitFor({ state: 'hidden' })

    // The account button opens the Account view; the network button the Networks list.
    await openByKeyboard(page)
    expect(await ui.dialog(page).getAttribute('data-view')).toBe('Account')
    await activate(page, ui.networkButton(page))
    await ui.networkOption(page, 'Arbitrum').waitFor()
    await expect.poll(() => announced(page)).toBe('Choose Network')
    await activate(page, ui.networkOption(page, 'Arbitrum'))
    await expect.poll(async () => (await wallet(page, 'state')).chainId, { timeout: 10_000 }).toBe(42161)
    await expect.poll(() => ui.networkButton(page).innerText(), { timeout: 10_000 }).toMatch(/arbitrum/i)
    await activate(page, ui.networkButton(page))
    await activate(page, ui.networkOption(page, 'Sigil Dev'))
    await expect.poll(async () => (await wallet(page, 'state')).chainId, { timeout: 10_000 }).toBe(31337)
    await expect.poll(() => ui.networkButton(page).innerText(), { timeout: 10_000 }).toMatch(/sigil dev/i)

    // Send 0.01 ETH to a fresh address: amount and receiver typed, Review, Send.
    const receiver = getAddress(`0x${[...crypto.getRandomValues(new Uint8Array(20))].map((b) => b.toString(16).padStart(2, '0')).join('')}`)
    await ui.tokenRow(page, 'ETH').waitFor({ timeout: 15_000 })
    await activate(page, send.open(page))
    await send.form(page).waitFor()
    await activate(page, send.tokenChip(page))
    await activate(page, send.tokenOption(page, 'ETH'))
    await send.form(page).waitFor()
    await expect.poll(() => send.tokenChip(page).getAttribute('aria-label')).toBe('ETH, change the token')
    await tabTo(page, send.amount(page))
    await page.keyboard.type('0.01')
    await tabTo(page, send.to(page))
    await page.keyboard.type(receiver)
    await expect.poll(() => send.submit(page).innerText(), { timeout: 15_000 }).toBe('Review Send')
    await activate(page, send.submit(page))
    await send.preview(page).waitFor()
    await expect.poll(() => send.confirm(page).isEnabled(), { timeout: 15_000 }).toBe(true)
    await activate(page, send.confirm(page))
    await send.sent(page).waitFor({ timeout: 30_000 })
    expect(await nativeBalance(t.env.rpcUrl, receiver)).toBe(parseEther('0.01'))
    await activate(page, send.done(page))
    await expect.poll(() => ui.dialog(page).getAttribute('data-view')).not.toBe('WalletSendSent')
  })

  it('email login: the address typed and sent with Enter; the code field has focus, is one named field, says a wrong code, and takes the right one', async () => {
    const page = t.page
    await page.goto(`${t.demoUrl}?email=on&siwx=off`)
    const email = freshEmail('keyboard')
    const before = await lastMailId(t.env.mailUrl, email)
    await openByKeyboard(page)
    await tabTo(page, emb.emailInput(page))
    await page.keyboard.type(email)
    await page.keyboard.press('Enter')
    await emb.deviceView(page).waitFor({ state: 'visible', timeout: 30_000 })
    const deviceMail = await waitForMail(t.env.mailUrl, email, DEVICE_LINK, before)
    await approveDevice(linkOf(deviceMail))
    await emb.otpView(page).waitFor({ state: 'visible', timeout: 30_000 })
    const code = codeOf(await waitForMail(t.env.mailUrl, email, LOGIN_CODE, deviceMail.id))

    // One field for assistive tech and autofill, focused when the view shows.
    const field = ui.dialog(page).getByRole('textbox', { name: 'Code' })
    expect(await field.count()).toBe(1)
    expect(await emb.otpInputs(page).count()).toBe(1)
    expect(await field.evaluate((el) => [el.getAttribute('autocomplete'), el.getAttribute('inputmode'), el.getAttribute('maxlength')])).toEqual([
      'one-time-code',
      'numeric',
      '6',
    ])
    await expect.poll(() => field.evaluate(isFocused)).toBe(true)

    // A wrong code: said in an alert the field is described by; the field empties and keeps focus.
    await page.keyboard.type(code === '000000' ? '111111' : '000000')
    await expect.poll(() => emb.otpError(page).innerText(), { timeout: 15_000 }).toBe('Invalid code')
    expect(await emb.otpError(page).getAttribute('role')).toBe('alert')
    expect(await field.getAttribute('aria-invalid')).toBe('true')
    expect(await field.getAttribute('aria-describedby')).toBe(await emb.otpError(page).getAttribute('id'))
    await expect.poll(() => field.inputValue()).toBe('')
    await expect.poll(() => field.evaluate(isFocused)).toBe(true)
    await page.keyboard.type(code)
    await waitConnected(page, 30_000)

    // A message to sign: the embedded wallet's frame, laid over ApproveTransaction, is reached by
    // Tab (the modal's cycle takes it in), and its Reject works with Enter.
    await activate(page, emb.provider.signMessage(page))
    await emb.approval(page).waitFor({ state: 'visible', timeout: 20_000 })
    // Closing is blocked while a request waits for its approval: Escape leaves it.
    await page.keyboard.press('Escape')
    expect(await ui.dialog(page).getAttribute('data-view')).toBe('ApproveTransaction')
    const reject = emb.rejectButton(page)
    const rejectFocused = () => reject.evaluate((el) => el === document.activeElement).catch(() => false)
    for (let i = 0; i < 12 && !(await rejectFocused()); i++) await page.keyboard.press('Tab')
    expect(await rejectFocused(), "Tab never reached the frame's Reject").toBe(true)
    // The frame arms its buttons once its view has been seen for a moment: Enter until the request is answered.
    await expect
      .poll(
        async () => {
          if (await emb.approval(page).isVisible()) await page.keyboard.press('Enter')
          return emb.provider.requestError(page).innerText()
        },
        { timeout: 15_000, interval: 1_000 },
      )
      .toBe('4001: User rejected the request.')
    await expect.poll(() => page.getByTestId('modal-state').innerText()).toBe('closed')
  })

  it("WalletConnect: the QR code's link as text, copied with the keyboard; a wallet in Node approves it", async () => {
    const page = await t.newPage({ wallet: false })
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(t.demoUrl).origin })
    await page.goto(`${t.demoUrl}?siwx=off`)
    await openByKeyboard(page)
    await activate(page, ui.walletButton(page, 'WalletConnect'))
    const qr = ui.dialog(page).getByTestId('wc-qr')
    await qr.waitFor({ state: 'visible', timeout: 20_000 })
    const uri = await qr.getAttribute('data-uri')
    expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
    expect(await qr.getAttribute('role')).toBe('img')
    // The link as text, named, read-only, reachable by Tab.
    const link = ui.dialog(page).getByRole('textbox', { name: 'WalletConnect link' })
    expect(await link.inputValue()).toBe(uri)
    expect(await link.evaluate((el) => (el as HTMLInputElement).readOnly)).toBe(true)
    await tabTo(page, link)
    // Copy link, with Enter.
    await activate(page, ui.dialog(page).getByRole('button', { name: /copy link/i }))
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(uri)
    await ui
      .dialog(page)
      .getByRole('button', { name: /link copied/i })
      .waitFor()
    // A wallet approves the pairing: connected.
    const w = await startNodeWallet({ relayUrl: `${t.env.apiUrl.replace(/^http/, 'ws')}/relay`, projectId: t.env.projectId, rpcUrl: t.env.rpcUrl })
    nodeWallets.push(w)
    await w.approve(uri ?? '', [31337])
    await waitConnected(page, 20_000)
  })
})
