/**
 * The embedded wallet in the demo page (opened with ?email=on): email login through the modal,
 * device approval and codes read from the mail sink, and the frame's approval UI.
 */
import type { FrameLocator, Locator, Page } from 'playwright-core'
import { expect } from 'vitest'
import { approveDevice, codeOf, DEVICE_LINK, lastMailId, linkOf, LOGIN_CODE, waitForMail } from './mail.js'
import { openModal, ui, waitConnected } from './ui.js'

let counter = 0
/** A fresh address per test run and use: each gets its own 30 s code rule. */
export function freshEmail(name: string): string {
  counter += 1
  return `${name}-${Date.now().toString(36)}-${counter}@example.com`
}

export const emb = {
  emailInput: (page: Page) => ui.dialog(page).getByRole('textbox', { name: /^email$/i }),
  continueButton: (page: Page) => ui.dialog(page).getByRole('button', { name: /^continue$/i }),
  emailError: (page: Page) => ui.dialog(page).getByTestId('email-error'),
  deviceView: (page: Page) => ui.dialog(page).getByTestId('email-verify-device'),
  otpView: (page: Page) => ui.dialog(page).getByTestId('email-verify-otp'),
  otpInputs: (page: Page) => ui.dialog(page).getByTestId('otp-inputs').locator('input'),
  otpError: (page: Page) => ui.dialog(page).getByTestId('otp-error'),
  resend: (page: Page) => ui.dialog(page).getByTestId('otp-resend'),
  approveView: (page: Page) => ui.dialog(page).getByTestId('approve-transaction'),
  accountType: (page: Page) => ui.dialog(page).getByTestId('account-type'),
  /** The embedded EVM account's switch (where it can be a smart account): the pressed button is the type in use. */
  accountTypeInUse: (page: Page) => ui.dialog(page).getByTestId('account-type-switch').locator('[aria-pressed="true"]'),
  accountTypeButton: (page: Page, type: 'eoa' | 'smartAccount') => ui.dialog(page).getByTestId(`account-type-${type}`),
  accountEmail: (page: Page) => ui.dialog(page).getByTestId('account-email'),
  editEmail: (page: Page) => ui.dialog(page).getByTestId('edit-email'),
  /** The modal's banner (error, success). */
  notification: (page: Page) => ui.dialog(page).locator('.toast'),
  frame: (page: Page): FrameLocator => page.frameLocator('iframe[data-sigil-frame]'),
  approveButton: (page: Page) => emb.frame(page).getByRole('button', { name: /^approve$/i }),
  rejectButton: (page: Page) => emb.frame(page).getByRole('button', { name: /^reject$/i }),
  approval: (page: Page) => emb.frame(page).getByTestId('frame-approval'),
  /** The frame's scrolling part (data-more: it has more below what shows, and fades out). */
  frameScroll: (page: Page) => emb.frame(page).getByTestId('frame-scroll'),
  provider: {
    signMessage: (page: Page) => page.getByRole('button', { name: 'Sign message' }),
    messageSignature: (page: Page) => page.getByTestId('message-signature'),
    sendEth: (page: Page) => page.getByRole('button', { name: 'Send 0.01 ETH' }),
    txHash: (page: Page) => page.getByTestId('eth-tx-hash'),
    callEthSign: (page: Page) => page.getByRole('button', { name: 'Call eth_sign' }),
    requestError: (page: Page) => page.getByTestId('provider-request-error'),
  },
}

/**
 * Clicks a button of the frame as a hand does: the pointer comes onto it first. A click sent the
 * moment a frame button was enabled reached nothing in the frame (no pointer, mouse or focus
 * event there) in 10 of 26 runs of the key export's copy button; with the move first, 0 of 10.
 */
export async function pressInFrame(button: Locator, options: { timeout?: number } = {}): Promise<void> {
  await button.hover(options)
  await button.click(options)
}

/**
 * Rejects the request the frame shows. The host moves the frame over its approval view while
 * the modal's view settles, and Playwright's click checks the button's place in the frame, not
 * the frame's on the page: wait until the frame's Approve works (its view has been seen, in
 * place, for a moment: web/packages/frame/src/visibility.ts), as a person would see it.
 */
export async function rejectInFrame(page: Page): Promise<void> {
  await answerInFrame(page, 'reject')
}

/** Approves the request the frame shows, as rejectInFrame rejects it (clicked again while it still shows). */
export async function approveInFrame(page: Page): Promise<void> {
  await answerInFrame(page, 'approve')
}

async function answerInFrame(page: Page, answer: 'approve' | 'reject'): Promise<void> {
  const button = answer === 'approve' ? emb.approveButton : emb.rejectButton
  await emb.approval(page).waitFor({ state: 'visible' })
  await expect.poll(() => emb.approveButton(page).isEnabled(), { timeout: 10_000 }).toBe(true)
  // A click sent the moment the view arms is now and then delivered to neither document (seen
  // with the host page scrolled, the frame laid over the modal): pressed as every frame button
  // is (the pointer on it first), and again while the request still shows, as a person would.
  await expect
    .poll(
      async () => {
        if (await emb.approval(page).isVisible()) await pressInFrame(button(page), { timeout: 2_000 }).catch(() => undefined)
        return emb.approval(page).isVisible()
      },
      { timeout: 15_000, interval: 1_000 },
    )
    .toBe(false)
}

/** Where an element of the frame shows: in full inside the frame, the modal's card and the viewport, and not covered. */
export interface Shown {
  inFrame: boolean
  inCard: boolean
  inViewport: boolean
  onTop: boolean
}
export const FULLY_SHOWN: Shown = { inFrame: true, inCard: true, inViewport: true, onTop: true }

/**
 * Whether `target` (an element of the frame) shows in full, as a person would see it: its box
 * inside the frame's, the modal card's and the viewport's, and itself the topmost element at its
 * centre within the frame (neither the fade nor anything else over it).
 */
export async function shown(page: Page, target: Locator): Promise<Shown> {
  const [box, frame, card] = await Promise.all([target.boundingBox(), page.locator('iframe[data-sigil-frame]').boundingBox(), ui.dialog(page).boundingBox()])
  const viewport = page.viewportSize()
  const within = (outer: { x: number; y: number; width: number; height: number } | null | undefined) =>
    Boolean(
      box &&
        outer &&
        box.x >= outer.x - 0.5 &&
        box.y >= outer.y - 0.5 &&
        box.x + box.width <= outer.x + outer.width + 0.5 &&
        box.y + box.height <= outer.y + outer.height + 0.5,
    )
  const onTop = await target.evaluate((el) => {
    const r = el.getBoundingClientRect()
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
    return hit !== null && (hit === el || el.contains(hit))
  })
  return { inFrame: within(frame), inCard: within(card), inViewport: within(viewport && { x: 0, y: 0, ...viewport }), onTop }
}

/** Types the code into the code field, one key at a time. */
export async function typeCode(page: Page, code: string): Promise<void> {
  await emb.otpInputs(page).first().click()
  await page.keyboard.type(code)
}

/** Pastes the code into the code field (a paste event with the text, as a clipboard gives it). */
export async function pasteCode(page: Page, code: string): Promise<void> {
  await emb
    .otpInputs(page)
    .first()
    .evaluate((input, text) => {
      const data = new DataTransfer()
      data.setData('text/plain', text)
      input.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
    }, code)
}

/** Submits the email on the Connect view. */
export async function submitEmail(page: Page, email: string): Promise<void> {
  await emb.emailInput(page).fill(email)
  await emb.continueButton(page).click()
}

/**
 * Logs in from the Connect view as a new device: the approval link from the mail sink is
 * opened, then the emailed code entered. Resolves once the page reports the connection.
 */
export async function logIn(page: Page, mailUrl: string, email: string, options: { knownDevice?: boolean } = {}): Promise<void> {
  const before = await lastMailId(mailUrl, email)
  await openModal(page)
  await submitEmail(page, email)
  if (!options.knownDevice) {
    await emb.deviceView(page).waitFor({ state: 'visible', timeout: 30_000 })
    await approveDevice(linkOf(await waitForMail(mailUrl, email, DEVICE_LINK, before)))
  }
  await emb.otpView(page).waitFor({ state: 'visible', timeout: 30_000 })
  const code = codeOf(await waitForMail(mailUrl, email, LOGIN_CODE, before))
  await typeCode(page, code)
  await waitConnected(page, 30_000)
}
