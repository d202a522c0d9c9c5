/**
 * One modal across three chain families: the demo with EVM (anvil), Solana (litesvm) and
 * Bitcoin (bcoin regtest) networks and a test wallet for each. The Connect view lists each wallet
 * once with its families, the Networks view groups by family, switching family shows that
 * family's account (or offers to connect one), and a reload restores every family.
 */
import { describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { BITCOIN_WALLET_NAME, bitcoinKey } from '../src/bitcoin-wallet.js'
import { useDemo } from '../src/fixtures.js'
import { BITCOIN_WALLET_LABEL, SOLANA_WALLET_LABEL } from '../src/paths.js'
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

describe('three chain families in one modal', () => {
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
