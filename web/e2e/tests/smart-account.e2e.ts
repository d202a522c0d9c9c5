/**
 * Issue 26, end to end: EIP-5792 batches from the demo's calls card (the host app's
 * useSendCalls/useCallsStatus/useCapabilities). The embedded wallet sends approve + transfer as
 * one transaction from its own address, delegated to the dev chain's Simple7702Account
 * (EIP-7702) on that first batch, after one approval in the frame that lists both calls; its EOA
 * preference sends them one by one. The injected test wallet, which has no EIP-5792 batches,
 * gets them one by one under one id, and atomicity required there is refused (5760).
 */
import { join } from 'node:path'
import { getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { screenshot } from '../src/browser.js'
import { accounts, rpc, tokenBalance, transferToken } from '../src/chain.js'
import { approveInFrame, emb, FULLY_SHOWN, freshEmail, logIn, shown } from '../src/embedded.js'
import { useDemo } from '../src/fixtures.js'
import { connectTestWallet, openModal, ui } from '../src/ui.js'

const t = useDemo({ wallet: false })
const shots = () => join(t.env.artifactsDir, 'e2e')
/** The calls card's recipient (the demo's config.sglRecipient: anvil's account 1). */
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const ONE_SGL = 10n ** 18n

const calls = {
  send: (page: Page) => page.getByRole('button', { name: 'Approve + transfer 1 SGL' }),
  sendAtomic: (page: Page) => page.getByRole('button', { name: '…all or nothing' }),
  atomic: (page: Page) => page.getByTestId('calls-atomic'),
  id: (page: Page) => page.getByTestId('calls-id'),
  status: (page: Page) => page.getByTestId('calls-status'),
  receipts: (page: Page) => page.getByTestId('calls-receipts'),
  error: (page: Page) => page.getByTestId('calls-error'),
}
const sgl = () => {
  const found = t.env.devchain.tokens.find((x) => x.symbol === 'SGL')
  if (!found) throw new Error('the dev deployment has no SGL')
  return found.address
}
const implementation = () => {
  const found = (t.env.devchain as { smartAccount?: { implementation?: string } }).smartAccount?.implementation
  if (!found) throw new Error('the dev deployment has no smart-account implementation')
  return found
}
const code = (address: string) => rpc<string>(t.env.rpcUrl, 'eth_getCode', [address, 'latest'])
const allowance = async (owner: string) =>
  BigInt(
    await rpc<string>(t.env.rpcUrl, 'eth_call', [
      { to: sgl(), data: `0xdd62ed3e${owner.slice(2).toLowerCase().padStart(64, '0')}${RECIPIENT.slice(2).toLowerCase().padStart(64, '0')}` },
      'latest',
    ]),
  )

describe('smart accounts: EIP-5792 batches', () => {
  it('the embedded wallet sends approve + transfer as one transaction from its own address, delegated to Simple7702Account on the way; its EOA preference sends them one by one', async () => {
    await t.page.goto(`${t.demoUrl}/?email=on`)
    await logIn(t.page, t.env.mailUrl, freshEmail('erin'))
    const address = getAddress(await t.page.getByTestId('address').innerText())
    const [deployer] = await accounts(t.env.rpcUrl)
    await rpc(t.env.rpcUrl, 'anvil_setBalance', [address, '0xde0b6b3a7640000'])
    await transferToken(t.env.rpcUrl, sgl(), deployer, address, 10n * ONE_SGL)
    expect(await code(address)).toBe('0x')
    await expect.poll(() => calls.atomic(t.page).innerText(), { timeout: 15_000 }).toBe('ready')
    const before = await tokenBalance(t.env.rpcUrl, sgl(), RECIPIENT)

    // One approval in the frame, listing both calls decoded.
    await calls.send(t.page).click()
    await emb.approveView(t.page).waitFor({ state: 'visible' })
    await expect.poll(() => emb.approval(t.page).getByRole('heading').innerText()).toBe('Approve 2 calls')
    const listed = await emb.approval(t.page).innerText()
    expect(listed).toContain('Call 1: allow spending 1 SGL by')
    expect(listed).toContain('Call 2: transfer 1 SGL to')
    await expect.poll(() => shown(t.page, emb.approveButton(t.page)), { timeout: 10_000 }).toEqual(FULLY_SHOWN)
    await screenshot(t.page, shots(), 'smart-account-approve-batch')
    await approveInFrame(t.page)
    await expect.poll(() => calls.status(t.page).innerText(), { timeout: 30_000 }).toBe('200')
    expect(await calls.receipts(t.page).innerText()).toBe('1')
    // The account's code is the delegation designator; the address never changed.
    expect((await code(address)).toLowerCase()).toBe(`0xef0100${implementation().slice(2).toLowerCase()}`)
    expect(getAddress(await t.page.getByTestId('address').innerText())).toBe(address)
    expect(await tokenBalance(t.env.rpcUrl, sgl(), RECIPIENT)).toBe(before + ONE_SGL)
    expect(await allowance(address)).toBe(ONE_SGL)
    // The wallet now says its batches are atomic, no longer just ready to be.
    await expect.poll(() => calls.atomic(t.page).innerText(), { timeout: 15_000 }).toBe('supported')

    // The Account view: the switch says the smart account; EOA keeps the address.
    await openModal(t.page)
    await expect.poll(() => emb.accountTypeInUse(t.page).innerText()).toBe('Smart account')
    await screenshot(t.page, shots(), 'smart-account-switch')
    await emb.accountTypeButton(t.page, 'eoa').click()
    await expect.poll(() => emb.accountTypeInUse(t.page).innerText()).toBe('EOA')
    expect(getAddress((await ui.dialog(t.page).getByTestId('account-address').getAttribute('title')) ?? '')).toBe(address)
    await t.page.keyboard.press('Escape')
    await expect.poll(() => t.page.getByTestId('modal-state').innerText()).toBe('closed')

    // As the EOA the wallet says it has no atomic batches: all-or-nothing is refused before
    // anything is asked of the user...
    await calls.sendAtomic(t.page).click()
    await expect.poll(() => calls.error(t.page).innerText(), { timeout: 30_000 }).toMatch(/^5760: /)
    expect(await emb.approveView(t.page).isVisible()).toBe(false)
    // ...and the calls one by one, each a transaction the user approves: two transactions, one id.
    await calls.send(t.page).click()
    const approvals = new Set<string>()
    await expect
      .poll(
        async () => {
          if (await emb.approval(t.page).isVisible()) {
            approvals.add(await emb.approval(t.page).getByRole('heading').innerText())
            await emb
              .approveButton(t.page)
              .click({ timeout: 2_000 })
              .catch(() => undefined)
          }
          return calls.status(t.page).innerText()
        },
        { timeout: 45_000, interval: 1_000 },
      )
      .toBe('200')
    expect([...approvals].every((heading) => /^Send 0 ETH to 0x/.test(heading))).toBe(true)
    expect(await calls.receipts(t.page).innerText()).toBe('2')
    expect(await tokenBalance(t.env.rpcUrl, sgl(), RECIPIENT)).toBe(before + 2n * ONE_SGL)
  })

  it('the injected wallet without EIP-5792 batches: the calls one by one under one id; all-or-nothing is refused (5760)', async () => {
    const INDEX = 6
    const me = (await accounts(t.env.rpcUrl))[INDEX] as string
    const [deployer] = await accounts(t.env.rpcUrl)
    await rpc(t.env.rpcUrl, 'anvil_setBalance', [me, '0xde0b6b3a7640000'])
    await transferToken(t.env.rpcUrl, sgl(), deployer, me, 10n * ONE_SGL)
    const page = await t.newPage({ wallet: { accountIndex: INDEX } })
    await page.goto(`${t.demoUrl}?siwx=off`)
    await connectTestWallet(page)
    await page.keyboard.press('Escape')
    await expect.poll(() => calls.atomic(page).innerText(), { timeout: 15_000 }).toBe('unsupported')
    const before = await tokenBalance(t.env.rpcUrl, sgl(), RECIPIENT)
    await calls.sendAtomic(page).click()
    await expect.poll(() => calls.error(page).innerText(), { timeout: 15_000 }).toMatch(/^5760: /)
    await calls.send(page).click()
    await expect.poll(() => calls.status(page).innerText(), { timeout: 30_000 }).toBe('200')
    expect(await calls.receipts(page).innerText()).toBe('2')
    expect(await calls.id(page).innerText()).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await tokenBalance(t.env.rpcUrl, sgl(), RECIPIENT)).toBe(before + ONE_SGL)
    expect(await code(me)).toBe('0x')
    await screenshot(page, shots(), 'smart-account-injected-calls')
  })
})
