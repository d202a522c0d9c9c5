/**
 * The NFTs tab, end to end on anvil and the server's NFT index: a script mints a badge (ERC-721)
 * and 5 gems (ERC-1155 item 1) to the account and moves badge #1 (minted at deploy, with its
 * metadata) to it from account 1. The tab shows them as the server lists them, images loaded
 * through the server with their names as alt text; a badge is sent (safeTransferFrom: ownerOf is
 * the receiver on chain, the card leaves the grid) and 2 of the 5 gems (balanceOf 3 and 2).
 * Screenshots of the tab, the NFT and the send views on desktop and phone, light and dark, with
 * axe.
 */
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { getAddress, toFunctionSelector, type Hex } from 'viem'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { screenshot, seriousA11yViolations, wallet, type Theme } from '../src/browser.js'
import { accounts, rpc } from '../src/chain.js'
import { useDemo } from '../src/fixtures.js'
import { send } from '../src/send.js'
import { connectTestWallet, shortAddress, ui } from '../src/ui.js'

const t = useDemo()
const shots = () => join(t.env.artifactsDir, 'e2e')
/** The test wallet holds anvil's account 9, which no other e2e file uses. */
const ME_INDEX = 9
const CHAIN = 'eip155:31337'
const EXPLORER = 'http://127.0.0.1:5100'

const word = (hex: string) => hex.replace(/^0x/, '').toLowerCase().padStart(64, '0')
const num = (n: bigint | number) => word(BigInt(n).toString(16))
const MINT_721 = toFunctionSelector('mint(address)')
const MINT_1155 = toFunctionSelector('mint(address,uint256,uint256)')
const SAFE_721 = toFunctionSelector('safeTransferFrom(address,address,uint256)')
const OWNER_OF = toFunctionSelector('ownerOf(uint256)')
const BALANCE_1155 = toFunctionSelector('balanceOf(address,uint256)')
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'

/** A fresh address nobody holds anything at. */
const freshAddress = () => getAddress(`0x${randomBytes(20).toString('hex')}`)

const contracts = () => {
  const nfts = t.env.devchain.nfts
  if (!nfts) throw new Error('the dev deployment has no NFTs')
  return { badge: getAddress(nfts.erc721.address), items: getAddress(nfts.erc1155.address) }
}

interface Receipt {
  status: string
  logs: { address: string; topics: string[] }[]
}

/** Sends from an unlocked anvil account and waits for the receipt (anvil mines at once). */
async function transact(from: string, to: string, data: string): Promise<Receipt> {
  const hash = await rpc<string>(t.env.rpcUrl, 'eth_sendTransaction', [{ from, to, data }])
  for (let i = 0; i < 200; i++) {
    const receipt = await rpc<Receipt | null>(t.env.rpcUrl, 'eth_getTransactionReceipt', [hash])
    if (receipt) {
      if (receipt.status !== '0x1') throw new Error(`${hash} reverted`)
      return receipt
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`${hash} was not mined`)
}

const call = (to: string, data: string) => rpc<string>(t.env.rpcUrl, 'eth_call', [{ to, data }, 'latest'])
const ownerOf = async (id: bigint) => getAddress(`0x${(await call(contracts().badge, `${OWNER_OF}${num(id)}`)).slice(-40)}`)
const itemBalance = async (owner: string, id: bigint) => BigInt(await call(contracts().items, `${BALANCE_1155}${word(owner)}${num(id)}`))

interface ServerNft {
  id: string
  tokenId: string
  standard: string
  amount: string
  name: string
  image: string | null
}

/** What the server lists for `address` on the dev chain (every page). */
async function serverNfts(address: string): Promise<ServerNft[]> {
  const items: ServerNft[] = []
  let cursor: string | null = null
  do {
    const url = new URL(`${t.env.apiUrl}/v1/account/${address}/nfts`)
    url.searchParams.set('projectId', t.env.projectId)
    url.searchParams.set('chainId', CHAIN)
    if (cursor) url.searchParams.set('cursor', cursor)
    const res = await fetch(url, { headers: { origin: new URL(t.env.demoUrl ?? '').origin } })
    if (!res.ok) throw new Error(`nfts: ${res.status} ${await res.text()}`)
    const page = (await res.json()) as { data: ServerNft[]; next: string | null }
    items.push(...page.data)
    cursor = page.next
  } while (cursor)
  return items
}

/** Asks `check` again until it gives a value (the server indexes new blocks every few seconds). */
async function serverWait<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check().catch(() => undefined)
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`the server did not list ${what} in time`)
    await new Promise((r) => setTimeout(r, 500))
  }
}

/** What the script made, shared by the tests. */
const made = { me: '' as Hex, minted: 0n, gemId: 1n }
const badgeId = (id: bigint) => `${CHAIN}:${contracts().badge.toLowerCase()}:${id}`
const gemId = () => `${CHAIN}:${contracts().items.toLowerCase()}:${made.gemId}`

beforeAll(async () => {
  const all = await accounts(t.env.rpcUrl)
  made.me = getAddress(all[ME_INDEX] as string)
  const { badge, items } = contracts()
  // A badge minted to the account (open mint, from the deployer): its id is in the Transfer log.
  const receipt = await transact(all[0], badge, `${MINT_721}${word(made.me)}`)
  const transfer = receipt.logs.find((l) => l.address.toLowerCase() === badge.toLowerCase() && l.topics[0] === TRANSFER_TOPIC)
  made.minted = BigInt(transfer?.topics[3] ?? '0x0')
  // 5 gems (item 1, with its metadata and image).
  await transact(all[0], items, `${MINT_1155}${word(made.me)}${num(made.gemId)}${num(5)}`)
  // Badge #1 (minted at deploy to account 1, with its metadata and image) moves to the account.
  await transact(all[1], badge, `${SAFE_721}${word(all[1])}${word(made.me)}${num(1)}`)
  // The server has them once it lists all three, the gem's and badge #1's images included.
  await serverWait('the minted NFTs with their images', async () => {
    const listed = await serverNfts(made.me)
    const gem = listed.find((n) => n.id === gemId())
    const first = listed.find((n) => n.id === badgeId(1n))
    return listed.some((n) => n.id === badgeId(made.minted)) && gem?.amount === '5' && gem.image && first?.image ? listed : undefined
  })
}, 240_000)

const cards = (page: Page) => ui.dialog(page).getByTestId('nft-card')
const card = (page: Page, id: string) => ui.dialog(page).locator(`[data-testid="nft-card"][data-id="${id}"]`)

/** The demo with the test wallet on the account, connected, the NFTs tab open with its cards. */
async function openNfts(options: { mobile?: boolean; theme?: Theme } = {}): Promise<Page> {
  const page = await t.newPage({ wallet: { accountIndex: ME_INDEX }, mobile: options.mobile ?? false, theme: options.theme ?? 'light' })
  await page.goto(`${t.demoUrl}?siwx=off&explorer=${encodeURIComponent(EXPLORER)}`)
  await connectTestWallet(page)
  await ui.accountButton(page).click()
  await ui.dialog(page).getByRole('tab', { name: 'NFTs' }).click()
  await cards(page).first().waitFor({ timeout: 20_000 })
  return page
}

/** Waits until `img` has loaded (a natural width); resolves to its alt text. */
async function loaded(img: Locator): Promise<string | null> {
  await img.scrollIntoViewIfNeeded()
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), { timeout: 20_000 }).toBeGreaterThan(0)
  return img.getAttribute('alt')
}

async function noSeriousFindings(page: Page, view: string): Promise<void> {
  const findings = await seriousA11yViolations(page)
  expect(findings, `${view}: ${JSON.stringify(findings, null, 2)}`).toEqual([])
}

describe('NFTs', { timeout: 240_000 }, () => {
  it('the minted NFTs show in the grid as the server lists them, images loaded (alt: the name), ×5 on the ERC-1155; three columns', async () => {
    const page = await openNfts()
    const listed = await serverNfts(made.me)
    await expect.poll(() => cards(page).count(), { timeout: 15_000 }).toBe(listed.length)
    expect(await cards(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-id')))).toEqual(listed.map((n) => n.id))
    // The minted badge: its name; an image where its metadata has one, else the placeholder naming it.
    const minted = listed.find((n) => n.id === badgeId(made.minted)) as ServerNft
    expect(await card(page, minted.id).locator('.nft-name').innerText()).toBe(minted.name)
    // A card is a button named by its image (its alt text, or the placeholder's label) and, for an ERC-1155, its amount.
    expect(await ui.dialog(page).getByRole('button', { name: minted.name, exact: true }).getAttribute('data-id')).toBe(minted.id)
    const gem = listed.find((n) => n.id === gemId()) as ServerNft
    expect(
      await ui
        .dialog(page)
        .getByRole('button', { name: new RegExp(`^${gem.name}\\s*×5$`) })
        .getAttribute('data-id'),
    ).toBe(gem.id)
    if (minted.image) expect(await loaded(card(page, minted.id).locator('img'))).toBe(minted.name)
    else expect(await card(page, minted.id).getByRole('img').getAttribute('aria-label')).toBe(minted.name)
    // The gems and badge #1: images through the server, loaded, named.
    for (const id of [gemId(), badgeId(1n)]) {
      const img = card(page, id).locator('img')
      expect(await img.getAttribute('loading')).toBe('lazy')
      expect(new URL((await img.getAttribute('src')) ?? '').origin).toBe(new URL(t.env.apiUrl).origin)
      expect(await loaded(img)).toBe(listed.find((n) => n.id === id)?.name)
    }
    expect(await card(page, gemId()).getByTestId('nft-count').innerText()).toBe('×5')
    // Three cards to a row in the 360 px modal.
    const boxes = await cards(page).evaluateAll((els) => els.slice(0, 3).map((e) => e.getBoundingClientRect().top))
    expect(new Set(boxes).size).toBe(1)
  })

  for (const mobile of [false, true]) {
    for (const theme of ['light', 'dark'] as Theme[]) {
      const device = mobile ? 'phone' : 'desktop'
      it(`${device}, ${theme}: the tab, an NFT, its send form and Preview look right and axe finds nothing serious`, async () => {
        const page = await openNfts({ mobile, theme })
        await loaded(card(page, gemId()).locator('img'))
        await loaded(card(page, badgeId(1n)).locator('img'))
        await screenshot(page, shots(), `nfts-tab-${device}-${theme}`)
        await noSeriousFindings(page, 'tab')

        await card(page, gemId()).click()
        const item = ui.dialog(page).getByTestId('nft-item')
        await item.waitFor()
        await loaded(item.locator('img'))
        expect(await item.getByTestId('nft-amount').innerText()).toBe('5')
        await screenshot(page, shots(), `nfts-item-${device}-${theme}`)
        await noSeriousFindings(page, 'item')

        await item.getByTestId('nft-send').click()
        await ui.dialog(page).getByTestId('send-nft').waitFor()
        await ui.dialog(page).getByTestId('nft-amount-input').fill('2')
        await send.to(page).fill('alice.eth')
        await expect.poll(() => send.resolved(page).innerText(), { timeout: 15_000 }).toMatch(/^Sends to 0x/)
        await expect.poll(() => send.submit(page).innerText(), { timeout: 15_000 }).toBe('Review Send')
        await screenshot(page, shots(), `nfts-send-${device}-${theme}`)
        await noSeriousFindings(page, 'send form')

        await send.submit(page).click()
        await send.preview(page).waitFor()
        await ui.dialog(page).locator('[data-testid="send-confirm"]:enabled').waitFor({ timeout: 15_000 })
        expect(await send.fee(page).innerText()).toMatch(/^up to 0\.\d{1,6} ETH$/)
        expect(await send.previewTo(page).innerText()).toContain('alice.eth')
        await screenshot(page, shots(), `nfts-preview-${device}-${theme}`)
        await noSeriousFindings(page, 'preview')
        // Nothing was sent: the wallet was never asked.
        expect((await wallet(page, 'log')).filter((r) => r.method === 'eth_sendTransaction')).toEqual([])
      })
    }
  }

  for (const theme of ['light', 'dark'] as Theme[]) {
    it(`${theme}: a failing server is said in the tab with 'Try again'; an account without NFTs shows the empty state`, async () => {
      // Account 4: no NFT was ever minted or sent to it.
      const page = await t.newPage({ theme, wallet: { accountIndex: 4 } })
      await page.route('**/v1/account/*/nfts?*', (route) =>
        route.fulfill({ status: 502, contentType: 'application/json', body: '{"error":{"code":"UPSTREAM","message":"down"}}' }),
      )
      await page.goto(`${t.demoUrl}?siwx=off`)
      await connectTestWallet(page)
      await ui.accountButton(page).click()
      await ui.dialog(page).getByRole('tab', { name: 'NFTs' }).click()
      const failed = ui.dialog(page).getByTestId('nfts-failed')
      await failed.waitFor({ timeout: 20_000 })
      expect(await failed.getByRole('alert').innerText()).toBe('Could not load the NFTs.')
      await screenshot(page, shots(), `nfts-failed-desktop-${theme}`)
      await noSeriousFindings(page, 'failed')
      await page.unroute('**/v1/account/*/nfts?*')
      await failed.getByRole('button', { name: 'Try again' }).click()
      const empty = ui.dialog(page).getByTestId('nfts-empty')
      await empty.waitFor({ timeout: 20_000 })
      expect(await empty.innerText()).toContain('No NFTs yet.')
      await screenshot(page, shots(), `nfts-empty-desktop-${theme}`)
      await noSeriousFindings(page, 'empty')
    })
  }

  it('sends the minted badge (ERC-721 safeTransferFrom): ownerOf is the receiver on chain and the card leaves the grid', async () => {
    const page = await openNfts()
    const receiver = freshAddress()
    await card(page, badgeId(made.minted)).click()
    await ui.dialog(page).getByTestId('nft-item').waitFor()
    await ui.dialog(page).getByTestId('nft-send').click()
    await send.to(page).fill(receiver)
    await expect.poll(() => send.submit(page).innerText(), { timeout: 15_000 }).toBe('Review Send')
    await send.submit(page).click()
    await ui.dialog(page).locator('[data-testid="send-confirm"]:enabled').waitFor({ timeout: 15_000 })
    expect(await send.previewTo(page).innerText()).toBe(shortAddress(receiver))
    await send.confirm(page).click()
    await send.sent(page).waitFor({ timeout: 30_000 })
    expect(await send.sent(page).locator('.headline').innerText()).toBe(`Sent 1 Sigil Badge #${made.minted}`)
    const [tx] = (await wallet(page, 'log')).filter((r) => r.method === 'eth_sendTransaction')
    expect((tx?.params as [{ to: string; data: string }] | undefined)?.[0]).toMatchObject({
      to: expect.stringMatching(new RegExp(`^${contracts().badge}$`, 'i')),
      data: `0x42842e0e${word(made.me)}${word(receiver)}${num(made.minted)}`,
    })
    expect(await ownerOf(made.minted)).toBe(receiver)
    await screenshot(page, shots(), 'nfts-sent-desktop-light')
    await send.done(page).click()
    // Back on the NFTs tab: the badge is gone, the others stay.
    await card(page, badgeId(1n)).waitFor()
    await expect.poll(() => card(page, badgeId(made.minted)).count(), { timeout: 15_000 }).toBe(0)
    // And it stays gone once the server has indexed the send.
    await serverWait('the badge gone', async () => ((await serverNfts(made.me)).some((n) => n.id === badgeId(made.minted)) ? undefined : true))
    await ui.dialog(page).getByTestId('nfts-refresh').click()
    await card(page, gemId()).waitFor()
    expect(await card(page, badgeId(made.minted)).count()).toBe(0)
  })

  it('sends 2 of the 5 gems (ERC-1155 safeTransferFrom with an amount) to a name: balanceOf 3 and 2 on chain, ×3 on the card', async () => {
    const [, alice] = await accounts(t.env.rpcUrl)
    const aliceBefore = await itemBalance(alice, made.gemId)
    const page = await openNfts({ mobile: true, theme: 'dark' })
    await card(page, gemId()).click()
    await ui.dialog(page).getByTestId('nft-send').click()
    const amount = ui.dialog(page).getByTestId('nft-amount-input')
    expect(await amount.inputValue()).toBe('1')
    await amount.fill('6')
    await send.to(page).fill('alice.eth')
    await expect.poll(() => send.submit(page).innerText(), { timeout: 15_000 }).toBe('Check the Amount')
    await amount.fill('2')
    await expect.poll(() => send.submit(page).innerText(), { timeout: 15_000 }).toBe('Review Send')
    await send.submit(page).click()
    await ui.dialog(page).locator('[data-testid="send-confirm"]:enabled').waitFor({ timeout: 15_000 })
    await send.confirm(page).click()
    await send.sent(page).waitFor({ timeout: 30_000 })
    expect(await send.sent(page).locator('.headline').innerText()).toBe('Sent 2 Sigil Gem')
    expect(await itemBalance(made.me, made.gemId)).toBe(3n)
    expect((await itemBalance(alice, made.gemId)) - aliceBefore).toBe(2n)
    const [tx] = (await wallet(page, 'log')).filter((r) => r.method === 'eth_sendTransaction')
    expect((tx?.params as [{ data: string }] | undefined)?.[0].data).toBe(
      `0xf242432a${word(made.me)}${word(alice)}${num(made.gemId)}${num(2)}${num(0xa0)}${num(0)}`,
    )
    await screenshot(page, shots(), 'nfts-sent-phone-dark')
    await send.done(page).click()
    await expect.poll(() => card(page, gemId()).getByTestId('nft-count').innerText(), { timeout: 15_000 }).toBe('×3')
  })
})
