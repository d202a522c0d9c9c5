/**
 * Bitcoin end to end: the sats-connect-shaped test wallet (a real P2WPKH key; it signs in the
 * test process), the real server (balance from the regtest node's Esplora route, BIP-322
 * sign-in verified in Rust) and the bcoin regtest node itself.
 */
import { describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { BITCOIN_WALLET_NAME, bitcoinKey } from '../src/bitcoin-wallet.js'
import { useDemo } from '../src/fixtures.js'
import { BITCOIN_WALLET_LABEL } from '../src/paths.js'
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
})
