/**
 * Activity on Solana, end to end: the modal sends SOL and an SPL token (SGLS) from the Wallet
 * Standard test wallet on the dev Solana runtime (litesvm); the Activity tab of the Solana
 * network lists both, read by the server from the runtime itself (getSignaturesForAddress and
 * getTransaction: no indexer), with '-' signs and the amounts sent (the fee left out); the
 * receiver's history has them with direction in ('+').
 */
import { join } from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { screenshot } from '../src/browser.js'
import { useDemo } from '../src/fixtures.js'
import { SOLANA_WALLET_LABEL } from '../src/paths.js'
import { base58, SOLANA_WALLET_NAME, solanaKey } from '../src/solana-wallet.js'
import { confirmAndWait, fillSend, review, send } from '../src/send.js'
import { shortAddress, ui } from '../src/ui.js'

const env = inject('e2e')
const t = useDemo({ solana: { rpcUrl: env.solana.rpcUrl }, bitcoin: true })
const ADDRESS = solanaKey(SOLANA_WALLET_LABEL).address
/** A block explorer for the local chains (the demo's ?explorer=): the sent state links the signature. */
const EXPLORER = 'http://127.0.0.1:5100'
const shots = () => join(env.artifactsDir, 'e2e')
/** A fresh address nobody holds a key for. */
const freshAddress = () => base58(crypto.getRandomValues(new Uint8Array(32)))

interface HistoryItem {
  id: string
  metadata: { hash: string; operationType: string; sentFrom: string; sentTo: string; status: string }
  transfers: { fungible_info?: { symbol: string }; direction: string; quantity: { numeric: string } }[]
}

/** The first page of the server's history of `address` on the dev Solana chain. */
async function serverHistory(address: string): Promise<HistoryItem[]> {
  const url = new URL(`${env.apiUrl}/v1/account/${address}/history`)
  url.searchParams.set('projectId', env.projectId)
  url.searchParams.set('chainId', env.solana.caipNetworkId)
  const res = await fetch(url, { headers: { origin: new URL(t.demoUrl).origin } })
  if (!res.ok) throw new Error(`history: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { data: HistoryItem[] }).data
}

const row = (page: Page, hash: string) => ui.dialog(page).locator(`[data-testid="activity-row"][data-hash="${hash}"]`)
async function rowText(page: Page, hash: string) {
  const r = row(page, hash)
  return {
    name: (await r.locator('.name').innerText()).trim(),
    amount: (await r.getByTestId('activity-amount').allInnerTexts()).join(' '),
    party: (await r.locator('.party').innerText()).trim(),
  }
}

/** Sends `amount` of `token` to `to` from the Account view; the transaction's signature. */
async function sendFromModal(page: Page, token: string, amount: string, to: string): Promise<string> {
  await send.open(page).click()
  await send.form(page).waitFor()
  await fillSend(page, { token, amount, to })
  await review(page)
  const signature = await confirmAndWait(page)
  expect(await send.sent(page).locator('.headline').innerText()).toBe(`Sent ${amount} ${token}`)
  await send.done(page).click()
  return signature
}

describe('Activity on Solana', () => {
  it("lists the modal's SOL and SGLS sends with '-' and the amounts sent; the receiver's history has them as received", async () => {
    const page = t.page
    await page.goto(`${t.demoUrl}?families=eip155,solana,bip122&siwx=off&explorer=${encodeURIComponent(EXPLORER)}`)
    await page.getByRole('button', { name: 'Open modal' }).click()
    await ui.walletButton(page, SOLANA_WALLET_NAME).click()
    await page.waitForFunction(() => document.querySelector('[data-testid="solana-status"]')?.textContent === 'connected', undefined, { timeout: 20_000 })
    await page.getByRole('button', { name: 'Open modal' }).click()
    await ui.tokenRow(page, 'SGLS').waitFor({ timeout: 15_000 })

    const receiver = freshAddress()
    const sol = await sendFromModal(page, 'SOL', '1.5', receiver)
    await ui.tokenRow(page, 'SGLS').waitFor({ timeout: 15_000 })
    const sgls = await sendFromModal(page, 'SGLS', '25', receiver)
    for (const signature of [sol, sgls]) expect(signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)

    await ui.dialog(page).getByRole('tab', { name: 'Activity' }).click()
    // Shown at once (the session's entries), then as the server reads them from the runtime.
    for (const signature of [sol, sgls]) {
      await row(page, signature).waitFor({ timeout: 20_000 })
      await expect.poll(() => row(page, signature).getAttribute('data-listed'), { timeout: 30_000 }).toBe('true')
      expect(await row(page, signature).getAttribute('data-status')).toBe('confirmed')
    }
    const [newest, second] = await ui
      .dialog(page)
      .getByTestId('activity-row')
      .evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.hash))
    expect([newest, second]).toEqual([sgls, sol])
    // 1.5 SOL without the fee; 25 SGLS, and the rent of the receiver's new token account the sender paid.
    expect(await rowText(page, sol)).toEqual({ name: 'Sent', amount: '-1.5 SOL', party: `to ${shortAddress(receiver)}` })
    expect(await rowText(page, sgls)).toEqual({ name: 'Sent', amount: '-25 SGLS -0.002 SOL', party: `to ${shortAddress(receiver)}` })
    expect(await row(page, sol).locator('a').getAttribute('href')).toBe(`${EXPLORER}/tx/${sol}`)
    await screenshot(page, shots(), 'activity-solana-desktop-light')

    // The server's answer for both sides: the sender's out, the receiver's in.
    const mine = await serverHistory(ADDRESS)
    const theirs = await serverHistory(receiver)
    const summary = (items: HistoryItem[], signature: string) => {
      const item = items.find((i) => i.metadata.hash === signature)
      return item && { op: item.metadata.operationType, moved: item.transfers.map((m) => `${m.direction} ${m.quantity.numeric} ${m.fungible_info?.symbol}`) }
    }
    expect(summary(mine, sol)).toEqual({ op: 'send', moved: ['out 1.5 SOL'] })
    expect(summary(mine, sgls)).toEqual({ op: 'send', moved: ['out 25 SGLS', 'out 0.00203928 SOL'] })
    expect(theirs.map((i) => i.metadata.hash)).toEqual([sgls, sol])
    expect(summary(theirs, sol)).toEqual({ op: 'receive', moved: ['in 1.5 SOL'] })
    expect(summary(theirs, sgls)).toEqual({ op: 'receive', moved: ['in 25 SGLS'] })
    expect(theirs.every((i) => i.metadata.sentFrom === ADDRESS && i.metadata.status === 'confirmed')).toBe(true)
  })
})
