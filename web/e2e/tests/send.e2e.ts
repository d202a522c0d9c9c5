/**
 * Sending from the modal, end to end on anvil: the Account view's send form with the injected
 * test wallet (what is refused before the wallet is asked, and with which words; a send and its
 * sent state with the transaction on the explorer; a chain's refusal in the spec's words), and the
 * embedded wallet's send refused by the chain for want of funds, said in the modal. Solana's side
 * is in solana.e2e.ts.
 */
import { join } from 'node:path'
import { formatEther, getAddress, type Hex } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { screenshot, wallet } from '../src/browser.js'
import { accounts, floor3, nativeBalance, rpc } from '../src/chain.js'
import { emb, freshEmail, logIn } from '../src/embedded.js'
import { useDemo } from '../src/fixtures.js'
import { connectTestWallet, shortAddress, ui } from '../src/ui.js'

const t = useDemo()
const shots = () => join(t.env.artifactsDir, 'e2e')
/** A block explorer for the local chains (Otterscan's usual place): the demo's ?explorer=. */
const EXPLORER = 'http://127.0.0.1:5100'
const SOLANA_ADDRESS = 'So11111111111111111111111111111111111111112'
const ETHER = 10n ** 18n

/** The demo with the test wallet holding anvil's account `index`, connected, the Account view's send form open. */
async function sendForm(page: Page) {
  await page.goto(`${t.demoUrl}?siwx=off&explorer=${encodeURIComponent(EXPLORER)}`)
  await connectTestWallet(page)
  await ui.accountButton(page).click()
  await ui.tokenRow(page, 'ETH').waitFor({ timeout: 15_000 })
  const dialog = ui.dialog(page)
  await dialog.getByRole('button', { name: 'Send', exact: true }).click()
  const form = dialog.getByRole('form', { name: 'Send tokens' })
  const fill = async (token: string, amount: string, to: string) => {
    await form.getByLabel('Token').selectOption({ value: token })
    await form.getByLabel('Amount').fill(amount)
    await form.getByLabel('Receiver address').fill(to)
    await form.getByRole('button', { name: 'Send', exact: true }).click()
  }
  return { form, fill, error: () => form.getByTestId('send-error').innerText() }
}

const sentTransactions = async (page: Page) => (await wallet(page, 'log')).filter((r) => r.method === 'eth_sendTransaction')

describe('send from the Account view (EVM, injected wallet)', () => {
  it('refuses more than the balance, the whole balance without the fee, and an address of another family, before the wallet is asked', async () => {
    const [, receiver, , , , , sender] = await accounts(t.env.rpcUrl)
    await rpc(t.env.rpcUrl, 'anvil_setBalance', [sender, `0x${(100n * ETHER).toString(16)}`])
    for (const mobile of [false, true]) {
      const page = await t.newPage({ wallet: { accountIndex: 6 }, mobile })
      const { fill, error, form } = await sendForm(page)
      const balance = await nativeBalance(t.env.rpcUrl, sender as string)

      await fill('native', '1000', receiver)
      await expect.poll(error).toBe(`Insufficient funds: the balance is ${floor3(balance, 18)} ETH`)
      // Everything it holds leaves nothing for the fee.
      await fill('native', formatEther(balance), receiver)
      await expect.poll(error).toMatch(/^Insufficient funds for the network fee \(about 0\.0\d+ ETH\)$/)
      await fill('native', '0.01', SOLANA_ADDRESS)
      await expect.poll(error).toBe('This is not a valid address on Sigil Dev')
      expect(await sentTransactions(page)).toEqual([])
      // The text stays inside the modal.
      const box = await form.boundingBox()
      const dialogBox = await ui.dialog(page).boundingBox()
      expect(box && dialogBox && box.x + box.width <= dialogBox.x + dialogBox.width).toBe(true)
      await screenshot(page, shots(), `send-refused-${mobile ? 'phone' : 'desktop'}`)
    }
  })

  it('sends 0.01 ETH: the sent state shows the transaction, linked to the explorer, and the chain has it', async () => {
    const [, receiver, , , , , sender] = await accounts(t.env.rpcUrl)
    await rpc(t.env.rpcUrl, 'anvil_setBalance', [sender, `0x${(100n * ETHER).toString(16)}`])
    for (const mobile of [false, true]) {
      const page = await t.newPage({ wallet: { accountIndex: 6 }, mobile })
      const { fill } = await sendForm(page)
      const before = await nativeBalance(t.env.rpcUrl, receiver)
      await fill('native', '0.01', receiver)
      const sent = ui.dialog(page).getByTestId('send-sent')
      await sent.waitFor({ timeout: 30_000 })
      expect(await sent.locator('.headline').innerText()).toBe('Sent 0.01 ETH')
      const link = sent.getByTestId('send-explorer')
      const href = (await link.getAttribute('href')) ?? ''
      expect(href).toMatch(new RegExp(`^${EXPLORER}/tx/0x[0-9a-f]{64}$`))
      const hash = href.split('/').pop() as Hex
      expect((await link.innerText()).trim()).toBe(shortAddress(hash))
      expect(await link.getAttribute('target')).toBe('_blank')
      const receipt = await rpc<{ status: string; from: string; to: string }>(t.env.rpcUrl, 'eth_getTransactionReceipt', [hash])
      expect(receipt.status).toBe('0x1')
      expect(getAddress(receipt.from)).toBe(getAddress(sender as string))
      expect(await nativeBalance(t.env.rpcUrl, receiver)).toBe(before + ETHER / 100n)
      await screenshot(page, shots(), `send-sent-${mobile ? 'phone' : 'desktop'}`)
      await ui.dialog(page).getByRole('button', { name: 'Done' }).click()
      await ui.dialog(page).getByRole('button', { name: 'Send', exact: true }).waitFor()
    }
  })

  it("a refusal by the chain (the balance went down since the modal read it) shows the spec's text, not the node's", async () => {
    const [, receiver, , , , , , sender] = await accounts(t.env.rpcUrl)
    await rpc(t.env.rpcUrl, 'anvil_setBalance', [sender, `0x${(10n * ETHER).toString(16)}`])
    const page = await t.newPage({ wallet: { accountIndex: 7 } })
    const { fill, error } = await sendForm(page)
    // Spent elsewhere meanwhile: the modal still shows 10 ETH.
    await rpc(t.env.rpcUrl, 'anvil_setBalance', [sender, '0x0'])
    await fill('native', '1', receiver)
    await expect.poll(error, { timeout: 15_000 }).toBe('Insufficient funds: the amount and the network fee are more than the account holds.')
    // The wallet did ask the node, which refused in its own words.
    const [asked] = await sentTransactions(page)
    expect(asked?.outcome).toBe('error')
    expect(asked?.error?.message).toMatch(/insufficient funds/i)
    await rpc(t.env.rpcUrl, 'anvil_setBalance', [sender, `0x${(10_000n * ETHER).toString(16)}`])
  })
})

describe('send with the embedded wallet', () => {
  it('without funds: the chain refuses, the page gets its error, and the modal says why instead of closing', async () => {
    for (const mobile of [false, true]) {
      const page = await t.newPage({ wallet: false, mobile })
      await page.goto(`${t.demoUrl}/?email=on&siwx=off`)
      await logIn(page, t.env.mailUrl, freshEmail(mobile ? 'nofunds-phone' : 'nofunds'))
      await emb.provider.sendEth(page).click()
      await expect.poll(() => emb.approval(page).getByRole('heading').innerText(), { timeout: 15_000 }).toMatch(/^Send 0\.01 ETH to /)
      await emb.approveButton(page).click()
      const failed = ui.dialog(page).getByTestId('transaction-failed')
      await failed.waitFor({ timeout: 30_000 })
      expect(await failed.getByRole('alert').innerText()).toBe('Insufficient funds: the amount and the network fee are more than the account holds.')
      expect(await ui.dialog(page).getAttribute('aria-label')).toBe('Transaction not sent')
      // The page's request failed with the node's own code and words.
      await expect.poll(() => emb.provider.requestError(page).innerText()).toMatch(/^-32003: Insufficient funds/i)
      await screenshot(page, shots(), `send-embedded-no-funds-${mobile ? 'phone' : 'desktop'}`)
      await failed.getByRole('button', { name: 'OK' }).click()
      await ui.dialog(page).waitFor({ state: 'hidden' })
    }
  })
})
