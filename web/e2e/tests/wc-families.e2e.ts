/**
 * WalletConnect across chain families: the demo with EVM (anvil), Solana (litesvm) and Bitcoin
 * (bcoin regtest) networks and no browser wallet. One QR code, one approval in the Node wallet
 * (the official sign-client 2.21.8 with an anvil key, an ed25519 key and a P2WPKH key): the
 * session holds an account in each family; the modal shows each with its balance; Solana and
 * Bitcoin messages are signed by the wallet through the session (useAppKitProvider's
 * providers); the wallet's account changes in those families show; a reload restores them all.
 */
import { createPublicKey, verify } from 'node:crypto'
import { join } from 'node:path'
import bitcoinMessage from 'bitcoinjs-message'
import { afterEach, describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { DEMO_MESSAGE } from '../../apps/demo/src/contracts.js'
import { bip322Sign, bitcoinKey } from '../src/bitcoin-wallet.js'
import { offLoopback, pageRequests, screenshot } from '../src/browser.js'
import { accounts } from '../src/chain.js'
import { useDemo } from '../src/fixtures.js'
import { solanaKey } from '../src/solana-wallet.js'
import { ui } from '../src/ui.js'
import { fromBase58, NODE_WALLET_NAME, startNodeWallet, WC_BITCOIN_LABEL, type NodeWallet } from '../src/wc-wallet.js'

const env = inject('e2e')
const t = useDemo({ wallet: false })
const relayUrl = () => `${t.env.apiUrl.replace(/^http/, 'ws')}/relay`
const wallets: NodeWallet[] = []
const FAMILIES = 'families=eip155,solana,bip122&siwx=off'

afterEach(async () => {
  await Promise.all(wallets.splice(0).map((w) => w.close()))
})

const text = (page: Page, testId: string) => page.getByTestId(testId).textContent()
/** Waits for a demo field to show `value` (EVM addresses compared without case). */
const waitText = (page: Page, testId: string, value: string, timeout = 20_000) =>
  page.waitForFunction(
    ([id, v]) => {
      const shown = document.querySelector(`[data-testid="${id}"]`)?.textContent ?? ''
      return shown === v || (v.startsWith('0x') && shown.toLowerCase() === v.toLowerCase())
    },
    [testId, value] as const,
    { timeout },
  )

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
const solShown = async (address: string) => (Math.floor(((await lamports(address)) / 1e9) * 1000 + 1e-9) / 1000).toFixed(3)

async function openModal(page: Page) {
  await page.getByRole('button', { name: 'Open modal' }).click()
  await ui.dialog(page).waitFor({ state: 'visible' })
}

/** The modal on the Account view, then the network pill, then a network of the Networks view. */
async function switchTo(page: Page, network: string) {
  if (!(await ui.dialog(page).isVisible())) await openModal(page)
  const pill = ui.dialog(page).getByRole('button', { name: /switch network$/ })
  await pill.click()
  await ui.networkOption(page, network).click()
}

async function closeModal(page: Page) {
  if (!(await ui.dialog(page).isVisible())) return
  await page.keyboard.press('Escape')
  await ui.dialog(page).waitFor({ state: 'hidden' })
}

/** The families page, WalletConnect's QR code, the Node wallet approving: all three families connected. */
async function connectAll(page: Page): Promise<NodeWallet> {
  await page.goto(`${t.demoUrl}?${FAMILIES}`)
  await openModal(page)
  await ui.walletButton(page, 'WalletConnect').click()
  const qr = ui.dialog(page).getByTestId('wc-qr')
  await qr.waitFor({ state: 'visible', timeout: 20_000 })
  const uri = await qr.getAttribute('data-uri')
  if (!uri) throw new Error('the QR code carries no URI')
  const w = await startNodeWallet({ relayUrl: relayUrl(), projectId: t.env.projectId, rpcUrl: t.env.rpcUrl })
  wallets.push(w)
  const session = await w.approve(uri, [31337])
  // The proposal asked for each family's chain as the page's networks state it.
  expect(Object.keys(session.namespaces).sort()).toEqual(['bip122', 'eip155', 'solana'])
  expect(session.namespaces.solana?.chains).toEqual([env.solana.caipNetworkId])
  expect(session.namespaces.bip122?.chains).toEqual([env.bitcoin.caipNetworkId])
  for (const ns of ['eip155', 'solana', 'bip122']) await waitText(page, `${ns}-status`, 'connected')
  return w
}

describe('WalletConnect with EVM, Solana and Bitcoin', () => {
  it('one QR code connects all three families: EVM account, Solana address and SOL balance, Solana and Bitcoin signatures through the session, the bech32 address', async () => {
    const [account0] = await accounts(t.env.rpcUrl)
    const sol = solanaKey('sigil e2e walletconnect solana')
    const btc = bitcoinKey(WC_BITCOIN_LABEL)
    // Some SOL for the Node wallet's Solana account, from the runtime's faucet.
    await solanaRpc('requestAirdrop', [sol.address, 2_000_000_000])
    expect(await lamports(sol.address)).toBeGreaterThanOrEqual(2_000_000_000)

    const w = await connectAll(t.page)
    expect(w.solanaAddress).toBe(sol.address)
    expect(w.bitcoinAddress).toBe(btc.address)
    // The EVM account is the active one (the page's first network is the dev chain).
    await waitText(t.page, 'address', account0 as string)
    expect(await text(t.page, 'wallet')).toBe(NODE_WALLET_NAME)
    expect(await text(t.page, 'solana-address')).toBe(sol.address)
    expect(await text(t.page, 'bip122-address')).toBe(btc.address)

    // Solana in the modal: the wallet's base58 address and its SOL from the dev runtime.
    await switchTo(t.page, 'Sigil Solana Dev')
    await waitText(t.page, 'address', sol.address)
    const shownSol = await solShown(sol.address)
    await expect.poll(() => ui.accountBalance(t.page).innerText(), { timeout: 20_000 }).toBe(`${shownSol} SOL`)
    expect(await ui.accountName(t.page).getAttribute('title')).toBe(sol.address)
    await screenshot(t.page, join(t.env.artifactsDir, 'e2e'), 'wc-families-solana-account')
    await closeModal(t.page)
    await waitText(t.page, 'solana-balance', `${shownSol} SOL`)

    // useAppKitProvider('solana').signMessage (the demo's Solana card): solana_signMessage answered by the Node wallet's ed25519 key.
    await t.page.getByRole('button', { name: 'Sign Solana message' }).click()
    await expect.poll(() => text(t.page, 'sol-message-signature'), { timeout: 20_000 }).toMatch(/^[1-9A-HJ-NP-Za-km-z]{86,88}$/)
    expect(await text(t.page, 'sol-message-signer')).toBe(sol.address)
    const signature = Buffer.from(fromBase58((await text(t.page, 'sol-message-signature')) as string))
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(fromBase58(sol.address)).toString('base64url') }, format: 'jwk' })
    expect(verify(null, Buffer.from(DEMO_MESSAGE), publicKey, signature)).toBe(true)
    expect(verify(null, Buffer.from(`${DEMO_MESSAGE}!`), publicKey, signature)).toBe(false)

    // useAppKitProvider('bip122').signMessage (the demo's Bitcoin card): the Bitcoin RPC's
    // signMessage, BIP-322 and legacy ECDSA by the P2WPKH key; the ECDSA one verifies against the address.
    await t.page.getByRole('button', { name: 'Sign message (BIP-322)' }).click()
    await expect.poll(() => text(t.page, 'btc-message-signature'), { timeout: 20_000 }).toBe(bip322Sign(WC_BITCOIN_LABEL, DEMO_MESSAGE))
    await t.page.getByRole('button', { name: 'Sign message (ECDSA)' }).click()
    await expect.poll(() => text(t.page, 'btc-message-signature'), { timeout: 20_000 }).not.toBe(bip322Sign(WC_BITCOIN_LABEL, DEMO_MESSAGE))
    const ecdsa = (await text(t.page, 'btc-message-signature')) as string
    expect(bitcoinMessage.verify(DEMO_MESSAGE, btc.address, ecdsa, undefined, true)).toBe(true)
    expect(bitcoinMessage.verify(`${DEMO_MESSAGE}!`, btc.address, ecdsa, undefined, true)).toBe(false)

    // Bitcoin in the modal: the bech32 (regtest) address.
    await switchTo(t.page, 'Bitcoin Regtest')
    await waitText(t.page, 'address', btc.address)
    expect(btc.address).toMatch(/^bcrt1q[02-9ac-hj-np-z]{38}$/)
    expect(await ui.accountName(t.page).getAttribute('title')).toBe(btc.address)
    await closeModal(t.page)

    expect(w.log.map((r) => `${r.method}@${r.chainId}:${r.outcome}`)).toEqual(
      expect.arrayContaining([
        `getAccountAddresses@${env.bitcoin.caipNetworkId}:ok`,
        `solana_signMessage@${env.solana.caipNetworkId}:ok`,
        `signMessage@${env.bitcoin.caipNetworkId}:ok`,
      ]),
    )
    expect(offLoopback(pageRequests(t.page))).toEqual([])
  })

  it("the wallet's Solana and Bitcoin account changes show; a reload restores every family without a new QR code", async () => {
    const w = await connectAll(t.page)
    const otherSol = solanaKey('sigil e2e walletconnect solana 2').address
    const otherBtc = bitcoinKey('sigil e2e walletconnect bitcoin 2').address
    await w.emitEvent('accountsChanged', [otherSol], env.solana.caipNetworkId)
    await waitText(t.page, 'solana-address', otherSol)
    await w.emitEvent('bip122_addressesChanged', [{ address: otherBtc, intention: 'payment' }], env.bitcoin.caipNetworkId)
    await waitText(t.page, 'bip122-address', otherBtc)

    // The session's own accounts come back with the reload.
    await t.page.reload()
    for (const ns of ['eip155', 'solana', 'bip122']) await waitText(t.page, `${ns}-status`, 'connected')
    expect(await text(t.page, 'solana-address')).toBe(w.solanaAddress)
    expect(await text(t.page, 'bip122-address')).toBe(w.bitcoinAddress)
    expect((await text(t.page, 'eip155-address'))?.toLowerCase()).toBe(w.address.toLowerCase())
    expect(await ui.dialog(t.page).isVisible()).toBe(false)
    // Signing after the reload still reaches the wallet.
    await t.page.getByRole('button', { name: 'Sign Solana message' }).click()
    await expect.poll(() => text(t.page, 'sol-message-signer'), { timeout: 20_000 }).toBe(w.solanaAddress)
  })
})
