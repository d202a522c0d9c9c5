/**
 * One modal across three chain families: the demo with EVM (anvil), Solana (litesvm) and
 * Bitcoin (bcoin regtest) networks and a test wallet for each. The Connect view lists each wallet
 * once with its families, the Networks view groups by family, switching family shows that
 * family's account (or offers to connect one), and a reload restores every family.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { BITCOIN_WALLET_NAME, bitcoinKey } from '../src/bitcoin-wallet.js'
import { screenshot } from '../src/browser.js'
import { useDemo } from '../src/fixtures.js'
import { BITCOIN_WALLET_LABEL, REPO_ROOT, SOLANA_WALLET_LABEL } from '../src/paths.js'
import { SOLANA_WALLET_NAME, solanaKey } from '../src/solana-wallet.js'
import { TEST_WALLET_NAME } from '../src/test-wallet.js'
import { ui } from '../src/ui.js'

const env = inject('e2e')
const t = useDemo({ solana: { rpcUrl: env.solana.rpcUrl }, bitcoin: true })
/** anvil's account 0, as the EVM test wallet reports it (lower case). */
const EVM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'
const SOL = solanaKey(SOLANA_WALLET_LABEL).address
const BTC = bitcoinKey(BITCOIN_WALLET_LABEL).address

const text = (page: Page, testId: string) => page.getByTestId(testId).textContent()
/** Waits for a demo field; EVM addresses compare without case (EIP-55 or not). */
const waitText = (page: Page, testId: string, value: string, timeout = 20_000) =>
  page.waitForFunction(
    ([id, v]) => {
      const shown = document.querySelector(`[data-testid="${id}"]`)?.textContent ?? ''
      return shown === v || (v.startsWith('0x') && shown.toLowerCase() === v)
    },
    [testId, value] as const,
    { timeout },
  )
const evmText = async (page: Page, testId: string) => (await text(page, testId))?.toLowerCase()
const openModal = async (page: Page) => {
  await page.getByRole('button', { name: 'Open modal' }).click()
  await ui.dialog(page).waitFor({ state: 'visible' })
}

/** Connecting closes the modal: the page's hook says so and the dialog is gone. */
async function modalClosed(page: Page) {
  await waitText(page, 'modal-state', 'closed')
  await ui.dialog(page).waitFor({ state: 'hidden' })
}

/** The modal, opened on the Account view. */
async function accountView(page: Page) {
  await openModal(page)
  await ui
    .dialog(page)
    .getByRole('button', { name: /switch network$/ })
    .waitFor()
}

/** From the Account view: the network pill, then a network of the Networks view. */
async function switchTo(page: Page, network: string) {
  await accountView(page)
  await ui
    .dialog(page)
    .getByRole('button', { name: /switch network$/ })
    .click()
  await ui.networkOption(page, network).click()
}

/** The server's icon set (data/icons): what a network's image must be, byte for byte. */
const iconFile = (rel: string) => readFileSync(join(REPO_ROOT, 'data/icons', rel), 'utf8')
const NETWORK_ICONS: Record<string, string> = {
  'Sigil Dev': 'sigil/sigil-dev.svg',
  Ethereum: 'networks/ethereum.svg',
  'Arbitrum One': 'networks/arbitrum-one.svg',
  Polygon: 'networks/polygon.svg',
  'Sigil Solana Dev': 'networks/solana.svg',
  'Bitcoin Regtest': 'networks/bitcoin.svg',
}
const SOCIALS = ['google', 'github', 'x', 'discord', 'facebook', 'apple', 'farcaster']

/** The Networks view's rows once their images loaded: name, image URL, natural width. */
async function networkImages(page: Page) {
  const rows = ui.dialog(page).locator('section[data-family] button[data-network]')
  await expect.poll(() => rows.count()).toBe(6)
  await expect.poll(() => ui.dialog(page).locator('section[data-family] button[data-network] .img[data-state="loaded"]').count(), { timeout: 10_000 }).toBe(6)
  return rows.evaluateAll((buttons) =>
    buttons.map((b) => {
      const img = b.querySelector('img')
      return { name: b.querySelector('.name')?.textContent ?? '', src: img?.currentSrc ?? '', width: img?.naturalWidth ?? 0 }
    }),
  )
}

describe('three chain families in one modal', () => {
  it("networks and social buttons show real icons (the icon set's, the dev chain its own), not generated initials: desktop and phone", async () => {
    for (const [form, page] of [
      ['desktop', t.page],
      ['phone', await t.newPage({ mobile: true, solana: { rpcUrl: env.solana.rpcUrl }, bitcoin: true })],
    ] as const) {
      await page.goto(`${t.demoUrl}?families=eip155,solana,bip122&siwx=off&socials=${SOCIALS.join(',')}`)
      expect(page.viewportSize()).toEqual(form === 'phone' ? { width: 390, height: 844 } : { width: 1280, height: 900 })
      await page.getByRole('button', { name: 'Switch network' }).click()
      const images = await networkImages(page)
      expect(images.map((i) => i.name)).toEqual(Object.keys(NETWORK_ICONS))
      for (const { name, src, width } of images) {
        expect(width, name).toBeGreaterThan(0)
        expect(src, name).toMatch(new RegExp(`^${env.apiUrl}/public/getAssetImage/`))
        const res = await fetch(src)
        expect(res.headers.get('content-type'), name).toBe('image/svg+xml')
        const svg = await res.text()
        expect(svg, `${name}: the set's icon`).toBe(iconFile(NETWORK_ICONS[name] ?? ''))
        expect(svg, `${name}: no generated initials`).not.toContain('</text>')
      }
      // The dev chain no longer borrows Ethereum's.
      const src = (name: string) => images.find((i) => i.name === name)?.src
      expect(src('Sigil Dev')).not.toBe(src('Ethereum'))
      await screenshot(page, join(t.env.artifactsDir, 'e2e'), `icons-networks-${form}`)
      await page.keyboard.press('Escape')
      await ui.dialog(page).waitFor({ state: 'hidden' })

      // The social buttons: each its brand's icon (simple-icons), Google and GitHub no longer both "G".
      await page.getByRole('button', { name: 'Open modal' }).click()
      const socials = ui.dialog(page).locator('.social-login [data-provider]')
      await socials.first().waitFor()
      const shown = async () =>
        socials.evaluateAll((buttons) =>
          buttons.map((b) => {
            const glyph = b.querySelector('.social-glyph')
            const path = glyph?.querySelector('svg path')
            const box = glyph?.querySelector('svg')?.getBoundingClientRect()
            return {
              provider: (b as HTMLElement).dataset.provider,
              icon: glyph?.getAttribute('data-icon'),
              text: glyph?.textContent,
              path: path?.getAttribute('d'),
              fill: path ? getComputedStyle(path).fill : '',
              size: box ? Math.round(box.width) : 0,
            }
          }),
        )
      const onConnect = await shown()
      // Six shown at most: five and "more".
      expect(onConnect.map((s) => s.provider)).toEqual(SOCIALS.slice(0, 5))
      for (const s of onConnect) {
        expect(s.icon, s.provider).toBe(s.provider)
        expect(s.text, `${s.provider}: no initials`).toBe('')
        expect(s.path?.length, s.provider).toBeGreaterThan(100)
        expect(s.size, s.provider).toBeGreaterThanOrEqual(18)
        expect(s.fill, s.provider).not.toBe('none')
      }
      expect(new Set(onConnect.map((s) => s.path)).size).toBe(onConnect.length)
      await screenshot(page, join(t.env.artifactsDir, 'e2e'), `icons-socials-${form}`)
      await ui.dialog(page).getByTestId('socials-more').click()
      const all = ui.dialog(page).locator('[data-testid=connect-socials] [data-provider]')
      await expect.poll(() => all.count()).toBe(SOCIALS.length)
      const listed = await all.evaluateAll((buttons) =>
        buttons.map((b) => ({
          icon: b.querySelector('.social-glyph')?.getAttribute('data-icon'),
          path: b.querySelector('.social-glyph svg path')?.getAttribute('d'),
        })),
      )
      expect(listed.map((s) => s.icon)).toEqual(SOCIALS)
      expect(new Set(listed.map((s) => s.path)).size).toBe(SOCIALS.length)
      await screenshot(page, join(t.env.artifactsDir, 'e2e'), `icons-socials-list-${form}`)
    }
  })

  it('lists each wallet once with its families and groups networks by family', async () => {
    await t.page.goto(`${t.demoUrl}?families=eip155,solana,bip122&siwx=off`)
    await openModal(t.page)
    const families = async (name: string) => ui.walletButton(t.page, name).getAttribute('data-families')
    expect(await families(TEST_WALLET_NAME)).toBe('eip155')
    expect(await families(SOLANA_WALLET_NAME)).toBe('solana')
    expect(await families(BITCOIN_WALLET_NAME)).toBe('bip122')
    for (const name of [TEST_WALLET_NAME, SOLANA_WALLET_NAME, BITCOIN_WALLET_NAME]) {
      expect(
        await ui
          .dialog(t.page)
          .getByRole('button', { name: new RegExp(`^${name}`) })
          .count(),
      ).toBe(1)
    }
    await t.page.keyboard.press('Escape')
    await ui.dialog(t.page).waitFor({ state: 'hidden' })
    await t.page.getByRole('button', { name: 'Switch network' }).click()
    const groups = ui.dialog(t.page).locator('section[data-family]')
    await groups.first().waitFor()
    expect(await groups.evaluateAll((els) => els.map((e) => e.getAttribute('data-family')))).toEqual(['eip155', 'solana', 'bip122'])
    const solanaGroup = await ui.dialog(t.page).getByRole('list', { name: 'Solana networks' }).getByRole('button').allInnerTexts()
    expect(solanaGroup).toHaveLength(1)
    expect(solanaGroup[0]).toContain('Sigil Solana Dev')
    expect(await ui.dialog(t.page).getByRole('list', { name: 'EVM networks' }).getByRole('button').count()).toBe(4)
  })

  it('switching family shows each account, connecting the others on the way; a reload restores each', async () => {
    await t.page.goto(`${t.demoUrl}?families=eip155,solana,bip122&siwx=off`)
    await openModal(t.page)
    await ui.walletButton(t.page, TEST_WALLET_NAME).click()
    await waitText(t.page, 'eip155-status', 'connected')
    expect(await evmText(t.page, 'address')).toBe(EVM)
    await modalClosed(t.page)

    // Solana is not connected yet: switching there offers to connect, and the wallet connects it.
    await switchTo(t.page, 'Sigil Solana Dev')
    await waitText(t.page, 'network', `Sigil Solana Dev (${env.solana.caipNetworkId})`)
    await ui
      .dialog(t.page)
      .getByRole('button', { name: /connect wallet/i })
      .click()
    await ui.walletButton(t.page, SOLANA_WALLET_NAME).click()
    await waitText(t.page, 'solana-status', 'connected')
    await waitText(t.page, 'address', SOL)
    // Connecting a further family closes the modal as the first one did.
    await modalClosed(t.page)

    await switchTo(t.page, 'Bitcoin Regtest')
    await ui
      .dialog(t.page)
      .getByRole('button', { name: /connect wallet/i })
      .click()
    await ui.walletButton(t.page, BITCOIN_WALLET_NAME).click()
    await waitText(t.page, 'bip122-status', 'connected')
    await waitText(t.page, 'address', BTC)
    await modalClosed(t.page)
    // The Account view shows the active family's account in its own format (bech32 here).
    await accountView(t.page)
    expect(await ui.accountName(t.page).getAttribute('title')).toBe(BTC)
    await t.page.keyboard.press('Escape')
    await modalClosed(t.page)

    // Back to Solana and to EVM: each shows its own account, the others stay connected.
    await switchTo(t.page, 'Sigil Solana Dev')
    await waitText(t.page, 'address', SOL)
    await t.page.keyboard.press('Escape')
    await modalClosed(t.page)
    await switchTo(t.page, 'Sigil Dev')
    await waitText(t.page, 'address', EVM)
    expect(await text(t.page, 'solana-address')).toBe(SOL)
    expect(await text(t.page, 'bip122-address')).toBe(BTC)

    await t.page.reload()
    await waitText(t.page, 'eip155-status', 'connected')
    await waitText(t.page, 'solana-status', 'connected')
    await waitText(t.page, 'bip122-status', 'connected')
    expect(await evmText(t.page, 'eip155-address')).toBe(EVM)
    expect(await text(t.page, 'solana-address')).toBe(SOL)
    expect(await text(t.page, 'bip122-address')).toBe(BTC)
    expect(await evmText(t.page, 'address')).toBe(EVM)
  })
})
