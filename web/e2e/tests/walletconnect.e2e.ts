/**
 * WalletConnect end to end: the demo page (no browser wallet) shows a QR code for a pairing on
 * the Sigil server's relay; a wallet in Node, the official sign-client 2.21.8 holding an anvil
 * key, reads the URI from the page and approves; the modal shows the account and its anvil
 * balance; personal_sign and the demo's wagmi send go through the session; the wallet's account
 * and chain changes show; either side's disconnect ends it on both; a reload restores the session
 * without a new QR code; a phone gets the wallet's deep link. No request leaves 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { getAddress, recoverMessageAddress, type Hex } from 'viem'
import type { Page } from 'playwright-core'
import { DEMO_MESSAGE } from '../../apps/demo/src/contracts.js'
import { join } from 'node:path'
import { newWalletPage, offLoopback, pageRequests, screenshot } from '../src/browser.js'
import { accounts, nativeBalanceText, tokenBalance } from '../src/chain.js'
import { useDemo } from '../src/fixtures.js'
import { openModal, ui, waitConnected } from '../src/ui.js'
import { ANVIL_KEYS, NODE_WALLET_NAME, startNodeWallet, type NodeWallet } from '../src/wc-wallet.js'

const t = useDemo({ wallet: false })
const relayUrl = () => `${t.env.apiUrl.replace(/^http/, 'ws')}/relay`
const wallets: NodeWallet[] = []

async function nodeWallet(key: Hex = ANVIL_KEYS[0]): Promise<NodeWallet> {
  const w = await startNodeWallet({ relayUrl: relayUrl(), projectId: t.env.projectId, rpcUrl: t.env.rpcUrl, key })
  wallets.push(w)
  return w
}

afterEach(async () => {
  await Promise.all(wallets.splice(0).map((w) => w.close()))
})

/** Opens the modal, picks WalletConnect and returns the pairing URI the QR code carries. */
async function qrUri(page: Page, walletName = 'WalletConnect'): Promise<string> {
  await openModal(page)
  await ui.walletButton(page, walletName).click()
  const qr = ui.dialog(page).getByTestId('wc-qr')
  await qr.waitFor({ state: 'visible', timeout: 20_000 })
  await screenshot(page, join(t.env.artifactsDir, 'e2e'), 'walletconnect-qr')
  const uri = await qr.getAttribute('data-uri')
  if (!uri) throw new Error('the QR code carries no URI')
  return uri
}

/** QR code, approval in the Node wallet, the page connected. */
async function connectNodeWallet(page: Page, chains = [31337, 42161]): Promise<NodeWallet> {
  const uri = await qrUri(page)
  expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
  const w = await nodeWallet()
  await w.approve(uri, chains)
  await waitConnected(page, 20_000)
  return w
}

const sgl = () => {
  const token = t.env.devchain.tokens.find((tk) => tk.symbol === 'SGL')
  if (!token) throw new Error('the dev-chain deployment has no SGL')
  return token.address
}

describe('WalletConnect through the Sigil relay', () => {
  it('QR code, a Node wallet approves: account, anvil balance, personal_sign and a wagmi send through the session; nothing leaves 127.0.0.1', async () => {
    const [account0, account1] = await accounts(t.env.rpcUrl)
    const w = await connectNodeWallet(t.page)
    expect(getAddress(w.address)).toBe(getAddress(account0))
    expect(await t.page.getByTestId('address').innerText()).toBe(getAddress(account0))
    expect(await t.page.getByTestId('wallet').innerText()).toBe(NODE_WALLET_NAME)
    expect(await t.page.getByTestId('network').innerText()).toMatch(/eip155:31337/)
    // the modal's Account view: the anvil balance of that account
    await ui.accountButton(t.page).click()
    await expect.poll(() => ui.accountBalance(t.page).innerText(), { timeout: 15_000 }).toBe(await nativeBalanceText(t.env.rpcUrl, account0))
    await ui.closeButton(t.page).click()

    // personal_sign over useAppKitProvider's provider, signed in Node with the anvil key
    await t.page.getByRole('button', { name: 'Sign message' }).click()
    await expect.poll(() => t.page.getByTestId('message-signature').innerText(), { timeout: 15_000 }).toMatch(/^0x[0-9a-f]{130}$/)
    const signature = (await t.page.getByTestId('message-signature').innerText()) as Hex
    expect(await recoverMessageAddress({ message: DEMO_MESSAGE, signature })).toBe(getAddress(account0))

    // the demo's wagmi send: 1 SGL to account 1, sent by the wallet through the session
    await expect.poll(() => ui.wagmi.status(t.page).innerText()).toBe('connected')
    const before = await tokenBalance(t.env.rpcUrl, sgl(), account0)
    const recipientBefore = await tokenBalance(t.env.rpcUrl, sgl(), account1)
    await ui.wagmi.sendSgl(t.page).click()
    await expect.poll(() => ui.wagmi.txStatus(t.page).innerText(), { timeout: 30_000 }).toBe('success')
    expect(await tokenBalance(t.env.rpcUrl, sgl(), account0)).toBe(before - 10n ** 18n)
    expect(await tokenBalance(t.env.rpcUrl, sgl(), account1)).toBe(recipientBefore + 10n ** 18n)
    expect(w.log.map((r) => `${r.method}@${r.chainId}:${r.outcome}`)).toEqual(
      expect.arrayContaining(['personal_sign@eip155:31337:ok', 'eth_sendTransaction@eip155:31337:ok']),
    )

    // the relay socket and the Verify frame are the Sigil server's; nothing else was asked for
    const requests = pageRequests(t.page)
    expect(requests.some((u) => u.startsWith(`${relayUrl()}?auth=`))).toBe(true)
    expect(requests.some((u) => u.startsWith(`${t.env.apiUrl}/v3/attestation?projectId=${t.env.projectId}`))).toBe(true)
    expect(offLoopback(requests)).toEqual([])
  })

  it("the wallet's account and chain changes show in the modal; the wallet's disconnect ends it in the page", async () => {
    const [account0, account1] = await accounts(t.env.rpcUrl)
    const w = await connectNodeWallet(t.page)
    await w.emitChain(42161)
    await expect.poll(() => t.page.getByTestId('network').innerText(), { timeout: 15_000 }).toMatch(/eip155:42161/)
    await w.emitAccounts([getAddress(account1)], 42161)
    await expect.poll(() => t.page.getByTestId('address').innerText(), { timeout: 15_000 }).toBe(getAddress(account1))
    expect(getAddress(account0)).not.toBe(getAddress(account1))
    await w.disconnect()
    await expect.poll(() => ui.status(t.page).innerText(), { timeout: 15_000 }).toBe('disconnected')
    await ui.connectButton(t.page).waitFor({ state: 'visible' })
  })

  it("the page's disconnect ends the session in the wallet too", async () => {
    const w = await connectNodeWallet(t.page)
    const { topic } = w.session()
    const ended = w.ended()
    await t.page.getByRole('button', { name: 'Disconnect', exact: true }).click()
    await expect.poll(() => ui.status(t.page).innerText()).toBe('disconnected')
    await ended
    expect(w.client.session.getAll().map((s) => s.topic)).not.toContain(topic)
  })

  it('a reload restores the session without a new QR code, and signing still goes to the wallet', async () => {
    const [account0] = await accounts(t.env.rpcUrl)
    const w = await connectNodeWallet(t.page)
    await t.page.reload()
    await waitConnected(t.page, 20_000)
    expect(await t.page.getByTestId('address').innerText()).toBe(getAddress(account0))
    expect(await t.page.getByTestId('wallet').innerText()).toBe(NODE_WALLET_NAME)
    expect(await ui.dialog(t.page).isVisible()).toBe(false)
    await t.page.getByRole('button', { name: 'Sign message' }).click()
    await expect.poll(() => t.page.getByTestId('message-signature').innerText(), { timeout: 15_000 }).toMatch(/^0x[0-9a-f]{130}$/)
    expect(w.log.filter((r) => r.method === 'personal_sign').map((r) => r.outcome)).toEqual(['ok'])
  })

  it('a wallet declining shows it, and a new QR code can be asked for', async () => {
    const uri = await qrUri(t.page)
    const w = await nodeWallet()
    await w.reject(uri)
    await expect.poll(() => ui.dialog(t.page).getByRole('alert').innerText(), { timeout: 15_000 }).toBe('User rejected the request.')
    await ui.dialog(t.page).getByRole('button', { name: 'New QR code' }).click()
    const qr = ui.dialog(t.page).getByTestId('wc-qr')
    await expect.poll(async () => (await qr.getAttribute('data-uri')) ?? '', { timeout: 20_000 }).toMatch(/^wc:/)
    expect(await qr.getAttribute('data-uri')).not.toBe(uri)
  })

  it("on a phone, tapping a wallet opens its app at once with the pairing URI; the QR code waits behind 'Copy link / other device'; the approval given in the app connects the page", async () => {
    const page = await t.newPage({ wallet: false, mobile: true })
    // The hand-over to the wallet app (the system's part, absent here) is recorded instead.
    await page.addInitScript(() => {
      const opened: [string, string | undefined][] = []
      ;(window as unknown as { __opened: typeof opened }).__opened = opened
      window.open = (url?: string | URL, target?: string) => {
        opened.push([String(url), target])
        return null
      }
    })
    await page.reload()
    await openModal(page)
    await ui.allWalletsButton(page).click()
    await ui.search(page).fill('Rainbow')
    await ui.walletButton(page, 'Rainbow').waitFor({ timeout: 10_000 })
    await ui.walletButton(page, 'Rainbow').click()
    const link = ui.dialog(page).getByRole('link', { name: 'Open and continue in the wallet app' })
    await link.waitFor({ state: 'visible', timeout: 20_000 })
    const href = (await link.getAttribute('href')) ?? ''
    expect(href).toMatch(/^rainbow:\/\/wc\?uri=wc%3A/)
    const uri = decodeURIComponent(href.slice('rainbow://wc?uri='.length))
    const opened = () => page.evaluate(() => (window as unknown as { __opened: [string, string | undefined][] }).__opened)
    await expect.poll(opened, { timeout: 10_000 }).toEqual([[href, '_self']])
    expect(await ui.dialog(page).getByText('Continue in Rainbow').isVisible()).toBe(true)
    expect(await ui.dialog(page).getByTestId('wc-qr').count()).toBe(0)
    await screenshot(page, join(t.env.artifactsDir, 'e2e'), 'walletconnect-mobile')
    await ui.dialog(page).getByRole('button', { name: 'Copy link / other device' }).click()
    const qr = ui.dialog(page).getByTestId('wc-qr')
    await qr.waitFor({ state: 'visible' })
    expect(await qr.getAttribute('data-uri')).toBe(uri)
    await screenshot(page, join(t.env.artifactsDir, 'e2e'), 'walletconnect-mobile-qr')
    // The visitor approves in the app and comes back: the page is connected, the app was opened once.
    const w = await nodeWallet()
    await w.approve(uri, [31337])
    await waitConnected(page, 20_000)
    expect(await opened()).toHaveLength(1)
    expect(offLoopback(pageRequests(page))).toEqual([])
  })

  it("a device clock an hour ahead: the relay refuses its sign-in token and the view shows 'Session Expired' with the time-settings hint", async () => {
    const { context, page } = await newWalletPage(t.browser, t.env.rpcUrl, { wallet: false })
    try {
      await context.clock.install({ time: Date.now() + 60 * 60 * 1000 })
      await page.goto(t.demoUrl)
      await openModal(page)
      await ui.walletButton(page, 'WalletConnect').click()
      const alert = ui.dialog(page).getByRole('alert')
      await expect.poll(() => alert.innerText().catch(() => ''), { timeout: 30_000 }).toMatch(/^Session Expired/)
      expect(await alert.innerText()).toContain("check your device's time settings, then reconnect")
      await ui.dialog(page).getByRole('button', { name: 'Reconnect' }).waitFor({ state: 'visible' })
      expect(await ui.dialog(page).getByTestId('wc-qr').count()).toBe(0)
      await screenshot(page, join(t.env.artifactsDir, 'e2e'), 'walletconnect-session-expired')
    } finally {
      await context.close()
    }
  })
})
