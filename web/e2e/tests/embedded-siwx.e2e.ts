/**
 * Sign-in (SIWX) with the embedded wallet: the demo with email login and required sign-in
 * (?email=on&siwx=required). The sign-in message goes through the frame's approval like any
 * personal_sign; the server verifies it and keeps the session for the embedded address.
 */
import { describe, expect, it } from 'vitest'
import { getAddress, recoverMessageAddress, type Hex } from 'viem'
import { emb, freshEmail, logIn, rejectInFrame } from '../src/embedded.js'
import { useDemo } from '../src/fixtures.js'
import { ui } from '../src/ui.js'

const t = useDemo({ wallet: false })

const signButton = () => ui.dialog(t.page).getByRole('button', { name: /^sign$/i })
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
    await emb.approveButton(t.page).click()

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
})
