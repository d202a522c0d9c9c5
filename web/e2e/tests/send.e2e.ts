/**
 * Sending from the modal, end to end on anvil with the injected test wallet: WalletSend ->
 * WalletSendSelectToken -> WalletSendPreview -> WalletSendSent. What is refused before the
 * wallet is asked, and with which words; ETH, SGL and the no-return USDT sent with the balances
 * moved by exactly the amount and the receipts successful; 'Max' leaving exactly the fee's
 * reserve; a name (alice.eth) as the receiver; a chain's refusal in the spec's words; every view
 * in both themes on desktop and phone, with axe. The embedded wallet's send refused by the chain
 * is said in the modal. Solana's side is in solana.e2e.ts.
 */
import { join } from 'node:path'
import { formatEther, getAddress, parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { screenshot, seriousA11yViolations, wallet, type Theme } from '../src/browser.js'
import { accounts, floor3, nativeBalance, rpc, tokenBalance } from '../src/chain.js'
import { approveInFrame, emb, freshEmail, logIn } from '../src/embedded.js'
import { useDemo } from '../src/fixtures.js'
import { confirmAndWait, fillSend, review, send } from '../src/send.js'
import { connectTestWallet, shortAddress, ui } from '../src/ui.js'

const t = useDemo()
const shots = () => join(t.env.artifactsDir, 'e2e')
/** A block explorer for the local chains (Otterscan's usual place): the demo's ?explorer=. */
const EXPLORER = 'http://127.0.0.1:5100'
const SOLANA_ADDRESS = 'So11111111111111111111111111111111111111112'
const ETHER = 10n ** 18n

/** A fresh address nobody holds anything at, so what it holds after is exactly what was sent. */
const freshAddress = () => getAddress(`0x${[...crypto.getRandomValues(new Uint8Array(20))].map((b) => b.toString(16).padStart(2, '0')).join('')}`)
const token = (symbol: string) => {
  const found = t.env.devchain.tokens.find((x) => x.symbol === symbol)
  if (!found) throw new Error(`the dev deployment has no ${symbol}`)
  return found
}

/** The demo with the test wallet holding anvil's account `index`, connected, on the send form. */
async function sendForm(options: { accountIndex: number; mobile?: boolean; theme?: Theme }) {
  const page = await t.newPage({ wallet: { accountIndex: options.accountIndex }, mobile: options.mobile ?? false, theme: options.theme ?? 'light' })
  await page.goto(`${t.demoUrl}?siwx=off&explorer=${encodeURIComponent(EXPLORER)}`)
  await connectTestWallet(page)
  await ui.accountButton(page).click()
  await ui.tokenRow(page, 'ETH').waitFor({ timeout: 15_000 })
  await send.open(page).click()
  await send.form(page).waitFor()
  return page
}

const sentTransactions = async (page: Page) => (await wallet(page, 'log')).filter((r) => r.method === 'eth_sendTransaction')
const receipt = (hash: string) =>
  rpc<{ status: string; from: string; to: string; gasUsed: string; effectiveGasPrice: string }>(t.env.rpcUrl, 'eth_getTransactionReceipt', [hash])
const buttonText = async (page: Page) => (await send.submit(page).innerText()).trim()

describe('send from the Account view (EVM, injected wallet)', { timeout: 240_000 }, () => {
  it('refuses before the wallet is asked: more than the balance, an address of another family, a name without an address, everything without the fee', async () => {
    const [, receiver, , , , , sender] = await accounts(t.env.rpcUrl)
    await rpc(t.env.rpcUrl, 'anvil_setBalance', [sender, `0x${(100n * ETHER).toString(16)}`])
    for (const mobile of [false, true]) {
      const page = await sendForm({ accountIndex: 6, mobile })
      const balance = await nativeBalance(t.env.rpcUrl, sender as string)
      expect(await buttonText(page)).toBe('Choose a Token')
      await fillSend(page, { token: 'ETH', amount: '', to: '' })
      expect(await buttonText(page)).toBe('Enter an Amount')
      await send.amount(page).fill('1000')
      expect(await buttonText(page)).toBe('Not Enough Funds')
      expect(await send.submit(page).isDisabled()).toBe(true)
      await send.amount(page).fill('0.01')
      expect(await buttonText(page)).toBe('Enter a Receiver')
      await send.to(page).fill(SOLANA_ADDRESS)
      await expect.poll(() => buttonText(page), { timeout: 15_000 }).toBe('Receiver Not Valid')
      await send.to(page).fill('nobody.eth')
      await expect.poll(() => send.resolved(page).innerText(), { timeout: 15_000 }).toBe('nobody.eth has no address on Sigil Dev')
      expect(await buttonText(page)).toBe('Receiver Not Valid')
      // Everything it holds leaves nothing for the fee: the Preview says so, and Send stays off.
      await send.amount(page).fill(formatEther(balance))
      await send.to(page).fill(receiver)
      await review(page)
      await expect.poll(() => send.error(page).innerText(), { timeout: 15_000 }).toMatch(/^Insufficient funds for the network fee \(about 0\.0\d+ ETH\)$/)
      expect(await send.confirm(page).isDisabled()).toBe(true)
      expect(await sentTransactions(page)).toEqual([])
      // The text stays inside the modal.
      const box = await send.error(page).boundingBox()
      const dialogBox = await ui.dialog(page).boundingBox()
      expect(box && dialogBox && box.x + box.width <= dialogBox.x + dialogBox.width).toBe(true)
      await screenshot(page, shots(), `send-refused-${mobile ? 'phone' : 'desktop'}`)
    }
  })

  it('sends ETH, SGL and the no-return USDT: the receiver gains and the sender loses exactly the amount (and the fee, in ETH), each receipt a success', async () => {
    const sender = (await accounts(t.env.rpcUrl))[3] as string
    const page = await sendForm({ accountIndex: 3 })
    const receiver = freshAddress()
    for (const [symbol, amount, units] of [
      ['ETH', '0.0123', 12_300_000_000_000_000n],
      ['SGL', '12.5', 12_500_000_000_000_000_000n],
      ['USDT', '7.000001', 7_000_001n],
    ] as const) {
      const contract = symbol === 'ETH' ? undefined : token(symbol).address
      const held = () => (contract ? tokenBalance(t.env.rpcUrl, contract, sender) : nativeBalance(t.env.rpcUrl, sender))
      const before = await held()
      const ethBefore = await nativeBalance(t.env.rpcUrl, sender)
      const received = () => (contract ? tokenBalance(t.env.rpcUrl, contract, receiver) : nativeBalance(t.env.rpcUrl, receiver))
      const receivedBefore = await received()
      await fillSend(page, { token: symbol, amount, to: receiver })
      await review(page)
      // EVM: the most the network fee can be, in ETH.
      expect(await send.fee(page).innerText()).toMatch(/^up to 0\.\d{1,6} ETH$/)
      expect(await send.previewTo(page).textContent()).toBe(shortAddress(receiver))
      const hash = await confirmAndWait(page)
      expect(await ui.dialog(page).getByTestId('send-sent').locator('.headline').innerText()).toBe(`Sent ${amount} ${symbol}`)
      const mined = await receipt(hash)
      expect(mined.status).toBe('0x1')
      expect(getAddress(mined.from)).toBe(getAddress(sender))
      expect(getAddress(mined.to)).toBe(getAddress(contract ?? receiver))
      expect((await received()) - receivedBefore).toBe(units)
      const fee = BigInt(mined.gasUsed) * BigInt(mined.effectiveGasPrice)
      if (contract) {
        expect(before - (await held())).toBe(units)
        expect(ethBefore - (await nativeBalance(t.env.rpcUrl, sender))).toBe(fee)
      } else expect(before - (await held())).toBe(units + fee)
      // The modal read the balances again: the token row shows what the chain has.
      await send.done(page).click()
      const quantity = floor3(await held(), contract ? token(symbol).decimals : 18)
      await expect.poll(() => ui.tokenRow(page, symbol).getByTestId('token-quantity').innerText(), { timeout: 15_000 }).toBe(quantity)
      await send.open(page).click()
      await send.form(page).waitFor()
    }
  })

  it("'Max' sends all but the fee's reserve: the chain takes it, and the receiver gets exactly that", async () => {
    const sender = (await accounts(t.env.rpcUrl))[8] as string
    await rpc(t.env.rpcUrl, 'anvil_setBalance', [sender, `0x${ETHER.toString(16)}`])
    const page = await sendForm({ accountIndex: 8 })
    const receiver = freshAddress()
    await fillSend(page, { token: 'ETH', amount: '', to: receiver })
    await send.max(page).click()
    await expect.poll(() => send.amount(page).inputValue(), { timeout: 15_000 }).toMatch(/^0\.99\d+$/)
    const max = parseEther(await send.amount(page).inputValue())
    await review(page)
    const hash = await confirmAndWait(page)
    expect((await receipt(hash)).status).toBe('0x1')
    expect(await nativeBalance(t.env.rpcUrl, receiver)).toBe(max)
    // What is left is the unused part of the reserve: never below zero, under the quoted fee.
    const left = await nativeBalance(t.env.rpcUrl, sender)
    expect(left).toBeGreaterThanOrEqual(0n)
    expect(left).toBeLessThan(ETHER - max)
  })

  it('sends to a name: alice.eth resolves for the dev chain, the address shows before signing, and account 1 receives it', async () => {
    const [, alice] = await accounts(t.env.rpcUrl)
    const page = await sendForm({ accountIndex: 3 })
    const before = await nativeBalance(t.env.rpcUrl, alice)
    await fillSend(page, { token: 'ETH', amount: '0.0042', to: 'alice.eth' })
    await expect.poll(() => send.resolved(page).innerText(), { timeout: 15_000 }).toBe(`Sends to ${getAddress(alice)}`)
    await review(page)
    expect(await send.previewTo(page).textContent()).toBe(`alice.eth${shortAddress(getAddress(alice))}`)
    const hash = await confirmAndWait(page)
    expect(await send.sent(page).innerText()).toContain('to alice.eth')
    const mined = await receipt(hash)
    expect(mined.status).toBe('0x1')
    expect(getAddress(mined.to)).toBe(getAddress(alice))
    expect((await nativeBalance(t.env.rpcUrl, alice)) - before).toBe(4_200_000_000_000_000n)
  })

  it("a refusal by the chain (the balance went down since the modal read it) shows the spec's text, not the node's", async () => {
    const [, receiver, , , , , , sender] = await accounts(t.env.rpcUrl)
    await rpc(t.env.rpcUrl, 'anvil_setBalance', [sender, `0x${(10n * ETHER).toString(16)}`])
    const page = await sendForm({ accountIndex: 7 })
    await fillSend(page, { token: 'ETH', amount: '1', to: receiver })
    await review(page)
    // Spent elsewhere meanwhile: the modal still shows 10 ETH.
    await rpc(t.env.rpcUrl, 'anvil_setBalance', [sender, '0x0'])
    await send.confirm(page).click()
    await expect
      .poll(() => send.error(page).innerText(), { timeout: 15_000 })
      .toBe('Insufficient funds: the amount and the network fee are more than the account holds.')
    // The wallet did ask the node, which refused in its own words.
    const [asked] = await sentTransactions(page)
    expect(asked?.outcome).toBe('error')
    expect(asked?.error?.message).toMatch(/insufficient funds/i)
    await rpc(t.env.rpcUrl, 'anvil_setBalance', [sender, `0x${(10_000n * ETHER).toString(16)}`])
  })

  it('every send view in both themes, on desktop and phone: screenshots, and nothing serious for axe', async () => {
    const [, receiver] = await accounts(t.env.rpcUrl)
    const check = async (page: Page, view: string) => {
      await screenshot(page, shots(), view)
      const findings = await seriousA11yViolations(page)
      expect(findings, `${view}: ${JSON.stringify(findings, null, 2)}`).toEqual([])
    }
    for (const theme of ['light', 'dark'] as const) {
      for (const mobile of [false, true]) {
        const suffix = `${theme}-${mobile ? 'phone' : 'desktop'}`
        const page = await sendForm({ accountIndex: 2, mobile, theme })
        await check(page, `send-form-empty-${suffix}`)
        await send.tokenChip(page).click()
        await send.selectToken(page).waitFor()
        await check(page, `send-select-token-${suffix}`)
        await send.tokenOption(page, 'SGL').click()
        await send.form(page).waitFor()
        await send.amount(page).fill('1.25')
        await send.to(page).fill('bob.eth')
        await expect.poll(() => send.resolved(page).innerText(), { timeout: 15_000 }).toMatch(/^Sends to 0x/)
        await check(page, `send-form-${suffix}`)
        await send.to(page).fill(receiver)
        await review(page)
        await check(page, `send-preview-${suffix}`)
        await confirmAndWait(page)
        await check(page, `send-sent-${suffix}`)
      }
    }
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
      await approveInFrame(page)
      const failed = ui.dialog(page).getByTestId('transaction-failed')
      await failed.waitFor({ timeout: 30_000 })
      expect(await failed.getByRole('alert').innerText()).toBe('Insufficient funds: the amount and the network fee are more than the account holds.')
      expect(await page.getByRole('dialog', { name: 'Transaction not sent' }).count()).toBe(1)
      // The page's request failed with the node's own code and words.
      await expect.poll(() => emb.provider.requestError(page).innerText()).toMatch(/^-32003: Insufficient funds/i)
      await screenshot(page, shots(), `send-embedded-no-funds-${mobile ? 'phone' : 'desktop'}`)
      await failed.getByRole('button', { name: 'OK' }).click()
      await ui.dialog(page).waitFor({ state: 'hidden' })
    }
  })
})
