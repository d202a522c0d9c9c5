/**
 * Buying with a card from the modal, end to end and offline: the server's sandbox provider (a
 * page the server serves in the provider's place, paying from anvil's account 9) sells ETH on the
 * dev chain. OnRamp (the providers for the visitor's country, each quoted; the payment method's
 * limits) -> the provider's page in a popup -> OnRampProgress, which follows the purchase until
 * the coins arrive: the balance grows by exactly the quoted amount and Activity lists the
 * incoming transfer. A declined purchase ends as failed, with nothing sent. Every view in both
 * themes, with axe.
 */
import { join } from 'node:path'
import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { screenshot, seriousA11yViolations, type Theme } from '../src/browser.js'
import { accounts, nativeBalance, rpc } from '../src/chain.js'
import { useDemo } from '../src/fixtures.js'
import { connectTestWallet, ui } from '../src/ui.js'

const t = useDemo()
const shots = () => join(t.env.artifactsDir, 'e2e')
/** The buyer: anvil's account 5, used by no other file (the sandbox pays from account 9). */
const INDEX = 5

const buy = {
  open: (page: Page) => ui.dialog(page).getByTestId('account-buy'),
  form: (page: Page) => ui.dialog(page).getByTestId('onramp'),
  amount: (page: Page) => ui.dialog(page).getByTestId('onramp-amount'),
  limits: (page: Page) => ui.dialog(page).getByTestId('onramp-limits'),
  refusal: (page: Page) => ui.dialog(page).getByTestId('onramp-refusal'),
  quote: (page: Page, provider: string) => ui.dialog(page).getByTestId(`onramp-quote-${provider}`),
  continue: (page: Page) => ui.dialog(page).getByTestId('onramp-continue'),
  progress: (page: Page) => ui.dialog(page).getByTestId('onramp-progress'),
  done: (page: Page) => ui.dialog(page).getByTestId('onramp-done'),
  failed: (page: Page) => ui.dialog(page).getByTestId('onramp-failed'),
}

/** The demo with the test wallet on account INDEX, connected, on the buy form. */
async function buyForm(theme: Theme, mobile = false) {
  const page = await t.newPage({ wallet: { accountIndex: INDEX }, theme, mobile })
  await page.goto(`${t.demoUrl}?siwx=off`)
  await connectTestWallet(page)
  await ui.accountButton(page).click()
  await ui.tokenRow(page, 'ETH').waitFor({ timeout: 15_000 })
  await buy.open(page).click()
  await buy.form(page).waitFor()
  return page
}

/** The ETH the sandbox quotes for the amount the form shows ('about 0.039400 ETH'). */
async function quotedEth(page: Page): Promise<string> {
  await expect.poll(() => buy.quote(page, 'sandbox').innerText(), { timeout: 15_000 }).toMatch(/about [0-9.]+ ETH/)
  const text = await buy.quote(page, 'sandbox').innerText()
  return (/about ([0-9.]+) ETH/.exec(text) as RegExpExecArray)[1] as string
}

describe('buy with a card through the sandbox provider (anvil)', { timeout: 240_000 }, () => {
  it('pays in the provider’s window; the quoted ETH arrives and Activity lists it', async () => {
    const me = (await accounts(t.env.rpcUrl))[INDEX] as string
    await rpc(t.env.rpcUrl, 'anvil_setBalance', [me, `0x${parseUnits('1', 18).toString(16)}`])
    const page = await buyForm('light')
    expect(await buy.limits(page).innerText()).toBe('From 10.00 to 7500.00 USD')
    await buy.amount(page).fill('5')
    expect(await buy.refusal(page).innerText()).toBe('The least you can pay by card is 10.00 USD')
    expect(await buy.continue(page).isDisabled()).toBe(true)
    await buy.amount(page).fill('100')
    const eth = await quotedEth(page)
    expect(Number(eth)).toBeGreaterThan(0)
    expect(await seriousA11yViolations(page)).toEqual([])
    await screenshot(page, shots(), 'onramp-form-light')

    const before = await nativeBalance(t.env.rpcUrl, me)
    const [popup] = await Promise.all([page.waitForEvent('popup'), buy.continue(page).click()])
    await buy.progress(page).waitFor({ timeout: 15_000 })
    expect(await ui.dialog(page).getByRole('status').first().innerText()).toBe('Finish the purchase in the Sigil sandbox window')
    expect(await seriousA11yViolations(page)).toEqual([])
    await screenshot(page, shots(), 'onramp-progress-light')

    // The provider's page: what is paid and bought, for this address.
    await popup.waitForURL(/\/onramp\/sandbox\//, { timeout: 15_000 })
    const offer = await popup.locator('body').innerText()
    expect(offer.toLowerCase()).toContain(me.toLowerCase())
    expect(offer).toContain('100')
    await popup.getByRole('button', { name: 'Pay' }).click()
    await expect.poll(() => popup.locator('body').innerText(), { timeout: 30_000 }).toContain('You can close this window.')

    await buy.done(page).waitFor({ timeout: 30_000 })
    const bought = (/Bought ([0-9.]+) ETH/.exec(await buy.done(page).innerText()) as RegExpExecArray)[1] as string
    // What the provider delivered is what it quoted (the sandbox's price holds within the run).
    expect(Math.abs(Number(bought) - Number(eth)) / Number(eth)).toBeLessThan(0.01)
    expect(await seriousA11yViolations(page)).toEqual([])
    await screenshot(page, shots(), 'onramp-done-light')
    expect((await nativeBalance(t.env.rpcUrl, me)) - before).toBe(parseUnits(bought, 18))
    const hash = await buy.done(page).locator('[title^="0x"]').getAttribute('title')
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)

    // Back on the Account view: the new balance, and the incoming transfer in Activity.
    await buy.done(page).getByRole('button', { name: 'Done' }).click()
    await ui.dialog(page).getByRole('tab', { name: 'Activity' }).click()
    const incoming = ui.dialog(page).locator(`[data-testid="activity-row"][data-hash="${hash}"]`)
    await expect.poll(() => incoming.count(), { timeout: 30_000 }).toBe(1)
    expect(await incoming.innerText()).toContain('ETH')
  })

  it('a declined purchase ends as failed and sends nothing (dark theme, phone)', async () => {
    const me = (await accounts(t.env.rpcUrl))[INDEX] as string
    const page = await buyForm('dark', true)
    await quotedEth(page)
    expect(await seriousA11yViolations(page)).toEqual([])
    await screenshot(page, shots(), 'onramp-form-dark-phone')
    const before = await nativeBalance(t.env.rpcUrl, me)
    const [popup] = await Promise.all([page.waitForEvent('popup'), buy.continue(page).click()])
    await buy.progress(page).waitFor({ timeout: 15_000 })
    await screenshot(page, shots(), 'onramp-progress-dark-phone')
    await popup.waitForURL(/\/onramp\/sandbox\//, { timeout: 15_000 })
    await popup.getByRole('button', { name: 'Decline' }).click()
    await buy.failed(page).waitFor({ timeout: 30_000 })
    expect(await buy.failed(page).innerText()).toContain('Sigil sandbox says the purchase did not go through')
    expect(await seriousA11yViolations(page)).toEqual([])
    await screenshot(page, shots(), 'onramp-failed-dark-phone')
    expect(await nativeBalance(t.env.rpcUrl, me)).toBe(before)
    // Try again goes back to the form, its amount kept.
    await buy.failed(page).getByRole('button', { name: 'Try again' }).click()
    await buy.form(page).waitFor()
    expect(await buy.amount(page).inputValue()).toBe('100')
  })
})
