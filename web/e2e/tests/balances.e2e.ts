/**
 * The Account view's balances and identity from the Sigil server's blockchain data API, end to
 * end: the dev-chain tokens deployed to anvil by the global setup, the real server reading them
 * (GET /v1/account/{address}/balance, GET /v1/identity/{address}), the modal showing them.
 * Expected figures are read from anvil, never written into the test.
 */
import { getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Page, Request } from 'playwright-core'
import { join } from 'node:path'
import { screenshot, seriousA11yViolations, wallet, walletAccount } from '../src/browser.js'
import { accounts, floor3, nativeBalanceText, tokenBalance, transferToken } from '../src/chain.js'
import { useDemo } from '../src/fixtures.js'
import { connectTestWallet, shortAddress, ui } from '../src/ui.js'

const t = useDemo()
const shots = () => join(t.env.artifactsDir, 'e2e')

const token = (symbol: string) => {
  const found = t.env.devchain.tokens.find((tk) => tk.symbol === symbol)
  if (!found) throw new Error(`the dev-chain deployment has no ${symbol}: ${JSON.stringify(t.env.devchain.tokens)}`)
  return found
}

/** What a token row shows for `owner`'s on-chain balance: symbol and quantity floored to 3 decimals. */
const expectedRow = async (symbol: string, owner: string) => {
  const { address, decimals } = token(symbol)
  return { symbol, quantity: floor3(await tokenBalance(t.env.rpcUrl, address, owner), decimals) }
}

/** The forceUpdate parameter of the balance request number `index` (from 0). */
const forceUpdate = (requests: string[], index: number) => {
  const url = requests[index]
  if (url === undefined) throw new Error(`no balance request #${index}`)
  return new URL(url).searchParams.get('forceUpdate')
}

const shownRow = async (page: Page, symbol: string) => {
  const row = ui.tokenRow(page, symbol)
  return { symbol: (await row.locator('.symbol').innerText()).trim(), quantity: (await row.getByTestId('token-quantity').innerText()).trim() }
}

/** The server keeps balances 30 s; a forced read makes it start from the chain (e.g. on a retry). */
async function serverForgetsBalances(owner: string) {
  const url = `${t.env.apiUrl}/v1/account/${owner}/balance?projectId=${t.env.projectId}&st=e2e&sv=0&currency=usd&chainId=eip155:31337&forceUpdate=true`
  expect((await fetch(url)).status).toBe(200)
}

async function openAccountView(page: Page) {
  await ui.accountButton(page).click()
  await ui.dialog(page).waitFor()
  await ui.accountBalance(page).waitFor()
}

const isBalanceRequest = (request: Request) => new URL(request.url()).pathname.endsWith('/balance') && request.url().startsWith(`${t.env.apiUrl}/v1/account/`)

describe('balances from the Sigil server', () => {
  it('shows the native balance and the SGL, USDC and USDT rows as on anvil; a transfer shows after Refresh', async () => {
    const [account0, account1] = await accounts(t.env.rpcUrl)
    await serverForgetsBalances(account0)
    const native = await nativeBalanceText(t.env.rpcUrl, account0)
    const sgl = await expectedRow('SGL', account0)
    const usdc = await expectedRow('USDC', account0)
    const usdt = await expectedRow('USDT', account0)
    expect(Number(sgl.quantity)).toBeGreaterThan(0)
    expect(Number(usdc.quantity)).toBeGreaterThan(0)

    const requests: string[] = []
    t.page.on('request', (r) => void (isBalanceRequest(r) && requests.push(r.url())))
    await connectTestWallet(t.page)
    await openAccountView(t.page)
    await expect.poll(() => ui.accountBalance(t.page).innerText(), { timeout: 10_000 }).toBe(native)
    await ui.tokenRow(t.page, 'USDT').waitFor({ timeout: 10_000 })
    // native first, then the configured tokens in order
    expect(await ui.tokenRows(t.page).evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.symbol))).toEqual(['ETH', 'SGL', 'USDC', 'USDT'])
    expect(await shownRow(t.page, 'SGL')).toEqual(sgl)
    expect(await shownRow(t.page, 'USDC')).toEqual(usdc)
    expect(await shownRow(t.page, 'USDT')).toEqual(usdt)
    expect((await shownRow(t.page, 'ETH')).quantity).toBe(native.replace(/ ETH$/, ''))
    // every row's icon is the server's real image (its URL carries the projectId the gate needs)
    for (const symbol of ['ETH', 'SGL', 'USDC', 'USDT']) {
      await expect.poll(() => ui.tokenRow(t.page, symbol).locator('.img').getAttribute('data-state'), { timeout: 5_000 }).toBe('loaded')
    }
    // the dev chain is a testnet: no fiat anywhere
    expect(await ui.dialog(t.page).getByTestId('account-fiat').count()).toBe(0)
    expect(await ui.tokenRow(t.page, 'SGL').locator('.value').count()).toBe(0)
    // one request so far (on connect); opening the view used the 30 s answer
    expect(requests).toHaveLength(1)
    expect(forceUpdate(requests, 0)).toBeNull()

    // A real ERC-20 transfer on anvil, from account 1 to the test wallet's account 0:
    // 12.3456 SGL, so the shown quantity is floored, not rounded.
    const sglToken = token('SGL')
    const amount = 123_456n * 10n ** BigInt(sglToken.decimals - 4)
    const before = await tokenBalance(t.env.rpcUrl, sglToken.address, account0)
    await transferToken(t.env.rpcUrl, sglToken.address, account1, account0, amount)
    const after = await tokenBalance(t.env.rpcUrl, sglToken.address, account0)
    expect(after).toBe(before + amount)

    await ui.refreshBalancesButton(t.page).click()
    const updated = floor3(after, sglToken.decimals)
    await expect.poll(async () => (await shownRow(t.page, 'SGL')).quantity, { timeout: 10_000 }).toBe(updated)
    expect(updated).toBe(floor3(before + amount, sglToken.decimals))
    expect(requests).toHaveLength(2)
    expect(forceUpdate(requests, 1)).toBe('true')
    expect(await shownRow(t.page, 'USDC')).toEqual(usdc)

    const findings = await seriousA11yViolations(t.page)
    expect(findings, `Account with tokens: ${JSON.stringify(findings, null, 2)}`).toEqual([])
  })

  it("a failed balance call shows 'Token Balance Unavailable' and is not retried within 30 s", async () => {
    const page = await t.newPage()
    // The browser-side boundary: the balance call answers 503 (the server itself is untouched).
    let failing = true
    await page.route(`${t.env.apiUrl}/v1/account/**`, (route) =>
      failing
        ? route.fulfill({
            status: 503,
            headers: { 'access-control-allow-origin': new URL(t.demoUrl).origin, 'content-type': 'application/json' },
            body: JSON.stringify({ error: { code: 'upstream_unavailable', message: 'All upstreams of eip155:31337 are unavailable' } }),
          })
        : route.continue(),
    )
    // The page's clock, so the 30 s lock can be stepped over without waiting.
    await page.clock.install()
    await page.reload()
    const requests: string[] = []
    page.on('request', (r) => void (isBalanceRequest(r) && requests.push(r.url())))

    await connectTestWallet(page)
    await expect.poll(() => requests.length, { timeout: 10_000 }).toBe(1)
    await openAccountView(page)
    await expect.poll(() => ui.tokensNote(page).innerText(), { timeout: 10_000 }).toBe('Token Balance Unavailable')
    expect(await ui.tokenRows(page).count()).toBe(0)

    // Within the lock: Refresh, and closing and reopening the view, ask nothing.
    failing = false
    await ui.refreshBalancesButton(page).click()
    await ui.closeButton(page).click()
    await ui.dialog(page).waitFor({ state: 'hidden' })
    await page.clock.fastForward('00:20')
    await openAccountView(page)
    await ui.refreshBalancesButton(page).click()
    await page.waitForTimeout(500)
    expect(requests).toHaveLength(1)
    expect(await ui.tokensNote(page).innerText()).toBe('Token Balance Unavailable')
    const findings = await seriousA11yViolations(page)
    expect(findings, `Account with the failure: ${JSON.stringify(findings, null, 2)}`).toEqual([])

    // 30 s after the failure: Refresh asks again (forced), and the real server answers.
    await page.clock.fastForward('00:11')
    await ui.refreshBalancesButton(page).click()
    await ui.tokenRow(page, 'SGL').waitFor({ timeout: 10_000 })
    expect(requests).toHaveLength(2)
    expect(forceUpdate(requests, 1)).toBe('true')
    expect(await ui.tokensNote(page).count()).toBe(0)
  })
})

describe('balances after a failure and a new connection', () => {
  it('a failed read is not kept: disconnecting and connecting again within 30 s reads the balance again', async () => {
    const [account0] = await accounts(t.env.rpcUrl)
    await serverForgetsBalances(account0)
    const page = await t.newPage()
    // The first balance call answers 503; the server answers the later ones.
    let failures = 1
    await page.route(`${t.env.apiUrl}/v1/account/**`, (route) =>
      failures-- > 0
        ? route.fulfill({
            status: 503,
            headers: { 'access-control-allow-origin': new URL(t.demoUrl).origin, 'content-type': 'application/json' },
            body: JSON.stringify({ error: { code: 'upstream_unavailable', message: 'All upstreams of eip155:31337 are unavailable' } }),
          })
        : route.continue(),
    )
    const requests: string[] = []
    page.on('request', (r) => void (isBalanceRequest(r) && requests.push(r.url())))
    await connectTestWallet(page)
    await expect.poll(() => requests.length, { timeout: 10_000 }).toBe(1)
    await expect.poll(() => page.getByTestId('balance').innerText()).toBe('—')

    await page.getByRole('button', { name: 'Disconnect', exact: true }).click()
    await expect.poll(() => ui.status(page).innerText()).toBe('disconnected')
    // Back at once, long before the 30 s lock of the failed read would end: the modal is not opened.
    await connectTestWallet(page)
    const native = await nativeBalanceText(t.env.rpcUrl, account0)
    await expect.poll(() => page.getByTestId('balance').innerText(), { timeout: 10_000 }).toBe(native)
    await expect.poll(() => ui.accountButton(page).innerText()).toContain(native)
    expect(requests).toHaveLength(2)
    await screenshot(page, shots(), 'balance-after-reconnect-desktop')
  })
})

describe('balances from a wallet that lists its assets (EIP-5792 + ERC-7811)', () => {
  it("shows the wallet's own list, read from anvil, and never asks the balance service", async () => {
    const [account0] = await accounts(t.env.rpcUrl)
    // The wallet tracks SGL only; the server would also list USDC, so the source shows.
    const sgl = token('SGL')
    const page = await t.newPage({ wallet: { assets: [sgl] } })
    const requests: string[] = []
    page.on('request', (r) => void (isBalanceRequest(r) && requests.push(r.url())))
    await connectTestWallet(page)
    await openAccountView(page)
    await ui.tokenRow(page, 'SGL').waitFor({ timeout: 10_000 })
    expect(await ui.tokenRows(page).evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.symbol))).toEqual(['ETH', 'SGL'])
    expect(await shownRow(page, 'SGL')).toEqual(await expectedRow('SGL', account0))
    expect(await ui.accountBalance(page).innerText()).toBe(await nativeBalanceText(t.env.rpcUrl, account0))
    // The modal asks the wallet's capabilities, then its assets, once (the demo's calls card asks
    // the capabilities too, for its own use).
    const asked = (await wallet(page, 'log')).filter((r) => r.method.startsWith('wallet_get'))
    expect(asked.filter((r) => r.method === 'wallet_getAssets').map((r) => r.outcome)).toEqual(['ok'])
    const capabilities = asked.findIndex((r) => r.method === 'wallet_getCapabilities')
    expect(capabilities).toBeGreaterThanOrEqual(0)
    expect(capabilities).toBeLessThan(asked.findIndex((r) => r.method === 'wallet_getAssets'))
    expect(asked.every((r) => r.method !== 'wallet_getCapabilities' || r.outcome === 'ok')).toBe(true)
    expect(requests).toEqual([])
  })
})

describe('identity from the Sigil server', () => {
  it('shows the ENS name and avatar of an account that has one (alice.eth, anvil account 1)', async () => {
    const alice = t.env.devchain.ens?.names.find((n) => n.name === 'alice.eth')
    if (!alice) throw new Error('the dev-chain deployment names no alice.eth')
    const [, account1] = await accounts(t.env.rpcUrl)
    expect(alice.address.toLowerCase()).toBe(account1.toLowerCase())
    await serverForgetsBalances(account1)
    const page = await t.newPage({ wallet: { accountIndex: 1 } })
    await connectTestWallet(page)
    await openAccountView(page)
    await expect.poll(() => ui.accountName(page).innerText(), { timeout: 10_000 }).toBe('alice.eth')
    expect(await ui.accountAvatar(page).getAttribute('src')).toBe(alice.avatar)
    // The page's <ConnectButton/> shows the same name as the modal, not the address.
    expect(await ui.accountButton(page).innerText()).toContain('alice.eth')
    expect(await ui.accountButton(page).innerText()).not.toContain(shortAddress(getAddress(account1)))
    await screenshot(page, shots(), 'account-name-desktop')
    // its own balances: 1000 SGL from the deployment, less whatever earlier tests sent
    await expect.poll(async () => (await shownRow(page, 'SGL')).quantity, { timeout: 10_000 }).toBe((await expectedRow('SGL', account1)).quantity)
  })

  it('on a phone too, the header button shows the name (alice.eth)', async () => {
    const page = await t.newPage({ wallet: { accountIndex: 1 }, mobile: true })
    await connectTestWallet(page)
    await expect.poll(() => ui.accountButton(page).innerText(), { timeout: 10_000 }).toContain('alice.eth')
    await screenshot(page, shots(), 'account-name-phone')
  })

  it('an account without a name shows its shortened address, EIP-55 checksummed', async () => {
    await connectTestWallet(t.page)
    await openAccountView(t.page)
    await ui.tokenRow(t.page, 'SGL').waitFor({ timeout: 10_000 })
    const account = await walletAccount(t.page)
    expect(account.toLowerCase()).toBe(t.env.devchain.deployer.toLowerCase())
    await expect.poll(() => ui.accountName(t.page).innerText(), { timeout: 10_000 }).toBe(shortAddress(getAddress(account)))
    expect(await ui.accountName(t.page).getAttribute('title')).toBe(getAddress(account))
  })
})
