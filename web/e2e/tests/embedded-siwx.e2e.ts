/**
 * Sign-in (SIWX) with the embedded wallet: the demo with email login and required sign-in
 * (?email=on&siwx=required). The sign-in message goes through the frame's approval like any
 * personal_sign; the server verifies it and keeps the session for the embedded address.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { getAddress, recoverMessageAddress, type Hex } from 'viem'
import type { Page } from 'playwright-core'
import { screenshot } from '../src/browser.js'
import { approveInFrame, emb, freshEmail, FULLY_SHOWN, logIn, rejectInFrame, shown } from '../src/embedded.js'
import { useDemo } from '../src/fixtures.js'
import { ui } from '../src/ui.js'

const t = useDemo({ wallet: false })

const signButton = (page: Page = t.page) => ui.dialog(page).getByRole('button', { name: /^sign$/i })
const shots = () => join(t.env.artifactsDir, 'e2e')

/** The frame's Approve and Reject show in full (inside the frame, the card and the viewport, nothing over them). */
async function expectButtonsShown(page: Page): Promise<void> {
  await expect.poll(() => shown(page, emb.approveButton(page)), { timeout: 10_000 }).toEqual(FULLY_SHOWN)
  expect(await shown(page, emb.rejectButton(page))).toEqual(FULLY_SHOWN)
  // Approve works once its view has been seen, as it is, for a moment (the screenshots show that state).
  await expect.poll(() => emb.approveButton(page).isEnabled(), { timeout: 10_000 }).toBe(true)
}
const siwxStatus = () => t.page.getByTestId('siwx-status').textContent()
const api = (path: string) => `${t.env.apiUrl}${path}?projectId=${t.env.projectId}&st=e2e&sv=0`

async function storedToken(): Promise<string> {
  const raw = await t.page.evaluate(() => localStorage.getItem('@appkit/siwx-auth-token'))
  if (!raw) throw new Error('no sign-in token stored')
  try {
    return JSON.parse(raw) as string
  } catch {
    return raw
  }
}

describe('embedded wallet: sign in with the wallet', () => {
  it('after the email login, the sign-in message is approved in the frame and the server keeps the session for the embedded address', async () => {
    await t.page.goto(`${t.demoUrl}/?email=on&siwx=required`)
    await logIn(t.page, t.env.mailUrl, freshEmail('siwx'))
    const address = getAddress(await t.page.getByTestId('address').innerText())

    // Required sign-in follows the connection; the message goes to the frame's approval.
    await signButton().click()
    await emb.approveView(t.page).waitFor({ state: 'visible', timeout: 15_000 })
    await expect.poll(() => emb.approval(t.page).innerText()).toContain('wants you to sign in with your Ethereum account')
    await expect.poll(() => emb.approval(t.page).innerText()).toContain(address)
    // The frame is as tall as the message needs (it was 290 px, with Approve and Reject below
    // its edge): both buttons show, the message in full, and the network by its name.
    await expectButtonsShown(t.page)
    await expect.poll(() => emb.frameScroll(t.page).getAttribute('data-more')).toBe('false')
    expect(await emb.approval(t.page).innerText()).toContain('Network: Sigil Dev')
    await screenshot(t.page, shots(), 'embedded-siwx-approve')
    // With less room than the message needs (a short window), the frame takes the room there is:
    // the message scrolls inside, fading out at the bottom, and the buttons still show.
    await t.page.setViewportSize({ width: 1280, height: 440 })
    await expect.poll(() => emb.frameScroll(t.page).getAttribute('data-more')).toBe('true')
    await expectButtonsShown(t.page)
    await screenshot(t.page, shots(), 'embedded-siwx-approve-short')
    await emb
      .frameScroll(t.page)
      .locator('.scroll')
      .evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
    await expect.poll(() => emb.frameScroll(t.page).getAttribute('data-more')).toBe('false')
    await t.page.setViewportSize({ width: 1280, height: 900 })
    await expect.poll(() => emb.approveButton(t.page).isEnabled(), { timeout: 10_000 }).toBe(true)
    await approveInFrame(t.page)

    await expect.poll(siwxStatus, { timeout: 15_000 }).toBe('signed-in')
    await ui.dialog(t.page).waitFor({ state: 'hidden' })
    expect(getAddress((await t.page.getByTestId('siwx-address').textContent()) ?? '')).toBe(address)

    const res = await fetch(api('/auth/v1/session'), { headers: { authorization: `Bearer ${await storedToken()}` } })
    expect(res.status).toBe(200)
    const session = (await res.json()) as { message: string; signature: Hex; data: { accountAddress: string; chainId: string } }
    expect(getAddress(session.data.accountAddress)).toBe(address)
    expect(session.data.chainId).toBe('eip155:31337')
    // The embedded key signed it.
    expect(await recoverMessageAddress({ message: session.message, signature: session.signature })).toBe(address)
  })

  it('rejecting the sign-in message in the frame leaves the user signed out, with the reason shown', async () => {
    await t.page.goto(`${t.demoUrl}/?email=on&siwx=required`)
    await logIn(t.page, t.env.mailUrl, freshEmail('siwx-reject'))

    await signButton().click()
    await emb.approveView(t.page).waitFor({ state: 'visible', timeout: 15_000 })
    await rejectInFrame(t.page)

    // Back on the sign-in view, with the wallet's answer; no session.
    await signButton().waitFor({ state: 'visible', timeout: 15_000 })
    await expect.poll(() => ui.dialog(t.page).getByRole('alert').first().innerText()).toContain('User rejected the request.')
    expect(await siwxStatus()).toBe('signed-out')
    expect(await t.page.evaluate(() => localStorage.getItem('@appkit/siwx-auth-token'))).toBeNull()
  })

  it('on a phone the sign-in message and typed data fit the sheet, the buttons show, and the account reads on one line', async () => {
    const phone = await t.newPage({ mobile: true, wallet: false })
    await phone.goto(`${t.demoUrl}/?email=on&siwx=required`)
    await logIn(phone, t.env.mailUrl, freshEmail('siwx-phone'))
    const address = getAddress(await phone.getByTestId('address').innerText())
    await signButton(phone).click()
    await emb.approveView(phone).waitFor({ state: 'visible', timeout: 15_000 })
    await expect.poll(() => emb.approval(phone).innerText()).toContain('wants you to sign in with your Ethereum account')
    await expectButtonsShown(phone)
    // "From" and the address shortened to its ends on one line (it broke mid-string, "55" alone
    // on the next); the full address on hover and in the copy button.
    const account = emb.frame(phone).getByTestId('frame-address')
    expect(await account.locator('.addr').innerText()).toBe(`${address.slice(0, 8)}…${address.slice(-6)}`)
    expect(await account.locator('.addr').getAttribute('title')).toBe(address)
    const lineHeight = await account.evaluate((el) => Number.parseFloat(getComputedStyle(el).lineHeight) || 20)
    expect((await account.boundingBox())?.height).toBeLessThan(lineHeight * 1.9)
    await screenshot(phone, shots(), 'embedded-siwx-approve-phone')
    await expect.poll(() => emb.approveButton(phone).isEnabled(), { timeout: 10_000 }).toBe(true)
    await approveInFrame(phone)
    await expect.poll(() => phone.getByTestId('siwx-status').textContent(), { timeout: 15_000 }).toBe('signed-in')

    // Typed data: the whole of it shows (no box that scrolls unseen), buttons included.
    await ui.provider.signTypedData(phone).click()
    await expect.poll(() => emb.approval(phone).getByRole('heading').innerText(), { timeout: 15_000 }).toMatch(/^Sign \w+ data for /)
    await expectButtonsShown(phone)
    await expect.poll(() => emb.frameScroll(phone).getAttribute('data-more')).toBe('false')
    expect(await emb.frame(phone).getByTestId('frame-approval-body').innerText()).toContain('Hello from the Sigil demo')
    await screenshot(phone, shots(), 'embedded-approve-typed-phone')
    await rejectInFrame(phone)
  })
})
