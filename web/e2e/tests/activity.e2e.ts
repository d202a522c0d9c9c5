/**
 * Activity, end to end on anvil and the server's history indexer: a script makes 150+ ETH
 * transfers to and from one account (anvil's automine, eth_sendTransaction from unlocked and
 * impersonated accounts), an SGL payment to it, and an address-poisoning transfer (a zero-value
 * SGL transferFrom out of the account, made by someone else, to an address that looks like its
 * counterparty's). The Activity tab lists them newest first with the right signs, pages through
 * all of them by scrolling, hides the poisoning row until asked and then marks it without an
 * address to copy. A send from the modal shows at once as sent (its receipt), then as the server
 * has it. Screenshots desktop and phone, light and dark, with axe.
 */
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { getAddress, parseEther, type Hex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { screenshot, seriousA11yViolations, type Theme } from '../src/browser.js'
import { accounts, rpc } from '../src/chain.js'
import { useDemo } from '../src/fixtures.js'
import { connectTestWallet, shortAddress, ui } from '../src/ui.js'

const t = useDemo()
const shots = () => join(t.env.artifactsDir, 'e2e')
/** The test wallet holds anvil's account 5, which no other e2e file uses. */
const ME_INDEX = 5
const TRANSFERS = 152
const word = (hex: string) => hex.replace(/^0x/, '').toLowerCase().padStart(64, '0')

/** A fresh address anvil lets the test send from (impersonated, funded). */
async function impersonated(): Promise<Hex> {
  const address = getAddress(`0x${randomBytes(20).toString('hex')}`)
  await rpc(t.env.rpcUrl, 'anvil_impersonateAccount', [address])
  await rpc(t.env.rpcUrl, 'anvil_setBalance', [address, `0x${parseEther('1000').toString(16)}`])
  return address
}

async function sendTx(tx: Record<string, string>): Promise<Hex> {
  return (await rpc<string>(t.env.rpcUrl, 'eth_sendTransaction', [tx])).toLowerCase() as Hex
}

interface HistoryItem {
  id: string
  metadata: { hash: string; spam: { reason: string } | null; operationType: string }
}

/** The server's whole history of `address` on the dev chain (every page). */
async function serverHistory(address: string, includeSpam: boolean): Promise<HistoryItem[]> {
  const items: HistoryItem[] = []
  let cursor: string | null = null
  do {
    const url = new URL(`${t.env.apiUrl}/v1/account/${address}/history`)
    url.searchParams.set('projectId', t.env.projectId)
    url.searchParams.set('chainId', 'eip155:31337')
    if (includeSpam) url.searchParams.set('includeSpam', 'true')
    if (cursor) url.searchParams.set('cursor', cursor)
    const res = await fetch(url, { headers: { origin: new URL(t.env.demoUrl ?? '').origin } })
    if (!res.ok) throw new Error(`history: ${res.status} ${await res.text()}`)
    const page = (await res.json()) as { data: HistoryItem[]; next: string | null }
    items.push(...page.data)
    cursor = page.next
  } while (cursor)
  return items
}

/** What the script made, shared by the tests. */
const made = { me: '' as Hex, you: '' as Hex, lookalike: '' as Hex, sent: [] as Hex[], received: [] as Hex[], sgl: '' as Hex, poison: '' as Hex }

beforeAll(async () => {
  const all = await accounts(t.env.rpcUrl)
  made.me = getAddress(all[ME_INDEX] as string)
  made.you = await impersonated()
  const poisoner = await impersonated()
  await rpc(t.env.rpcUrl, 'anvil_setBalance', [made.me, `0x${parseEther('10000').toString(16)}`])
  // 152 ETH transfers, in turn from the account and to it: 0.001, 0.002, … ETH.
  for (let i = 0; i < TRANSFERS; i++) {
    const value = `0x${(parseEther('0.001') * BigInt(i + 1)).toString(16)}`
    if (i % 2 === 0) made.sent.push(await sendTx({ from: made.me, to: made.you, value }))
    else made.received.push(await sendTx({ from: made.you, to: made.me, value }))
  }
  // 2.5 SGL from the deployer (account 0 holds the supply).
  const sgl = t.env.devchain.tokens.find((token) => token.symbol === 'SGL')?.address as string
  made.sgl = await sendTx({ from: all[0], to: sgl, data: `0xa9059cbb${word(made.me)}${word(parseEther('2.5').toString(16))}` })
  // Address poisoning: someone else moves 0 SGL out of the account to an address with the counterparty's first and last characters.
  made.lookalike = getAddress(`${made.you.slice(0, 6)}${'0'.repeat(30)}${made.you.slice(-6)}`.toLowerCase())
  made.poison = await sendTx({ from: poisoner, to: sgl, data: `0x23b872dd${word(made.me)}${word(made.lookalike)}${word('0')}` })
  // The indexer has it all when the poisoning transfer (the last one) is listed as spam.
  await serverWait(async () => (await serverHistory(made.me, true)).find((item) => item.metadata.hash.toLowerCase() === made.poison && item.metadata.spam))
}, 240_000)

/** Asks `check` again until it gives a value (the indexer reads new blocks every 2 s). */
async function serverWait<T>(check: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error('the history server did not list the transactions in time')
    await new Promise((r) => setTimeout(r, 500))
  }
}

/** The demo with the test wallet on the account, connected, the Activity tab open. */
async function openActivity(page: Page): Promise<void> {
  await page.goto(`${t.demoUrl}?siwx=off`)
  await connectTestWallet(page)
  await ui.accountButton(page).click()
  await ui.dialog(page).getByRole('tab', { name: 'Activity' }).click()
  await activityRows(page).first().waitFor({ timeout: 20_000 })
}

const activityRows = (page: Page) => ui.dialog(page).getByTestId('activity-row')
const row = (page: Page, hash: string) => ui.dialog(page).locator(`[data-testid="activity-row"][data-hash="${hash}"]`)
async function rowText(page: Page, hash: string) {
  const r = row(page, hash)
  return {
    name: (await r.locator('.name').innerText()).trim(),
    amount: (await r.getByTestId('activity-amount').allInnerTexts()).join(' '),
    party: (await r.locator('.party').innerText()).trim(),
  }
}

describe('Activity', () => {
  it('lists the newest first with the right signs, and pages through 150+ transactions by scrolling', async () => {
    const page = await t.newPage({ wallet: { accountIndex: ME_INDEX } })
    await openActivity(page)
    // The poisoning transfer is the newest, but hidden: the SGL payment comes first.
    await expect.poll(() => activityRows(page).first().getAttribute('data-hash')).toBe(made.sgl)
    expect(await row(page, made.poison).count()).toBe(0)
    expect(await rowText(page, made.sgl)).toEqual({ name: 'Received', amount: '+2.5 SGL', party: expect.stringMatching(/^from 0x/) })
    // The last ETH transfers: 0.152 received (the 152nd), 0.151 sent.
    expect(await rowText(page, made.received.at(-1) as string)).toEqual({ name: 'Received', amount: '+0.152 ETH', party: `from ${shortAddress(made.you)}` })
    expect(await rowText(page, made.sent.at(-1) as string)).toEqual({ name: 'Sent', amount: '-0.151 ETH', party: `to ${shortAddress(made.you)}` })
    expect(await ui.dialog(page).locator('.activity h3').first().innerText()).toBe(
      new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric' }).format(new Date()),
    )
    expect(await activityRows(page).first().locator('.when').innerText()).toMatch(/^(now|\d+ mins?)$/)
    const firstPage = await activityRows(page).count()
    expect(firstPage).toBeLessThanOrEqual(21)
    await screenshot(page, shots(), 'activity-desktop-light')

    // Scrolling to the end of the list asks for the next page, until there is none.
    const scroller = ui.dialog(page).getByTestId('activity-scroll')
    const expected = TRANSFERS + 1
    for (let pages = 0; pages < 20; pages++) {
      const before = await activityRows(page).count()
      if (before >= expected && (await ui.dialog(page).getByTestId('activity-sentinel').count()) === 0) break
      await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
      await expect
        .poll(async () => (await activityRows(page).count()) > before || (await ui.dialog(page).getByTestId('activity-sentinel').count()) === 0)
        .toBe(true)
    }
    const hashes = await activityRows(page).evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.hash))
    expect(new Set(hashes).size).toBe(hashes.length)
    for (const hash of [...made.sent, ...made.received, made.sgl]) expect(hashes).toContain(hash)
    expect(hashes).not.toContain(made.poison)
    expect(await ui.dialog(page).getByRole('button', { name: 'Load more' }).count()).toBe(0)
    // The oldest: the first transfer, 0.001 ETH sent.
    expect(hashes.at(-1)).toBe(made.sent[0])
    expect(await rowText(page, made.sent[0] as string)).toEqual({ name: 'Sent', amount: '-0.001 ETH', party: `to ${shortAddress(made.you)}` })
  })

  it('the poisoning transfer is hidden, then shown when asked: marked spam, no address and nothing to copy or follow', async () => {
    const page = await t.newPage({ wallet: { accountIndex: ME_INDEX } })
    await openActivity(page)
    await expect.poll(() => activityRows(page).first().getAttribute('data-hash')).toBe(made.sgl)
    await ui.dialog(page).getByRole('button', { name: 'Show hidden transactions' }).click()
    const poisoned = row(page, made.poison)
    await poisoned.waitFor()
    expect(await activityRows(page).first().getAttribute('data-hash')).toBe(made.poison)
    expect(await poisoned.getAttribute('data-spam')).toBe('zero-value')
    expect(await poisoned.locator('.tag').innerText()).toMatch(/^spam$/i)
    const text = await poisoned.innerText()
    expect(text).toMatch(/Possible address poisoning/)
    expect(text).toContain('-0 SGL')
    // Neither the lookalike address nor the poisoner's is there to copy; nothing to click.
    expect(text).not.toMatch(/0x[0-9a-f]{2}/i)
    expect(await poisoned.locator('a, button').count()).toBe(0)
    await screenshot(page, shots(), 'activity-spam-desktop-light')
    const hide = ui.dialog(page).getByRole('button', { name: 'Hide spam (1)' })
    await hide.click()
    await poisoned.waitFor({ state: 'detached' })
    await ui.dialog(page).getByRole('button', { name: 'Show hidden transactions' }).waitFor()
  })

  it('a send from the modal shows at once as sent (the receipt), then as the server lists it', async () => {
    const page = await t.newPage({ wallet: { accountIndex: ME_INDEX } })
    // The indexer reads a new block within 2 s: until the test lets it, the page gets the server's
    // history without the new transaction, as it would before the indexer got to it.
    const known = new Set([...made.sent, ...made.received, made.sgl, made.poison])
    let holding = true
    await page.route(
      (url) => url.pathname.endsWith('/history'),
      async (route) => {
        const response = await route.fetch()
        const body = (await response.json()) as { data: HistoryItem[]; next: string | null }
        if (holding) body.data = body.data.filter((item) => known.has(item.metadata.hash.toLowerCase() as Hex))
        await route.fulfill({ response, json: body })
      },
    )
    // A block explorer for the local chain (the demo's ?explorer=): the sent state links the transaction.
    await page.goto(`${t.demoUrl}?siwx=off&explorer=${encodeURIComponent('http://127.0.0.1:5100')}`)
    await connectTestWallet(page)
    await ui.accountButton(page).click()
    await ui.tokenRow(page, 'ETH').waitFor({ timeout: 15_000 })
    const dialog = ui.dialog(page)
    await dialog.getByTestId('account-send').click()
    await dialog.getByTestId('send-token').click()
    await dialog.locator('[data-testid="send-token-option"][data-symbol="ETH"]').click()
    await dialog.getByTestId('send-amount').fill('0.0123')
    await dialog.getByTestId('send-to').fill(made.you)
    await expect.poll(() => dialog.getByTestId('send-submit').innerText(), { timeout: 15_000 }).toBe('Review Send')
    await dialog.getByTestId('send-submit').click()
    await dialog.locator('[data-testid="send-confirm"]:enabled').waitFor({ timeout: 15_000 })
    await dialog.getByTestId('send-confirm').click()
    await dialog.getByTestId('send-sent').waitFor({ timeout: 30_000 })
    const hash = ((await dialog.getByTestId('send-explorer').getAttribute('href')) ?? '').split('/').pop()?.toLowerCase() ?? ''
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    // The server has it by now: only the held answers keep it out of the list.
    await serverWait(async () => (await serverHistory(made.me, false)).find((item) => item.metadata.hash.toLowerCase() === hash))
    await dialog.getByRole('button', { name: 'Done' }).click()
    await dialog.getByRole('tab', { name: 'Activity' }).click()
    const sent = row(page, hash)
    await sent.waitFor()
    // The session's own entry, not the server's: the wallet's receipt said the chain has it.
    expect([await sent.getAttribute('data-status'), await sent.getAttribute('data-listed')]).toEqual(['confirmed', 'false'])
    // Quantities show floored to 3 decimals.
    expect(await rowText(page, hash)).toEqual({ name: 'Sent', amount: '-0.012 ETH', party: `to ${shortAddress(made.you)}` })
    expect(await activityRows(page).first().getAttribute('data-hash')).toBe(hash)
    await screenshot(page, shots(), 'activity-session-desktop-light')
    // The list asks again every few seconds while a session entry is not listed: the indexed row replaces it.
    holding = false
    await expect.poll(() => sent.getAttribute('data-listed'), { timeout: 30_000 }).toBe('true')
    expect(await sent.getAttribute('data-status')).toBe('confirmed')
    expect(await rowText(page, hash)).toEqual({ name: 'Sent', amount: '-0.012 ETH', party: `to ${shortAddress(made.you)}` })
    expect(await row(page, hash).count()).toBe(1)
  })

  for (const theme of ['light', 'dark'] as Theme[]) {
    it(`${theme}: an account without transactions shows the empty state; a failing server 'Failed to fetch transactions' with the list empty`, async () => {
      // Account 4: no e2e file sends from or to it.
      const empty = await t.newPage({ theme, wallet: { accountIndex: 4 } })
      await empty.goto(`${t.demoUrl}?siwx=off`)
      await connectTestWallet(empty)
      await ui.accountButton(empty).click()
      await ui.dialog(empty).getByRole('tab', { name: 'Activity' }).click()
      const note = ui.dialog(empty).getByTestId('activity-empty')
      await note.waitFor({ timeout: 20_000 })
      expect(await note.innerText()).toContain('No transactions yet.')
      let findings = await seriousA11yViolations(empty)
      expect(findings, JSON.stringify(findings, null, 2)).toEqual([])
      await screenshot(empty, shots(), `activity-empty-desktop-${theme}`)

      const failing = await t.newPage({ theme, wallet: { accountIndex: ME_INDEX } })
      await failing.route(
        (url) => url.pathname.endsWith('/history'),
        (route) => route.fulfill({ status: 502, json: { error: { code: 'UPSTREAM', message: 'The history source did not answer' } } }),
      )
      await failing.goto(`${t.demoUrl}?siwx=off`)
      await connectTestWallet(failing)
      await ui.accountButton(failing).click()
      await ui.dialog(failing).getByRole('tab', { name: 'Activity' }).click()
      await ui.dialog(failing).getByText('Failed to fetch transactions').waitFor({ timeout: 20_000 })
      await ui.dialog(failing).getByTestId('activity-empty').waitFor()
      expect(await activityRows(failing).count()).toBe(0)
      findings = await seriousA11yViolations(failing)
      expect(findings, JSON.stringify(findings, null, 2)).toEqual([])
      await screenshot(failing, shots(), `activity-failed-desktop-${theme}`)
    })

    for (const mobile of [false, true]) {
      const device = mobile ? 'phone' : 'desktop'
      it(`${device}, ${theme}: screenshots with and without the flagged rows; axe finds nothing serious`, async () => {
        const page = await t.newPage({ theme, mobile, wallet: { accountIndex: ME_INDEX } })
        await openActivity(page)
        await row(page, made.sgl).waitFor()
        // The list stays inside the card.
        const list = await ui.dialog(page).getByTestId('activity-scroll').boundingBox()
        const card = await ui.dialog(page).boundingBox()
        expect(list && card && list.x >= card.x && list.x + list.width <= card.x + card.width + 0.5).toBe(true)
        let findings = await seriousA11yViolations(page)
        expect(findings, JSON.stringify(findings, null, 2)).toEqual([])
        await screenshot(page, shots(), `activity-${device}-${theme}`)
        await ui.dialog(page).getByRole('button', { name: 'Show hidden transactions' }).click()
        await row(page, made.poison).waitFor()
        findings = await seriousA11yViolations(page)
        expect(findings, JSON.stringify(findings, null, 2)).toEqual([])
        await screenshot(page, shots(), `activity-spam-${device}-${theme}`)
      })
    }
  }
})
