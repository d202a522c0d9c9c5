/**
 * Deposits from an exchange (issue 27's `pay`), end to end and offline. Off (the default): the
 * Account view has no 'Deposit from exchange' entry and the page never fetches the pay bundle.
 * On: the entry comes after the wallet features; it opens the exchanges the server is configured
 * with (the sandbox exchange, a page the server serves in an exchange's place, depositing from a
 * funded dev key), the visitor picks the amount of the network's coin and the exchange, confirms
 * in the exchange's window, and the modal follows the server's status (read from the chain) to
 * SUCCESS: the ETH is on chain at the address. Screenshots at 1280 and 390 px.
 */
import { join } from 'node:path'
import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { pageRequests, screenshot, seriousA11yViolations } from '../src/browser.js'
import { accounts, nativeBalance, rpc } from '../src/chain.js'
import { useDemo } from '../src/fixtures.js'
import { connectTestWallet, openModal, ui } from '../src/ui.js'

const t = useDemo()
const shots = () => join(t.env.artifactsDir, 'e2e')
/** The depositor: anvil's account 7 (files run one at a time; its balance is set here). */
const INDEX = 7

const pay = {
  entry: (page: Page) => ui.dialog(page).getByTestId('account-pay'),
  form: (page: Page) => ui.dialog(page).getByTestId('pay'),
  amount: (page: Page) => ui.dialog(page).getByTestId('pay-amount'),
  asset: (page: Page) => ui.dialog(page).getByTestId('pay-asset'),
  exchange: (page: Page, id: string) => ui.dialog(page).getByTestId(`pay-exchange-${id}`),
  progress: (page: Page) => ui.dialog(page).getByTestId('pay-progress'),
  done: (page: Page) => ui.dialog(page).getByTestId('pay-done'),
}

/** The demo page with these createAppKit options. */
function demoWith(options: object): string {
  const url = new URL(t.demoUrl)
  url.searchParams.set('options', JSON.stringify(options))
  url.searchParams.set('siwx', 'off')
  return url.toString()
}

const pathOf = (url: string) => new URL(url).pathname
/** The pay bundle of the demo build (`pay-<hash>.js`). */
const payBundle = (u: string) => /\/assets\/pay-[\w-]+\.js$/.test(pathOf(u))

/** Resolves once the page has been idle twice over (prefetching happens when it is idle). */
const idleTwice = (page: Page) =>
  page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => requestIdleCallback(() => resolve(), { timeout: 3000 }), { timeout: 3000 })))

/** The Account view's wallet-feature buttons, in order, by test id. */
const actionIds = (page: Page) =>
  ui
    .dialog(page)
    .locator('.account-actions button')
    .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-testid')))

/**
 * The Account view's wallet-feature buttons as drawn: for each, whether its label is cut, and
 * whether it overlaps another (five did not fit in one row: their labels ran into each other).
 */
const actionsLaidOut = (page: Page) =>
  ui
    .dialog(page)
    .locator('.account-actions button')
    .evaluateAll((buttons) => {
      const rects = buttons.map((b) => b.getBoundingClientRect())
      return buttons.map((b, i) => {
        const me = rects[i] as DOMRect
        return {
          label: b.textContent,
          cut: b.scrollWidth > b.clientWidth,
          overlaps: rects.some((r, j) => j !== i && r.left < me.right && me.left < r.right && r.top < me.bottom && me.top < r.bottom),
        }
      })
    })

/** Every wallet-feature button with its whole label, none over another. */
async function expectActionsLaidOut(page: Page): Promise<void> {
  const laidOut = await actionsLaidOut(page)
  expect(laidOut.length).toBeGreaterThan(1)
  expect(laidOut.filter((a) => a.cut || a.overlaps)).toEqual([])
}

describe('deposit from an exchange (pay)', { timeout: 240_000 }, () => {
  it('off by default: no entry in the Account view, and no pay bundle fetched', async () => {
    const page = await t.newPage({ wallet: { accountIndex: INDEX } })
    const since = pageRequests(page).length
    await page.goto(demoWith({}))
    await connectTestWallet(page)
    await openModal(page)
    await ui.dialog(page).getByTestId('account-send').waitFor()
    expect(await pay.entry(page).count()).toBe(0)
    expect(await actionIds(page)).not.toContain('account-pay')
    await idleTwice(page)
    expect(pageRequests(page).slice(since).filter(payBundle)).toEqual([])
  })

  it('on: the entry after the wallet features; the sandbox exchange deposits and the modal shows SUCCESS; the ETH is on chain', async () => {
    const me = (await accounts(t.env.rpcUrl))[INDEX] as string
    await rpc(t.env.rpcUrl, 'anvil_setBalance', [me, `0x${parseUnits('1', 18).toString(16)}`])
    const page = await t.newPage({ wallet: { accountIndex: INDEX }, theme: 'light' })
    await page.goto(demoWith({ features: { pay: true } }))
    await connectTestWallet(page)
    await ui.accountButton(page).click()
    await ui.tokenRow(page, 'ETH').waitFor({ timeout: 15_000 })
    const ids = await actionIds(page)
    expect(ids[ids.length - 1]).toBe('account-pay')
    // The spec's order for the others (those this network shows).
    const others = ids.slice(0, -1)
    expect(others).toEqual(['account-buy', 'account-swap', 'account-receive', 'account-send'].filter((id) => others.includes(id)))
    expect(await pay.entry(page).innerText()).toBe('Deposit from exchange')
    await expectActionsLaidOut(page)

    await pay.entry(page).click()
    await pay.form(page).waitFor()
    expect(await pay.asset(page).inputValue()).toBe('eip155:31337/slip44:60')
    await pay.exchange(page, 'sigil-sandbox').waitFor({ timeout: 15_000 })
    expect(await pay.exchange(page, 'sigil-sandbox').innerText()).toContain('Sigil sandbox exchange')
    expect(await pay.exchange(page, 'sigil-sandbox').isDisabled()).toBe(true)
    await pay.amount(page).fill('0.0000000000000000001')
    expect(await ui.dialog(page).getByTestId('pay-refusal').innerText()).toBe('Enter an amount above 0 with at most 18 decimals, such as 0.05')
    await pay.amount(page).fill('0.05')
    expect(await pay.exchange(page, 'sigil-sandbox').isDisabled()).toBe(false)
    expect(await seriousA11yViolations(page)).toEqual([])
    await screenshot(page, shots(), 'pay-form-1280')

    const before = await nativeBalance(t.env.rpcUrl, me)
    const [popup] = await Promise.all([page.waitForEvent('popup'), pay.exchange(page, 'sigil-sandbox').click()])
    await pay.progress(page).waitFor({ timeout: 15_000 })
    expect(await ui.dialog(page).getByRole('status').first().innerText()).toBe('Finish the deposit in the Sigil sandbox exchange window')
    expect(await ui.dialog(page).getByTestId('pay-depositing').innerText()).toBe('Depositing 0.05 ETH')
    await screenshot(page, shots(), 'pay-progress-1280')

    // The exchange's page: the amount and the address, then Confirm.
    await popup.waitForURL(/\/pay\/sandbox\/[0-9a-f]{32}$/, { timeout: 15_000 })
    const offer = await popup.locator('body').innerText()
    expect(offer).toContain('0.05 ETH')
    expect(offer.toLowerCase()).toContain(me.toLowerCase())
    await popup.getByRole('button', { name: 'Confirm deposit' }).click()
    await popup.getByRole('heading', { name: 'Deposit sent' }).waitFor({ timeout: 30_000 })

    await pay.done(page).waitFor({ timeout: 30_000 })
    expect(await pay.done(page).locator('.headline').innerText()).toBe('0.05 ETH arrived')
    expect(await nativeBalance(t.env.rpcUrl, me)).toBe(before + parseUnits('0.05', 18))
    await screenshot(page, shots(), 'pay-done-1280')
  })

  it('the form at 390 px', async () => {
    const page = await t.newPage({ wallet: { accountIndex: INDEX }, theme: 'dark', mobile: true })
    await page.goto(demoWith({ features: { pay: true } }))
    await connectTestWallet(page)
    await ui.accountButton(page).click()
    await ui.tokenRow(page, 'ETH').waitFor({ timeout: 15_000 })
    await expectActionsLaidOut(page)
    await screenshot(page, shots(), 'pay-account-390')
    await pay.entry(page).click()
    await pay.exchange(page, 'sigil-sandbox').waitFor({ timeout: 15_000 })
    await pay.amount(page).fill('0.05')
    expect(await seriousA11yViolations(page)).toEqual([])
    await screenshot(page, shots(), 'pay-form-390')
  })
})
