/**
 * Bitcoin end to end: the sats-connect-shaped test wallet (a real P2WPKH key; it signs in the
 * test process), the real server (balance from the regtest node's Esplora route, BIP-322
 * sign-in verified in Rust) and the bcoin regtest node itself.
 */
import { join } from 'node:path'
import * as ecc from '@bitcoinerlab/secp256k1'
import { networks, Psbt } from 'bitcoinjs-lib'
import bitcoinMessage from 'bitcoinjs-message'
import { describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { DEMO_MESSAGE } from '../../apps/demo/src/contracts.js'
import { BITCOIN_WALLET_NAME, bitcoinKey } from '../src/bitcoin-wallet.js'
import { screenshot } from '../src/browser.js'
import { useDemo } from '../src/fixtures.js'
import { BITCOIN_WALLET_LABEL } from '../src/paths.js'
import { fillSend, review, send } from '../src/send.js'
import { ui } from '../src/ui.js'

const env = inject('e2e')
const t = useDemo({ solana: { rpcUrl: env.solana.rpcUrl }, bitcoin: true })
const KEY = bitcoinKey(BITCOIN_WALLET_LABEL)
const FAMILIES = 'families=eip155,solana,bip122'

const text = (page: Page, testId: string) => page.getByTestId(testId).textContent()
const waitText = (page: Page, testId: string, value: string, timeout = 20_000) =>
  page.waitForFunction(([id, v]) => document.querySelector(`[data-testid="${id}"]`)?.textContent === v, [testId, value] as const, { timeout })

/** The address's balance as the regtest node's Esplora route reports it, in BTC, as the modal shows it. */
async function btcShown(address: string): Promise<string> {
  const stats = (await (await fetch(`${env.bitcoin.esploraUrl}/address/${address}`)).json()) as Record<
    string,
    { funded_txo_sum: number; spent_txo_sum: number }
  >
  const sats = ['chain_stats', 'mempool_stats'].reduce((n, k) => n + (stats[k]?.funded_txo_sum ?? 0) - (stats[k]?.spent_txo_sum ?? 0), 0)
  return `${(Math.floor(sats / 1e5) / 1000).toFixed(3)} BTC`
}

/** The regtest node's Esplora API (GET as JSON, or POST a body as text). */
async function esplora<T>(path: string, body?: string): Promise<T> {
  const res = await fetch(`${env.bitcoin.esploraUrl}${path}`, body === undefined ? {} : { method: 'POST', body })
  const text = await res.text()
  if (!res.ok) throw new Error(`${path}: ${res.status} ${text}`)
  return (body === undefined && !path.endsWith('/hex') ? JSON.parse(text) : text) as T
}
/** A demo field once it shows something ('—' means nothing yet). */
async function filled(page: Page, testId: string): Promise<string> {
  await page.waitForFunction((id) => (document.querySelector(`[data-testid="${id}"]`)?.textContent ?? '—') !== '—', testId, { timeout: 20_000 })
  return (await text(page, testId)) as string
}

async function connectBitcoin(page: Page, query = 'siwx=off') {
  await page.goto(`${t.demoUrl}?${FAMILIES}&${query}`)
  await page.getByRole('button', { name: 'Open modal' }).click()
  await ui.walletButton(page, BITCOIN_WALLET_NAME).click()
}

describe('Bitcoin', () => {
  it('connects the sats-connect test wallet (payment address first) and shows its regtest balance', async () => {
    await connectBitcoin(t.page)
    await waitText(t.page, 'bip122-status', 'connected')
    expect(KEY.address).toMatch(/^bcrt1q/)
    expect(await text(t.page, 'bip122-address')).toBe(KEY.address)
    expect(await text(t.page, 'network')).toBe(`Bitcoin Regtest (${env.bitcoin.caipNetworkId})`)
    // 101 blocks mined to the key at start: 5050 BTC.
    const expected = await btcShown(KEY.address)
    expect(expected).toBe('5050.000 BTC')
    await waitText(t.page, 'bip122-balance', expected)
    // The wallet's two addresses, by purpose; the payment one is the account.
    const accounts = await t.page.evaluate(async () => {
      const provider = (
        window as unknown as Record<string, { request(m: string, p: unknown): Promise<{ result: { addresses: { address: string; purpose: string }[] } }> }>
      ).SigilTestBitcoinProvider
      return (await provider?.request('wallet_getAccount', null))?.result.addresses.map((a) => a.purpose)
    })
    expect(accounts).toEqual(['payment', 'ordinals'])
  })

  it('required sign-in signs BIP-322 with the P2WPKH key and the server returns the Bitcoin session', async () => {
    await connectBitcoin(t.page, 'siwx=required')
    await ui
      .dialog(t.page)
      .getByRole('button', { name: /^sign$/i })
      .click()
    await waitText(t.page, 'siwx-status', 'signed-in')
    expect(await text(t.page, 'siwx-address')).toBe(KEY.address)
    expect(await text(t.page, 'siwx-chain')).toBe(env.bitcoin.caipNetworkId)
    const raw = await t.page.evaluate(() => localStorage.getItem('@appkit/siwx-auth-token'))
    const token = raw?.startsWith('"') ? (JSON.parse(raw) as string) : raw
    const res = await fetch(`${env.apiUrl}/auth/v1/session?projectId=${env.projectId}&st=e2e&sv=0`, { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(200)
    const session = (await res.json()) as { message: string; signature: string; data: { accountAddress: string } }
    expect(session.data.accountAddress).toBe(KEY.address)
    expect(session.message).toContain('wants you to sign in with your Bitcoin account:')
    // A BIP-322 simple signature: the witness stack (2 items: DER signature + 33-byte key).
    expect(Buffer.from(session.signature, 'base64')[0]).toBe(2)
  })

  it('a tampered BIP-322 signature is refused by the server', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${env.apiUrl}${path}?projectId=${env.projectId}&st=e2e&sv=0`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const { nonce } = (await (await post('/auth/v1/nonce', {})).json()) as { nonce: string }
    const origin = new URL(t.demoUrl)
    const issued = new Date(Date.now() - 5000).toISOString().replace(/\.\d{3}Z$/, 'Z')
    const message = `${origin.host} wants you to sign in with your Bitcoin account:\n${KEY.address}\n\nSign in to the Sigil demo.\n\nURI: ${origin.origin}\nVersion: 1\nChain ID: ${env.bitcoin.caipNetworkId.split(':')[1]}\nNonce: ${nonce}\nIssued At: ${issued}`
    const { bip322Sign } = await import('../src/bitcoin-wallet.js')
    const bad = await post('/auth/v1/authenticate', {
      message: message.replace('Sign in to', 'Pay from'),
      signature: bip322Sign(BITCOIN_WALLET_LABEL, message),
    })
    expect(bad.status).toBe(401)
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe('Invalid signature')
    const good = await post('/auth/v1/authenticate', { message, signature: bip322Sign(BITCOIN_WALLET_LABEL, message) })
    expect(good.status).toBe(200)
  })

  it("signs a legacy ECDSA message through useAppKitProvider('bip122'); it verifies against the payment address", async () => {
    await connectBitcoin(t.page)
    await waitText(t.page, 'bip122-status', 'connected')
    await t.page.getByRole('button', { name: 'Sign message (ECDSA)' }).click()
    const signature = await filled(t.page, 'btc-message-signature')
    // BIP-137: 65 bytes, a header for a compressed P2WPKH key (39-42), then r and s.
    const bytes = Buffer.from(signature, 'base64')
    expect(bytes).toHaveLength(65)
    expect(bytes[0]).toBeGreaterThanOrEqual(39)
    expect(bytes[0]).toBeLessThanOrEqual(42)
    expect(bitcoinMessage.verify(DEMO_MESSAGE, KEY.address, signature, undefined, true)).toBe(true)
    expect(bitcoinMessage.verify(`${DEMO_MESSAGE}!`, KEY.address, signature, undefined, true)).toBe(false)
    expect(bitcoinMessage.verify(DEMO_MESSAGE, bitcoinKey('someone else').address, signature, undefined, true)).toBe(false)
  })

  it("signs a PSBT spending a regtest UTXO through useAppKitProvider('bip122'); the finalized transaction is accepted and mined", async () => {
    await connectBitcoin(t.page)
    await waitText(t.page, 'bip122-status', 'connected')
    // A mature coinbase output of the wallet's payment address (101 blocks were mined to it).
    const utxos = await esplora<{ txid: string; vout: number; value: number; status: { confirmed: boolean; confirmations?: number } }[]>(
      `/address/${KEY.address}/utxo`,
    )
    const coin = utxos.find((u) => u.status.confirmed && (u.status.confirmations ?? 0) > 100)
    if (!coin) throw new Error(`no mature UTXO for ${KEY.address}: ${JSON.stringify(utxos)}`)
    const recipient = bitcoinKey(`psbt recipient ${Date.now()}`).address
    const amount = 100_000_000
    const fee = 10_000
    const psbt = new Psbt({ network: networks.regtest })
      .addInput({ hash: coin.txid, index: coin.vout, witnessUtxo: { script: KEY.output, value: coin.value } })
      .addOutput({ address: recipient, value: amount })
      .addOutput({ address: KEY.address, value: coin.value - amount - fee })

    await t.page.getByRole('textbox', { name: 'PSBT to sign (base64)' }).fill(psbt.toBase64())
    await t.page.getByRole('button', { name: 'Sign PSBT' }).click()
    const signed = Psbt.fromBase64(await filled(t.page, 'btc-signed-psbt'), { network: networks.regtest })
    // One signature, by the payment key, valid for the input's sighash.
    expect(signed.data.inputs[0]?.partialSig?.map((p) => Buffer.from(p.pubkey).toString('hex'))).toEqual([KEY.publicKey])
    expect(signed.validateSignaturesOfInput(0, (pubkey, hash, signature) => ecc.verify(hash, pubkey, signature))).toBe(true)
    const tx = signed.finalizeAllInputs().extractTransaction()

    // The node checks the script and signature itself: it takes the transaction into its mempool.
    const txid = await esplora<string>('/tx', tx.toHex())
    expect(txid).toBe(tx.getId())
    const pending = await esplora<{ mempool_stats: { funded_txo_sum: number } }>(`/address/${recipient}`)
    expect(pending.mempool_stats.funded_txo_sum).toBe(amount)
    await fetch(`${env.bitcoin.esploraUrl}/dev/mine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: KEY.address, blocks: 1 }),
    })
    const mined = await esplora<{ chain_stats: { funded_txo_sum: number } }>(`/address/${recipient}`)
    expect(mined.chain_stats.funded_txo_sum).toBe(amount)
    expect(await esplora<string>(`/tx/${txid}/hex`)).toBe(tx.toHex())
    await screenshot(t.page, join(env.artifactsDir, 'e2e'), 'bitcoin-provider-card', { fullPage: true })
  })

  it('required sign-in with the legacy ECDSA signature: the server verifies it and returns the Bitcoin session', async () => {
    await connectBitcoin(t.page, 'siwx=required&bitcoinSignIn=ecdsa')
    await ui
      .dialog(t.page)
      .getByRole('button', { name: /^sign$/i })
      .click()
    await waitText(t.page, 'siwx-status', 'signed-in')
    expect(await text(t.page, 'siwx-address')).toBe(KEY.address)
    const raw = await t.page.evaluate(() => localStorage.getItem('@appkit/siwx-auth-token'))
    const token = raw?.startsWith('"') ? (JSON.parse(raw) as string) : raw
    const res = await fetch(`${env.apiUrl}/auth/v1/session?projectId=${env.projectId}&st=e2e&sv=0`, { headers: { authorization: `Bearer ${token}` } })
    expect(res.status).toBe(200)
    const session = (await res.json()) as { message: string; signature: string; data: { accountAddress: string; chainId: string } }
    expect(session.data.accountAddress).toBe(KEY.address)
    expect(session.data.chainId).toBe(env.bitcoin.caipNetworkId)
    // The legacy signature (65 bytes), not BIP-322's witness, and it is the address's own.
    expect(Buffer.from(session.signature, 'base64')).toHaveLength(65)
    expect(bitcoinMessage.verify(session.message, KEY.address, session.signature, undefined, true)).toBe(true)
  })

  it("sends bitcoin from the Account view through the wallet's own sendTransfer: the receiver gets exactly the amount once mined", async () => {
    await connectBitcoin(t.page, 'siwx=off')
    await waitText(t.page, 'bip122-status', 'connected')
    const page = t.page
    if (!(await send.open(page).isVisible())) await page.getByRole('button', { name: 'Open modal' }).click()
    await ui.tokenRow(page, 'BTC').waitFor({ timeout: 15_000 })
    await send.open(page).click()
    await send.form(page).waitFor()
    const recipient = bitcoinKey(`send recipient ${Date.now()}`).address
    await fillSend(page, { token: 'BTC', amount: '0.00123', to: recipient })
    await review(page)
    // Bitcoin's Preview has no gas estimate: the wallet picks the fee.
    expect(await send.fee(page).count()).toBe(0)
    await send.confirm(page).click()
    await send.sent(page).waitFor({ timeout: 30_000 })
    expect(await send.sent(page).locator('.headline').innerText()).toBe('Sent 0.00123 BTC')
    const txid = (await send.sent(page).getByTestId('send-hash').getAttribute('title')) ?? ''
    expect(txid).toMatch(/^[0-9a-f]{64}$/)
    const pending = await esplora<{ mempool_stats: { funded_txo_sum: number } }>(`/address/${recipient}`)
    expect(pending.mempool_stats.funded_txo_sum).toBe(123_000)
    await fetch(`${env.bitcoin.esploraUrl}/dev/mine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address: KEY.address, blocks: 1 }),
    })
    const mined = await esplora<{ chain_stats: { funded_txo_sum: number } }>(`/address/${recipient}`)
    expect(mined.chain_stats.funded_txo_sum).toBe(123_000)
    await screenshot(page, join(env.artifactsDir, 'e2e'), 'send-sent-bitcoin')
  })
})
