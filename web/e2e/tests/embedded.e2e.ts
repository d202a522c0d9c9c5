/**
 * The embedded wallet end to end: the demo page (?email=on), the modal's email views, the
 * secure frame on the Sigil server's frame origin, the server's wallet service, a real SMTP sink
 * that receives the codes and device links, and anvil. Signatures are checked by recovering the
 * signer in Node; balances come from anvil.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { getAddress, recoverMessageAddress, recoverTypedDataAddress, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { DEMO_MESSAGE, greetingTypedData } from '../../apps/demo/src/contracts.js'
import { screenshot } from '../src/browser.js'
import { accounts, nativeBalance, rpc, tokenBalance, transferToken } from '../src/chain.js'
import { approveInFrame, emb, freshEmail, FULLY_SHOWN, logIn, pasteCode, pressInFrame, rejectInFrame, shown, submitEmail, typeCode } from '../src/embedded.js'
import { useDemo } from '../src/fixtures.js'
import { approveDevice, CONFIRM_CODE, codeOf, DEVICE_LINK, lastMailId, linkOf, LOGIN_CODE, waitForMail } from '../src/mail.js'
import { openModal, ui, waitConnected } from '../src/ui.js'

const t = useDemo({ wallet: false })

const open = async () => {
  await t.page.goto(`${t.demoUrl}/?email=on`)
}
/** The connected embedded account's address, as the demo page shows it. */
const address = async () => getAddress(await t.page.getByTestId('address').innerText())

describe('embedded wallet: email login', () => {
  it('logs in a new device: approval link from the mail, then the 6-digit code; the Account view shows the embedded account (a smart account on the dev chain)', async () => {
    await open()
    const email = freshEmail('alice')
    await openModal(t.page)
    // The email field comes first (connect methods: email, social, wallet).
    await expect.poll(() => emb.emailInput(t.page).isEnabled()).toBe(true)
    // A malformed address is refused in the modal with a clear message.
    await submitEmail(t.page, 'not-an-email')
    await expect.poll(() => emb.emailError(t.page).innerText()).toBe('Enter a valid email address')

    const before = await lastMailId(t.env.mailUrl, email)
    // While the device waits for its approval the frame asks every 2 s: each answer is a normal
    // one (200 VERIFY_DEVICE), so nothing fails and nothing red shows in the console.
    const deviceAsks: number[] = []
    const consoleErrors: string[] = []
    t.page.on('response', (response) => {
      if (response.url().endsWith('/wallet/v1/connect-device')) deviceAsks.push(response.status())
    })
    t.page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text())
    })
    await submitEmail(t.page, email)
    await emb.deviceView(t.page).waitFor({ state: 'visible', timeout: 30_000 })
    const deviceMail = await waitForMail(t.env.mailUrl, email, DEVICE_LINK, before)
    await expect.poll(() => deviceAsks.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2)
    expect(deviceAsks.every((status) => status === 200)).toBe(true)
    expect(consoleErrors).toEqual([])
    // The link (as the user would open it, from their mailbox) shows which device asks, and
    // approves it with its button, not by being opened.
    expect(deviceMail.text).toMatch(/from a new device: (Chrome|Chromium) on Linux, \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\./)
    const approval = await t.context.newPage()
    await approval.goto(linkOf(deviceMail))
    await expect.poll(() => approval.locator('#device').innerText()).toMatch(/^(Chrome|Chromium) on Linux, \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/)
    // Styled like the modal (it was one line of serif text): a card with the blue button, on a
    // desktop and within a phone's width.
    const approve = approval.getByRole('button', { name: 'Approve this device' })
    expect(await approve.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(59, 108, 246)')
    expect(await approval.locator('main').evaluate((m) => getComputedStyle(m).borderRadius)).toBe('24px')
    await screenshot(approval, join(t.env.artifactsDir, 'e2e'), 'embedded-approve-device')
    await approval.setViewportSize({ width: 390, height: 844 })
    expect(await approval.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await screenshot(approval, join(t.env.artifactsDir, 'e2e'), 'embedded-approve-device-phone')
    expect(await emb.deviceView(t.page).isVisible()).toBe(true)
    await approval.getByRole('button', { name: 'Approve this device' }).click()
    await expect.poll(() => approval.locator('body').innerText()).toContain('This device is approved')
    await approval.close()
    // The device view notices and moves on to the code.
    await emb.otpView(t.page).waitFor({ state: 'visible', timeout: 30_000 })
    expect(deviceAsks.every((status) => status === 200)).toBe(true)
    expect(consoleErrors).toEqual([])
    // The code is one field (one name, the one-time-code autofill), drawn as six boxes.
    expect(await emb.otpInputs(t.page).count()).toBe(1)
    expect(await emb.otpInputs(t.page).getAttribute('autocomplete')).toBe('one-time-code')
    const codeMail = await waitForMail(t.env.mailUrl, email, LOGIN_CODE, deviceMail.id)
    const code = codeOf(codeMail)
    // The resend countdown is live: it shows seconds left and counts down.
    const resendText = await emb.resend(t.page).innerText()
    const first = Number(/in (\d+)s/.exec(resendText)?.[1])
    expect(first).toBeGreaterThan(20)
    expect(first).toBeLessThanOrEqual(30)
    expect(await emb.resend(t.page).isDisabled()).toBe(true)
    await expect.poll(async () => Number(/in (\d+)s/.exec(await emb.resend(t.page).innerText())?.[1]), { timeout: 5000 }).toBeLessThan(first)

    // A wrong code is refused and the inputs clear; the right one, pasted, connects.
    const wrong = code === '000000' ? '111111' : '000000'
    await typeCode(t.page, wrong)
    await expect.poll(() => emb.otpError(t.page).innerText()).toBe('Invalid code')
    await pasteCode(t.page, code)
    await waitConnected(t.page, 30_000)
    const addr = await address()
    expect(addr).toMatch(/^0x[0-9a-fA-F]{40}$/)

    await openModal(t.page)
    // The dev chain has a smart-account implementation: the spec's default type, at the same address.
    await expect.poll(() => emb.accountTypeInUse(t.page).innerText()).toBe('Smart account')
    expect(await emb.accountEmail(t.page).innerText()).toBe(`Signed in as ${email}`)
    expect(getAddress((await ui.dialog(t.page).getByTestId('account-address').getAttribute('title')) ?? '')).toBe(addr)
    // The login cache (spec section 4): the flag and the email, and no token, in the host's storage.
    const stored = await t.page.evaluate(() => ({ flag: localStorage.getItem('@appkit/email_login'), email: localStorage.getItem('@appkit/email') }))
    expect(stored).toEqual({ flag: 'true', email })
    await screenshot(t.page, join(t.env.artifactsDir, 'e2e'), 'embedded-account')
  })

  it('keeps 30 s between codes (modal and server), and burns a code after 5 wrong tries', async () => {
    await open()
    const email = freshEmail('bob')
    const before = await lastMailId(t.env.mailUrl, email)
    await openModal(t.page)
    await submitEmail(t.page, email)
    await emb.deviceView(t.page).waitFor({ state: 'visible', timeout: 30_000 })
    const deviceMail = await waitForMail(t.env.mailUrl, email, DEVICE_LINK, before)
    await approveDevice(linkOf(deviceMail))
    await emb.otpView(t.page).waitFor({ state: 'visible', timeout: 30_000 })
    const code = codeOf(await waitForMail(t.env.mailUrl, email, LOGIN_CODE, deviceMail.id))
    const wrong = code === '000000' ? '111111' : '000000'
    for (let i = 0; i < 5; i++) {
      await typeCode(t.page, wrong)
      // each failure clears the inputs (they held the typed digits until the server answered)
      await expect.poll(() => emb.otpInputs(t.page).first().inputValue()).toBe('')
      await expect.poll(() => emb.otpInputs(t.page).first().isEnabled()).toBe(true)
      expect(await emb.otpError(t.page).innerText()).toBe('Invalid code')
    }
    await typeCode(t.page, code)
    await expect.poll(() => emb.otpError(t.page).innerText()).toBe('The code has expired or was tried too often: ask for a new one')
    expect(await ui.status(t.page).innerText()).toBe('disconnected')

    // Asking for another code within 30 s: 'Please try again after {n} seconds', in the modal...
    await ui.backButton(t.page).click()
    await submitEmail(t.page, email)
    await expect.poll(() => emb.emailError(t.page).innerText()).toMatch(/^Please try again after ([1-9]|[12]\d|30) seconds$/)
    // ...and on the server, for this same (approved) device asking directly.
    const frame = t.page.frames().find((f) => f.url().startsWith(t.env.frameUrl))
    const deviceSecret = await frame?.evaluate(() => localStorage.getItem('sigil-frame:device-secret'))
    expect(deviceSecret).toMatch(/^[0-9a-f]{64}$/)
    const res = await fetch(`${t.env.frameUrl}/wallet/v1/connect-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, deviceSecret }),
    })
    expect(res.status).toBe(429)
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^Please try again after ([1-9]|[12]\d|30) seconds$/)
  })
})

describe('embedded wallet: requests', () => {
  it('personal_sign and typed data after approval in the frame (signatures recover to the account); a rejection is 4001; eth_sign is not allowed', async () => {
    await open()
    await logIn(t.page, t.env.mailUrl, freshEmail('carol'))
    const addr = await address()

    // personal_sign: the approval view shows the frame, which says what is signed, in words.
    await emb.provider.signMessage(t.page).click()
    await emb.approveView(t.page).waitFor({ state: 'visible' })
    await expect.poll(() => emb.frame(t.page).getByTestId('frame-approval-body').innerText()).toBe(DEMO_MESSAGE)
    expect(await emb.approval(t.page).getByRole('heading').innerText()).toBe('Sign this message')
    // closing is blocked while the request waits
    expect(await ui.closeButton(t.page).count()).toBe(0)
    await screenshot(t.page, join(t.env.artifactsDir, 'e2e'), 'embedded-approve-message')
    await approveInFrame(t.page)
    await expect.poll(() => emb.provider.messageSignature(t.page).innerText(), { timeout: 20_000 }).toMatch(/^0x[0-9a-f]{130}$/i)
    const signature = (await emb.provider.messageSignature(t.page).innerText()) as Hex
    expect(await recoverMessageAddress({ message: DEMO_MESSAGE, signature })).toBe(addr)
    // the modal it opened for the approval closes again
    await expect.poll(() => t.page.getByTestId('modal-state').innerText()).toBe('closed')

    // eth_signTypedData_v4 through viem: the frame names the type and domain; it is as tall as
    // all of it needs (the buttons were cut in half at 290 px), the network by its name.
    await ui.provider.signTypedData(t.page).click()
    await expect.poll(() => emb.approval(t.page).getByRole('heading').innerText()).toMatch(/^Sign \w+ data for /)
    await expect.poll(() => shown(t.page, emb.approveButton(t.page)), { timeout: 10_000 }).toEqual(FULLY_SHOWN)
    expect(await shown(t.page, emb.rejectButton(t.page))).toEqual(FULLY_SHOWN)
    expect(await emb.frameScroll(t.page).getAttribute('data-more')).toBe('false')
    expect(await emb.approval(t.page).innerText()).toContain('Network: Sigil Dev')
    await screenshot(t.page, join(t.env.artifactsDir, 'e2e'), 'embedded-approve-typed')
    await approveInFrame(t.page)
    await expect.poll(() => ui.provider.signature(t.page).innerText(), { timeout: 20_000 }).toMatch(/^0x[0-9a-f]{130}$/i)
    const typed = greetingTypedData(addr as `0x${string}`, 31337)
    expect(await recoverTypedDataAddress({ ...typed, signature: (await ui.provider.signature(t.page).innerText()) as Hex })).toBe(addr)

    // Rejected in the frame: 4001 'User rejected the request.'
    await emb.provider.signMessage(t.page).click()
    await rejectInFrame(t.page)
    await expect.poll(() => emb.provider.requestError(t.page).innerText()).toBe('4001: User rejected the request.')
    await expect.poll(() => t.page.getByTestId('modal-state').innerText()).toBe('closed')

    // Not allowed: the modal opens and shows the error; the request is rejected.
    await emb.provider.callEthSign(t.page).click()
    await expect.poll(() => emb.provider.requestError(t.page).innerText()).toBe('4200: Requested RPC call is not allowed')
    await expect.poll(() => t.page.getByTestId('modal-state').innerText()).toBe('open')
    await expect.poll(() => emb.notification(t.page).innerText(), { timeout: 5000 }).toBe('Requested RPC call is not allowed')
  })

  it('sends ETH after approval (the recipient gets exactly 0.01 ETH), and 1 SGL with wagmi through the embedded wallet', async () => {
    await open()
    await logIn(t.page, t.env.mailUrl, freshEmail('dave'))
    const addr = await address()
    const [account0, account1] = await accounts(t.env.rpcUrl)
    // Fund the new wallet from the dev chain: 1 ETH and 5 SGL.
    await rpc(t.env.rpcUrl, 'anvil_setBalance', [addr, '0xde0b6b3a7640000'])
    const sgl = t.env.devchain.tokens.find((tk) => tk.symbol === 'SGL')?.address ?? ''
    await transferToken(t.env.rpcUrl, sgl, account0, addr, 5n * 10n ** 18n)

    const recipientBefore = await nativeBalance(t.env.rpcUrl, account1)
    await emb.provider.sendEth(t.page).click()
    await expect.poll(() => emb.approval(t.page).getByRole('heading').innerText()).toBe(`Send 0.01 ETH to ${getAddress(account1)}`)
    await approveInFrame(t.page)
    await expect.poll(() => emb.provider.txHash(t.page).innerText(), { timeout: 30_000 }).toMatch(/^0x[0-9a-f]{64}$/i)
    const hash = await emb.provider.txHash(t.page).innerText()
    await expect
      .poll(async () => (await rpc<{ status: string } | null>(t.env.rpcUrl, 'eth_getTransactionReceipt', [hash]))?.status, { timeout: 20_000 })
      .toBe('0x1')
    expect(await nativeBalance(t.env.rpcUrl, account1)).toBe(recipientBefore + 10n ** 16n)
    expect(await nativeBalance(t.env.rpcUrl, addr)).toBeLessThan(10n ** 18n - 10n ** 16n)

    // wagmi's useWriteContract, over the provider useAppKitProvider gives: approve, mined, balances move by 1 SGL.
    const sglBefore = await tokenBalance(t.env.rpcUrl, sgl, account1)
    await expect.poll(() => ui.wagmi.status(t.page).innerText()).toBe('connected')
    expect(await ui.wagmi.address(t.page).innerText()).toBe(addr)
    await ui.wagmi.sendSgl(t.page).click()
    await approveInFrame(t.page)
    await expect.poll(() => ui.wagmi.txStatus(t.page).innerText(), { timeout: 30_000 }).toBe('success')
    expect(await tokenBalance(t.env.rpcUrl, sgl, account1)).toBe(sglBefore + 10n ** 18n)
    expect(await tokenBalance(t.env.rpcUrl, sgl, addr)).toBe(4n * 10n ** 18n)
  })
})

describe('embedded wallet: session', () => {
  it('a reload keeps the session; the email changes with a code to each address; sign out ends it', async () => {
    await open()
    const email = freshEmail('erin')
    await logIn(t.page, t.env.mailUrl, email)
    const addr = await address()
    const mailsBefore = await lastMailId(t.env.mailUrl, email)

    await t.page.reload()
    await waitConnected(t.page, 30_000)
    expect(await address()).toBe(addr)
    // no new mail was needed to come back
    expect(await lastMailId(t.env.mailUrl, email)).toBe(mailsBefore)

    // Update email: the field starts with the current address; a code to it, then one to the new.
    const newEmail = freshEmail('erin-new')
    await openModal(t.page)
    await emb.editEmail(t.page).click()
    const field = ui.dialog(t.page).getByRole('textbox', { name: 'New email address' })
    await expect.poll(() => field.inputValue()).toBe(email)
    await field.fill(newEmail)
    await ui.dialog(t.page).getByRole('button', { name: 'Save' }).click()
    const primary = await waitForMail(t.env.mailUrl, email, CONFIRM_CODE, mailsBefore)
    await expect.poll(() => ui.dialog(t.page).getByTestId('update-email-step').getAttribute('data-step')).toBe('primary')
    // Each code step can send its code again, after the spec's 30 s, counting down.
    const resend = ui.dialog(t.page).getByTestId('update-email-resend')
    await expect.poll(() => resend.innerText()).toMatch(/^Resend code in ([12]\d|30)s$/)
    expect(await resend.isDisabled()).toBe(true)
    await screenshot(t.page, join(t.env.artifactsDir, 'e2e'), 'embedded-update-email-code')
    await typeCode(t.page, codeOf(primary))
    const firstSecondary = await waitForMail(t.env.mailUrl, newEmail, CONFIRM_CODE)
    await expect.poll(() => ui.dialog(t.page).getByTestId('update-email-step').getAttribute('data-step')).toBe('secondary')
    // The new address's code again (once the 30 s ran): a new mail there, and that code works.
    await expect.poll(() => resend.isEnabled(), { timeout: 40_000, interval: 500 }).toBe(true)
    await resend.click()
    const secondary = await waitForMail(t.env.mailUrl, newEmail, CONFIRM_CODE, firstSecondary.id)
    expect(await ui.dialog(t.page).getByTestId('update-email-step').getAttribute('data-step')).toBe('secondary')
    await typeCode(t.page, codeOf(secondary))
    await expect.poll(() => emb.accountEmail(t.page).innerText(), { timeout: 10_000 }).toBe(`Signed in as ${newEmail}`)

    // Sign out from the Account view: disconnected, and a reload stays so.
    await ui.disconnectButton(t.page).click()
    await expect.poll(() => ui.status(t.page).innerText()).toBe('disconnected')
    const cache = await t.page.evaluate(() => [localStorage.getItem('@appkit/email_login'), localStorage.getItem('@appkit/email')])
    expect(cache).toEqual([null, null])
    await t.page.reload()
    await ui.connectButton(t.page).waitFor({ state: 'visible' })
    expect(await ui.status(t.page).innerText()).toBe('disconnected')

    // The same wallet under the new address (devices are approved per address: a link first again).
    await logIn(t.page, t.env.mailUrl, newEmail)
    expect(await address()).toBe(addr)
  })

  it('exports the private keys inside the frame only, after a fresh email code; the key is the account', async () => {
    await open()
    const email = freshEmail('heidi')
    await logIn(t.page, t.env.mailUrl, email)
    const addr = await address()
    const before = await lastMailId(t.env.mailUrl, email)
    await openModal(t.page)
    await ui.dialog(t.page).getByTestId('export-key-button').click()
    const exporting = emb.frame(t.page).getByTestId('frame-export')
    await exporting.getByRole('button', { name: 'Email me a code' }).click()
    const mail = await waitForMail(t.env.mailUrl, email, /^\d{6} confirms exporting your private key$/, before)
    // The code field's placeholder fits it (it read "Enter the code we e…"); the sentence is above.
    const codeField = exporting.getByRole('textbox', { name: 'Code' })
    await expect.poll(() => exporting.innerText()).toContain('Enter the code we emailed you')
    const placeholder = await codeField.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input)
      const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D
      context.font = style.font
      return {
        text: input.placeholder,
        width: context.measureText(input.placeholder).width,
        room: input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight),
      }
    })
    expect(placeholder.width, placeholder.text).toBeLessThanOrEqual(placeholder.room)
    await screenshot(t.page, join(t.env.artifactsDir, 'e2e'), 'embedded-export-code')
    await codeField.fill(codeOf(mail))
    await exporting.getByRole('button', { name: 'Show keys' }).click()
    const key = (await emb.frame(t.page).getByTestId('export-eip155').innerText()).trim()
    expect(key).toMatch(/^0x[0-9a-f]{64}$/)
    // Both keys and Done show in full (Done was cut off); each key has its copy button, which
    // copies it inside the frame.
    await expect.poll(() => shown(t.page, emb.frame(t.page).getByRole('button', { name: 'Done' })), { timeout: 10_000 }).toEqual(FULLY_SHOWN)
    await screenshot(t.page, join(t.env.artifactsDir, 'e2e'), 'embedded-export-keys')
    // The test reads the clipboard from the page, as a paste would (the frame may only write it).
    await t.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.env.frameUrl })
    await t.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(t.demoUrl).origin })
    const clipboard = () => t.page.evaluate(() => navigator.clipboard.readText())
    const copyEvm = emb.frame(t.page).getByTestId('export-eip155-copy')
    expect(await copyEvm.getAttribute('aria-label')).toBe('Copy the EVM private key')
    await expect.poll(() => copyEvm.isEnabled(), { timeout: 10_000 }).toBe(true)
    await pressInFrame(copyEvm)
    await expect.poll(() => copyEvm.getAttribute('data-copied')).toBe('true')
    expect(await clipboard()).toBe(key)
    const solana = (await emb.frame(t.page).getByTestId('export-solana').innerText()).trim()
    await emb.frame(t.page).getByTestId('export-solana-copy').click()
    await expect.poll(clipboard).toBe(solana)
    expect(privateKeyToAccount(key as Hex).address).toBe(addr)
    // The host page has it nowhere: not in its document, not in the modal's shadow root.
    const host = await t.page.evaluate(() => document.documentElement.outerHTML + (document.querySelector('sigil-modal')?.shadowRoot?.innerHTML ?? ''))
    expect(host.toLowerCase()).not.toContain(key.slice(2).toLowerCase())
    await emb.frame(t.page).getByRole('button', { name: 'Done' }).click()
    await expect.poll(() => ui.dialog(t.page).getAttribute('data-view')).toBe('Account')
  })
})
