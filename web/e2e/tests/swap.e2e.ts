/**
 * Swapping from the modal, end to end on anvil with the server's Uniswap V2 source (the dev
 * chain's pools, a test fixture: 1 ETH = 1,000 SGL) and the injected test wallet, which has no
 * EIP-5792 batches: Swap -> SwapSelectToken -> SwapPreview -> SwapDone. ETH -> SGL moves the
 * balances by the quoted amount (within the slippage); SGL -> ETH is approved for exactly the
 * amount, in a transaction before the swap, and leaves no allowance behind. Every view in both
 * themes, with axe.
 */
import { join } from 'node:path'
import { formatUnits, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { screenshot, seriousA11yViolations, wallet, type Theme } from '../src/browser.js'
import { accounts, nativeBalance, rpc, tokenBalance, transferToken } from '../src/chain.js'
import { useDemo } from '../src/fixtures.js'
import { connectTestWallet, ui } from '../src/ui.js'

const t = useDemo()
const shots = () => join(t.env.artifactsDir, 'e2e')
/** The test wallet holds anvil's account 8 (the files run one at a time; its ETH is set at each start, balances are compared before and after). */
const INDEX = 8
const word = (hex: string) => hex.replace(/^0x/, '').toLowerCase().padStart(64, '0')
const sgl = () => {
  const found = t.env.devchain.tokens.find((x) => x.symbol === 'SGL')
  if (!found) throw new Error('the dev deployment has no SGL')
  return found
}
/** The deployment's Uniswap V2 router (devchain/deploy.mjs writes it under uniswapV2). */
const router = () => {
  const found = (t.env.devchain as { uniswapV2?: { router?: string } }).uniswapV2?.router
  if (!found) throw new Error('the dev deployment has no Uniswap V2 router')
  return found
}
const allowance = async (token: string, owner: string, spender: string) =>
  BigInt(await rpc<string>(t.env.rpcUrl, 'eth_call', [{ to: token, data: `0xdd62ed3e${word(owner)}${word(spender)}` }, 'latest']))

const swap = {
  open: (page: Page) => ui.dialog(page).getByTestId('account-swap'),
  form: (page: Page) => ui.dialog(page).getByTestId('swap'),
  fromToken: (page: Page) => ui.dialog(page).getByTestId('swap-from-token'),
  toToken: (page: Page) => ui.dialog(page).getByTestId('swap-to-token'),
  option: (page: Page, symbol: string) => ui.dialog(page).locator(`[data-testid="swap-token-option"][data-symbol="${symbol}"]`).first(),
  amount: (page: Page) => ui.dialog(page).getByTestId('swap-amount'),
  toAmount: (page: Page) => ui.dialog(page).getByTestId('swap-to-amount'),
  submit: (page: Page) => ui.dialog(page).getByTestId('swap-submit'),
  minimum: (page: Page) => ui.dialog(page).getByTestId('swap-minimum'),
  approval: (page: Page) => ui.dialog(page).getByTestId('swap-approval'),
  confirm: (page: Page) => ui.dialog(page).getByTestId('swap-confirm'),
  done: (page: Page) => ui.dialog(page).getByTestId('swap-done'),
}

/** The demo with the test wallet on account INDEX, connected, on the swap form. */
async function swapForm(theme: Theme = 'light', options: { atomic?: boolean } = {}) {
  // 100 ETH, whatever an earlier file left the account (send.e2e.ts's 'Max' empties it).
  const me = (await accounts(t.env.rpcUrl))[INDEX] as string
  await rpc(t.env.rpcUrl, 'anvil_setBalance', [me, `0x${parseUnits('100', 18).toString(16)}`])
  const page = await t.newPage({ wallet: { accountIndex: INDEX, ...(options.atomic ? { atomic: true } : {}) }, theme })
  await page.goto(`${t.demoUrl}?siwx=off`)
  await connectTestWallet(page)
  await ui.accountButton(page).click()
  await ui.tokenRow(page, 'ETH').waitFor({ timeout: 15_000 })
  await swap.open(page).click()
  await swap.form(page).waitFor()
  return page
}

/** Chooses `symbol` on one side in SwapSelectToken. */
async function choose(page: Page, side: 'from' | 'to', symbol: string) {
  await (side === 'from' ? swap.fromToken(page) : swap.toToken(page)).click()
  await swap.option(page, symbol).click()
  await expect.poll(() => (side === 'from' ? swap.fromToken(page) : swap.toToken(page)).innerText()).toContain(symbol)
}

/** The quote the form shows once it has one. */
async function quoted(page: Page): Promise<string> {
  await expect.poll(() => swap.toAmount(page).innerText(), { timeout: 15_000 }).toMatch(/^[0-9.]+$/)
  const text = (await swap.toAmount(page).innerText()).trim()
  expect(text).not.toBe('0')
  return text
}

/** A figure with its symbol as the Preview shows it ('99.6 SGL'), in the smallest unit. */
const unitsOf = (text: string, decimals: number) => parseUnits(text.split(' ')[0] as string, decimals)

describe('swap from the Account view (EVM, Uniswap V2 on anvil)', { timeout: 240_000 }, () => {
  it('ETH -> SGL: the balances move by the quote, never below the minimum received', async () => {
    const me = (await accounts(t.env.rpcUrl))[INDEX] as string
    const page = await swapForm()
    await expect.poll(() => swap.fromToken(page).innerText()).toContain('ETH')
    await choose(page, 'to', 'SGL')
    await swap.amount(page).fill('0.1')
    const quote = await quoted(page)
    await swap.submit(page).click()
    await expect.poll(() => swap.minimum(page).innerText(), { timeout: 15_000 }).toMatch(/SGL$/)
    const minimum = unitsOf(await swap.minimum(page).innerText(), 18)
    expect(await seriousA11yViolations(page)).toEqual([])
    await screenshot(page, shots(), 'swap-preview-light')
    const [sglBefore, ethBefore] = [await tokenBalance(t.env.rpcUrl, sgl().address, me), await nativeBalance(t.env.rpcUrl, me)]
    await swap.confirm(page).click()
    await swap.done(page).waitFor({ timeout: 60_000 })
    await screenshot(page, shots(), 'swap-done-light')
    const got = (await tokenBalance(t.env.rpcUrl, sgl().address, me)) - sglBefore
    expect(got).toBeGreaterThanOrEqual(minimum)
    // Nothing else trades on the pool: what came is the quote, which the form showed to 6 decimals.
    expect(formatUnits(got, 18).startsWith(quote.replace(/\.?0+$/, ''))).toBe(true)
    expect(ethBefore - (await nativeBalance(t.env.rpcUrl, me))).toBeGreaterThanOrEqual(parseUnits('0.1', 18))
    const sent = (await wallet(page, 'log')).filter((r) => r.method === 'eth_sendTransaction')
    expect(sent).toHaveLength(1)
  })

  it('SGL -> ETH: approved for exactly the amount before the swap, no allowance left', async () => {
    const all = await accounts(t.env.rpcUrl)
    const me = all[INDEX] as string
    // 100 SGL from the deployer (account 0 holds the supply), whatever the test before did.
    await transferToken(t.env.rpcUrl, sgl().address, all[0], me, parseUnits('100', sgl().decimals))
    const page = await swapForm('dark')
    await choose(page, 'from', 'SGL')
    await choose(page, 'to', 'ETH')
    await screenshot(page, shots(), 'swap-form-dark')
    await swap.amount(page).fill('25')
    await quoted(page)
    await swap.submit(page).click()
    await expect.poll(() => swap.approval(page).innerText(), { timeout: 15_000 }).toBe('Exactly 25 SGL')
    expect(await seriousA11yViolations(page)).toEqual([])
    await screenshot(page, shots(), 'swap-preview-dark')
    const before = await tokenBalance(t.env.rpcUrl, sgl().address, me)
    await swap.confirm(page).click()
    await swap.done(page).waitFor({ timeout: 60_000 })
    const sent = (await wallet(page, 'log')).filter((r) => r.method === 'eth_sendTransaction')
    expect(sent).toHaveLength(2)
    const approve = (sent[0]?.params as [{ to: string; data: string }] | undefined)?.[0] ?? { to: '', data: '' }
    expect(approve.to.toLowerCase()).toBe(sgl().address.toLowerCase())
    expect(approve.data.slice(-64)).toBe(word(parseUnits('25', sgl().decimals).toString(16)))
    expect(before - (await tokenBalance(t.env.rpcUrl, sgl().address, me))).toBe(parseUnits('25', sgl().decimals))
    expect(await allowance(sgl().address, me, router())).toBe(0n)
  })

  it('a pair without a pool says there is no route, in words', async () => {
    const page = await swapForm()
    await expect.poll(() => swap.fromToken(page).innerText()).toContain('ETH')
    await screenshot(page, shots(), 'swap-form-light')
    await swap.toToken(page).click()
    await swap.option(page, 'USDC').waitFor()
    expect(await seriousA11yViolations(page)).toEqual([])
    await screenshot(page, shots(), 'swap-select-token-light')
    await swap.option(page, 'USDC').click()
    await expect.poll(() => swap.toToken(page).innerText()).toContain('USDC')
    await swap.amount(page).fill('0.1')
    await expect.poll(() => ui.dialog(page).getByTestId('swap-error').innerText(), { timeout: 15_000 }).toBe('No route from ETH to USDC on this network.')
    expect(await swap.submit(page).isDisabled()).toBe(true)
  })

  it('a wallet with EIP-5792 atomic batches approves and swaps in one wallet_sendCalls, one confirmation', async () => {
    const all = await accounts(t.env.rpcUrl)
    const me = all[INDEX] as string
    await transferToken(t.env.rpcUrl, sgl().address, all[0], me, parseUnits('100', sgl().decimals))
    const page = await swapForm('light', { atomic: true })
    await choose(page, 'from', 'SGL')
    await choose(page, 'to', 'ETH')
    await swap.amount(page).fill('10')
    await quoted(page)
    await swap.submit(page).click()
    await expect.poll(() => swap.approval(page).innerText(), { timeout: 15_000 }).toBe('Exactly 10 SGL')
    expect(await ui.dialog(page).getByTestId('swap-confirmations').innerText()).toBe('One confirmation in your wallet')
    const before = await tokenBalance(t.env.rpcUrl, sgl().address, me)
    await swap.confirm(page).click()
    await swap.done(page).waitFor({ timeout: 60_000 })
    const log = await wallet(page, 'log')
    expect(log.filter((r) => r.method === 'eth_sendTransaction')).toHaveLength(0)
    const batches = log.filter((r) => r.method === 'wallet_sendCalls')
    expect(batches).toHaveLength(1)
    const request = (batches[0]?.params as [{ atomicRequired: boolean; calls: { to: string; data: string }[] }] | undefined)?.[0] ?? {
      atomicRequired: false,
      calls: [],
    }
    expect(request.atomicRequired).toBe(true)
    expect(request.calls.map((c) => c.to.toLowerCase())).toEqual([sgl().address.toLowerCase(), router().toLowerCase()])
    expect(request.calls[0]?.data.slice(-64)).toBe(word(parseUnits('10', sgl().decimals).toString(16)))
    expect(before - (await tokenBalance(t.env.rpcUrl, sgl().address, me))).toBe(parseUnits('10', sgl().decimals))
    expect(await allowance(sgl().address, me, router())).toBe(0n)
  })
})
