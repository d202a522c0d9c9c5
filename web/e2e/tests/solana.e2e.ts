/**
 * Solana end to end: the demo with EVM, Solana and Bitcoin networks, the injected Wallet
 * Standard test wallet (a real ed25519 key), the real server (balances through its proxy to the
 * dev Solana runtime, sign-in verified in Rust) and the runtime itself (litesvm).
 */
import { join } from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { screenshot } from '../src/browser.js'
import { useDemo } from '../src/fixtures.js'
import { SOLANA_WALLET_LABEL } from '../src/paths.js'
import { base58, SOLANA_WALLET_NAME, solanaKey } from '../src/solana-wallet.js'
import { confirmAndWait, fillSend, review, send } from '../src/send.js'
import { ui } from '../src/ui.js'

const env = inject('e2e')
const t = useDemo({ solana: { rpcUrl: env.solana.rpcUrl }, bitcoin: true })
const ADDRESS = solanaKey(SOLANA_WALLET_LABEL).address
const FAMILIES = 'families=eip155,solana,bip122'
/** A block explorer for the local chains (the demo's ?explorer=): sent transactions link to it. */
const EXPLORER = 'http://127.0.0.1:5100'
const shots = () => join(env.artifactsDir, 'e2e')

const text = (page: Page, testId: string) => page.getByTestId(testId).textContent()
const waitText = (page: Page, testId: string, value: string, timeout = 20_000) =>
  page.waitForFunction(([id, v]) => document.querySelector(`[data-testid="${id}"]`)?.textContent === v, [testId, value] as const, { timeout })

async function solanaRpc<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch(env.solana.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const answer = (await res.json()) as { result: T; error?: unknown }
  if (answer.error) throw new Error(JSON.stringify(answer.error))
  return answer.result
}
const lamports = async (address: string) => (await solanaRpc<{ value: number }>('getBalance', [address])).value
/** What the modal shows for an amount: floored to 3 decimals. */
const shown = (value: number) => (Math.floor(value * 1000 + 1e-9) / 1000).toFixed(3)
const solShown = async (address: string) => shown((await lamports(address)) / 1e9)
/** A token's balance of `owner` in the runtime (0 without an account). */
async function tokens(owner: string, mint: string): Promise<number> {
  const { value } = await solanaRpc<{ value: { account: { data: { parsed: { info: { tokenAmount: { uiAmountString: string } } } } } }[] }>(
    'getTokenAccountsByOwner',
    [owner, { mint }, { encoding: 'jsonParsed' }],
  )
  return value.reduce((sum, a) => sum + Number(a.account.data.parsed.info.tokenAmount.uiAmountString), 0)
}
/** A fresh address nobody holds a key for. */
const freshAddress = () => base58(crypto.getRandomValues(new Uint8Array(32)))

async function openConnect(page: Page) {
  await page.getByRole('button', { name: 'Open modal' }).click()
  await ui.dialog(page).waitFor({ state: 'visible' })
}

async function connectSolana(page: Page, query = 'siwx=off') {
  await page.goto(`${t.demoUrl}?${FAMILIES}&${query}`)
  await openConnect(page)
  await ui.walletButton(page, SOLANA_WALLET_NAME).click()
}

describe('Solana', () => {
  it('connects the Wallet Standard test wallet and shows its SOL and SPL balances from the runtime', async () => {
    await connectSolana(t.page)
    await waitText(t.page, 'solana-status', 'connected')
    expect(await text(t.page, 'solana-address')).toBe(ADDRESS)
    // The connection made Solana the active family: the page's account is the Solana one.
    expect(await text(t.page, 'address')).toBe(ADDRESS)
    expect(await text(t.page, 'network')).toBe(`Sigil Solana Dev (${env.solana.caipNetworkId})`)
    // The runtime's own answer is what the server gives back through its proxy.
    const sol = await solShown(ADDRESS)
    await waitText(t.page, 'solana-balance', `${sol} SOL`)

    await t.page.getByRole('button', { name: 'Open modal' }).click()
    const [sgls, sglx] = env.solana.mints
    await ui.tokenRow(t.page, 'SGLS').waitFor({ timeout: 15_000 })
    expect(await ui.tokenRow(t.page, 'SOL').getByTestId('token-quantity').textContent()).toBe(sol)
    expect(sgls?.symbol).toBe('SGLS')
    expect(await ui.tokenRow(t.page, 'SGLS').getByTestId('token-quantity').textContent()).toBe(shown(await tokens(ADDRESS, sgls?.address ?? '')))
    expect(sglx?.symbol).toBe('SGLX')
    expect(await ui.tokenRow(t.page, 'SGLX').getByTestId('token-quantity').textContent()).toBe(shown(await tokens(ADDRESS, sglx?.address ?? '')))
    // The funding: 1000 SGLS and 500 SGLX, less what earlier runs sent.
    expect(await tokens(ADDRESS, sgls?.address ?? '')).toBeGreaterThan(900)
    // The address as Solana writes it (base58), shortened in the Account view.
    expect(await ui.accountName(t.page).getAttribute('title')).toBe(ADDRESS)
  })

  it('a rejected connection leaves Solana disconnected', async () => {
    await t.page.goto(`${t.demoUrl}?${FAMILIES}&siwx=off`)
    await t.page.evaluate(() => (window as unknown as { __solanaWallet: { rejectNext(): void } }).__solanaWallet.rejectNext())
    await openConnect(t.page)
    await ui.walletButton(t.page, SOLANA_WALLET_NAME).click()
    await ui.dialog(t.page).getByText('User rejected the request.').waitFor({ timeout: 15_000 })
    expect(await text(t.page, 'solana-status')).toBe('disconnected')
  })

  it('required sign-in signs with the ed25519 key and the server returns the Solana session', async () => {
    await connectSolana(t.page, 'siwx=required')
    await ui
      .dialog(t.page)
      .getByRole('button', { name: /^sign$/i })
      .click()
    await waitText(t.page, 'siwx-status', 'signed-in')
    expect(await text(t.page, 'siwx-address')).toBe(ADDRESS)
    expect(await text(t.page, 'siwx-chain')).toBe(env.solana.caipNetworkId)
    const raw = await t.page.evaluate(() => localStorage.getItem('@appkit/siwx-auth-token'))
    const token = raw?.startsWith('"') ? (JSON.parse(raw) as string) : raw
    const res = await fetch(`${env.apiUrl}/auth/v1/session?projectId=${env.projectId}&st=e2e&sv=0`, { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(200)
    const session = (await res.json()) as { message: string; data: { accountAddress: string }; cacao: { s: { t: string } } }
    expect(session.data.accountAddress).toBe(ADDRESS)
    expect(session.message).toContain('wants you to sign in with your Solana account:')
    expect(session.cacao.s.t).toBe('ed25519')
  })

  it('sends SOL and an SPL token from the Account view; the runtime and the modal both show the change', async () => {
    await connectSolana(t.page, `siwx=off&explorer=${encodeURIComponent(EXPLORER)}`)
    await waitText(t.page, 'solana-status', 'connected')
    await t.page.getByRole('button', { name: 'Open modal' }).click()
    await ui.tokenRow(t.page, 'SGLS').waitFor({ timeout: 15_000 })
    const page = t.page
    await send.open(page).click()
    await send.form(page).waitFor()
    const button = async () => (await send.submit(page).innerText()).trim()
    const sentByWallet = () => page.evaluate(() => (window as unknown as { __solanaWallet: { sent: string[] } }).__solanaWallet.sent.length)

    // What the form lacks, said on its button; refused before the wallet is asked: more than the
    // balance, an EVM address, everything without the fee (in the Preview).
    expect(await button()).toBe('Choose a Token')
    const receiver = freshAddress()
    await fillSend(page, { token: 'SOL', amount: '100000', to: receiver })
    expect(await button()).toBe('Not Enough Funds')
    await send.amount(page).fill('1.5')
    await send.to(page).fill('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')
    expect(await button()).toBe('Receiver Not Valid')
    const held = await lamports(ADDRESS)
    await send.amount(page).fill(String(held / 1e9))
    await send.to(page).fill(receiver)
    await review(page)
    await expect.poll(() => send.error(page).innerText(), { timeout: 15_000 }).toBe('Insufficient funds for the network fee (about 0.000005 SOL)')
    // Solana's Preview shows no gas estimate (EVM only).
    expect(await send.fee(page).count()).toBe(0)
    expect(await sentByWallet()).toBe(0)
    await screenshot(page, shots(), 'send-refused-solana')
    await send.cancel(page).click()

    // The runtime's own refusal (a fresh account given less than rent): its words, not its dump.
    await send.amount(page).fill('0.000001')
    await send.to(page).fill(freshAddress())
    await review(page)
    await send.confirm(page).click()
    await expect
      .poll(() => send.error(page).innerText(), { timeout: 30_000 })
      .toBe('An account would be left with less than the minimum balance the network requires (rent): send more, or to an account that holds SOL.')
    const box = await send.error(page).boundingBox()
    const dialogBox = await ui.dialog(page).boundingBox()
    expect(box && dialogBox && box.x + box.width <= dialogBox.x + dialogBox.width).toBe(true)
    await screenshot(page, shots(), 'send-chain-refused-solana')
    await send.cancel(page).click()

    // SOL: the receiver gets it in the runtime; the modal reads the sender's balance again.
    await send.amount(page).fill('1.5')
    await send.to(page).fill(receiver)
    await review(page)
    const signature = await confirmAndWait(page)
    expect(await send.sent(page).locator('.headline').innerText()).toBe('Sent 1.5 SOL')
    expect(`${EXPLORER}/tx/${signature}`).toMatch(new RegExp(`^${EXPLORER}/tx/[1-9A-HJ-NP-Za-km-z]{64,88}$`))
    expect(await lamports(receiver)).toBe(1_500_000_000)
    // The link names the transaction the runtime has.
    const [status] = (await solanaRpc<{ value: ({ err: unknown } | null)[] }>('getSignatureStatuses', [[signature]])).value
    expect(status?.err).toBeNull()
    await screenshot(page, shots(), 'send-sent-solana')
    await send.done(page).click()
    const afterSol = await solShown(ADDRESS)
    await expect.poll(() => ui.tokenRow(page, 'SOL').getByTestId('token-quantity').textContent(), { timeout: 15_000 }).toBe(afterSol)

    // An SPL token (SPL Token program): the receiver's token account is made on the way.
    const sgls = env.solana.mints.find((m) => m.symbol === 'SGLS')?.address ?? ''
    const before = await tokens(ADDRESS, sgls)
    await send.open(page).click()
    await send.form(page).waitFor()
    await fillSend(page, { token: 'SGLS', amount: '25', to: receiver })
    await review(page)
    await confirmAndWait(page)
    expect(await send.sent(page).locator('.headline').innerText()).toBe('Sent 25 SGLS')
    expect(await tokens(receiver, sgls)).toBe(25)
    expect(await tokens(ADDRESS, sgls)).toBe(before - 25)
    await send.done(page).click()
    await expect.poll(() => ui.tokenRow(page, 'SGLS').getByTestId('token-quantity').textContent(), { timeout: 15_000 }).toBe(shown(before - 25))
    // Two transactions, both signed by the wallet's key and sent by it (the runtime refused the third).
    expect(await sentByWallet()).toBe(2)
  })

  it('reload restores the Solana connection without asking the wallet', async () => {
    await connectSolana(t.page)
    await waitText(t.page, 'solana-status', 'connected')
    const asked = async () =>
      t.page.evaluate(
        () => (window as unknown as { __solanaWallet: { log: { method: string }[] } }).__solanaWallet.log.filter((l) => l.method === 'standard:connect').length,
      )
    expect(await asked()).toBe(1)
    await t.page.reload()
    await waitText(t.page, 'solana-status', 'connected')
    expect(await text(t.page, 'solana-address')).toBe(ADDRESS)
    expect(await asked()).toBe(0)
  })
})
