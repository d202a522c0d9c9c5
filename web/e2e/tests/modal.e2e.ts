/**
 * The modal in the demo page, end to end: real Sigil server (wallet directory), real anvil chain,
 * headless Chromium, and the injected EIP-6963 test wallet.
 */
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { wallet, walletAccount } from '../src/browser.js'
import { nativeBalanceText } from '../src/chain.js'
import { useDemo } from '../src/fixtures.js'
import { TEST_WALLET_NAME, USER_REJECTED } from '../src/test-wallet.js'
import { connectTestWallet, openModal, shortAddress, ui, waitConnected } from '../src/ui.js'

const t = useDemo()

/** Anvil's first dev account, the one the test wallet uses. */
const ACCOUNT = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266'

/** Loaded <img> elements inside the dialog: their src and natural width. */
const dialogImages = (page: Page) =>
  ui
    .dialog(page)
    .locator('img')
    .evaluateAll((imgs) => (imgs as HTMLImageElement[]).map((img) => ({ src: img.currentSrc || img.src, width: img.naturalWidth, complete: img.complete })))

const visibleText = (page: Page) => ui.dialog(page).innerText()

describe('modal', () => {
  it('opens as a labelled dialog from the Connect Wallet button and lists the announced test wallet with its icon', async () => {
    const dialog = await openModal(t.page)
    const label = await dialog.evaluate((el) => {
      const labelledBy = el.getAttribute('aria-labelledby')
      const root = el.getRootNode()
      return (
        el.getAttribute('aria-label') ??
        (labelledBy && (root instanceof ShadowRoot || root instanceof Document) ? root.getElementById(labelledBy)?.textContent : null)
      )
    })
    expect(label?.trim()).toBeTruthy()
    // it lives in a shadow root attached to the page
    expect(await dialog.evaluate((el) => el.getRootNode() instanceof ShadowRoot)).toBe(true)
    const testWallet = ui.walletButton(t.page)
    await testWallet.waitFor()
    const icon = await testWallet
      .locator('img')
      .first()
      .evaluate((img: HTMLImageElement) => ({ src: img.src, width: img.naturalWidth }))
    expect(icon.src).toMatch(/^data:image\/svg\+xml,/)
    expect(icon.width).toBeGreaterThan(0)
  })

  it('shows directory wallets with their images from the Sigil server', async () => {
    await openModal(t.page)
    await ui.allWalletsButton(t.page).click()
    await ui.walletButton(t.page, 'MetaMask').waitFor()
    await expect
      .poll(async () => (await dialogImages(t.page)).filter((i) => i.src.startsWith(`${t.env.apiUrl}/`) && i.width > 0).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(8)
    const broken = (await dialogImages(t.page)).filter((i) => i.complete && i.width === 0 && i.src !== '')
    expect(broken).toEqual([])
  })

  it('shows image placeholders while wallet images load', async () => {
    const page = await t.newPage()
    // Hold every wallet image until the test lets them through.
    let release!: () => void
    const released = new Promise<void>((r) => (release = r))
    await page.context().route(`${t.env.apiUrl}/getWalletImage/**`, async (route) => {
      await released
      await route.continue()
    })
    await page.reload()
    await openModal(page)
    await ui.allWalletsButton(page).click()
    await ui.walletButton(page, 'MetaMask').waitFor()
    const placeholders = ui.dialog(page).locator('[data-testid="all-wallets-grid"] button [data-state="loading"]')
    await expect.poll(() => placeholders.count()).toBeGreaterThanOrEqual(8)
    release()
    await expect
      .poll(
        () =>
          ui
            .walletButton(page, 'MetaMask')
            .locator('img')
            .evaluate((img: HTMLImageElement) => img.naturalWidth),
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0)
  })

  it('labels All Wallets with the directory count', async () => {
    await openModal(t.page)
    // The count arrives with the directory's first page; wait for it rather than race it.
    const countShown = async () => Number(/(\d[\d,]*)/.exec(await ui.allWalletsButton(t.page).innerText())?.[1]?.replace(/,/g, '') ?? NaN)
    await expect.poll(countShown, { timeout: 10_000 }).toBeGreaterThanOrEqual(600)
    // data/wallets.json imports 659 wallets (duplicates merged); a UI may round down ('650+').
    expect(await countShown()).toBeLessThanOrEqual(659)
  })

  it('searches the directory', async () => {
    await openModal(t.page)
    await ui.allWalletsButton(t.page).click()
    await ui.walletButton(t.page, 'Trust Wallet').waitFor()
    await ui.search(t.page).fill('meta')
    await ui.walletButton(t.page, 'MetaWallet').waitFor()
    await expect.poll(() => ui.walletButton(t.page, 'Trust Wallet').count()).toBe(0)
    for (const name of ['MetaMask', 'meta-WONDER-verse', 'Dracula Metaverse', 'MetaWallet']) {
      expect(await ui.walletButton(t.page, name).isVisible(), name).toBe(true)
    }
    await ui.search(t.page).fill('zzzz-no-such-wallet')
    await expect.poll(() => ui.walletButton(t.page, 'MetaMask').count()).toBe(0)
    await expect.poll(() => visibleText(t.page)).toMatch(/no wallet/i)
  })

  it('shows an error state with a retry when the directory cannot be reached', async () => {
    const page = await t.newPage()
    const blocked = `${t.env.apiUrl}/getWallets**`
    await page.context().route(blocked, (route) => route.abort())
    await page.reload()
    await openModal(page)
    await ui.allWalletsButton(page).click()
    await ui.dialog(page).getByRole('alert').waitFor({ timeout: 15_000 })
    await page.context().unroute(blocked)
    await ui
      .dialog(page)
      .getByRole('button', { name: /try again/i })
      .click()
    await ui.walletButton(page, 'MetaMask').waitFor({ timeout: 15_000 })
  })

  it('loads the second page of 40 when the grid is scrolled to its end', async () => {
    await openModal(t.page)
    await ui.allWalletsButton(t.page).click()
    await ui.walletButton(t.page, 'MetaMask').waitFor()
    const grid = ui.gridWallets(t.page)
    await expect.poll(() => grid.count()).toBeGreaterThanOrEqual(40)
    const first = await grid.count()
    expect(first).toBeLessThanOrEqual(41) // one page (plus at most the installed wallet)
    await grid.last().scrollIntoViewIfNeeded()
    await expect.poll(() => grid.count(), { timeout: 10_000 }).toBeGreaterThan(first)
    expect(await grid.count()).toBeGreaterThan(40)
  })

  it('connects with the test wallet and shows the shortened address and the anvil balance', async () => {
    // Account 0 deployed the dev-chain contracts: its ETH is what anvil says, not a round 10000.
    const balance = await nativeBalanceText(t.env.rpcUrl, ACCOUNT)
    await connectTestWallet(t.page)
    const account = await walletAccount(t.page)
    expect(account.toLowerCase()).toBe(ACCOUNT)
    const button = ui.accountButton(t.page)
    expect((await t.page.getByTestId('address').innerText()).toLowerCase()).toBe(ACCOUNT)
    await expect.poll(() => button.innerText(), { timeout: 15_000 }).toContain(balance)
    expect((await button.innerText()).toLowerCase()).toContain(shortAddress(ACCOUNT))
    // the Account view in the modal
    await button.click()
    await ui.dialog(t.page).waitFor()
    await expect.poll(() => ui.accountBalance(t.page).innerText(), { timeout: 10_000 }).toBe(balance)
    expect((await visibleText(t.page)).toLowerCase()).toContain(shortAddress(ACCOUNT))
    // the demo page shows the account from the hooks
    expect((await t.page.locator('body').innerText()).toLowerCase()).toContain(ACCOUNT)
  })

  it("shows 'User rejected the request.' when the wallet rejects, and connects on retry", async () => {
    await openModal(t.page)
    await wallet(t.page, 'rejectNext')
    await ui.walletButton(t.page).click()
    await ui.dialog(t.page).getByText(USER_REJECTED.message).waitFor()
    await ui
      .dialog(t.page)
      .getByRole('button', { name: /try again|retry/i })
      .click()
    await waitConnected(t.page)
  })

  it('switches network, adding the chain the wallet does not know (4902), and back', async () => {
    await connectTestWallet(t.page)
    await ui.accountButton(t.page).click()
    await ui.networkButton(t.page).click()
    await ui.networkOption(t.page, 'Arbitrum').click()
    await expect.poll(async () => (await wallet(t.page, 'state')).chainId, { timeout: 10_000 }).toBe(42161)
    const calls = (await wallet(t.page, 'log')).map((r) => `${r.method}:${r.outcome}:${r.error?.code ?? ''}`)
    expect(calls).toContain('wallet_switchEthereumChain:error:4902')
    expect(calls).toContain('wallet_addEthereumChain:ok:')
    expect((await wallet(t.page, 'state')).knownChains).toContain(42161)
    // the page and the modal follow the wallet
    await expect.poll(() => t.page.getByTestId('network').innerText()).toMatch(/arbitrum.*eip155:42161/i)
    await expect.poll(() => ui.networkButton(t.page).innerText(), { timeout: 10_000 }).toMatch(/arbitrum/i)
    await ui.networkButton(t.page).click()
    await expect.poll(() => ui.networkOption(t.page, 'Arbitrum').getAttribute('aria-current')).toBe('true')
    expect(await ui.networkOption(t.page, 'Sigil Dev').getAttribute('aria-current')).toBeNull()
    // back to the dev chain, which the wallet knows: a plain switch, nothing added
    await ui.networkOption(t.page, 'Sigil Dev').click()
    await expect.poll(async () => (await wallet(t.page, 'state')).chainId, { timeout: 10_000 }).toBe(31337)
    await expect.poll(() => t.page.getByTestId('network').innerText()).toMatch(/eip155:31337/)
    const adds = (await wallet(t.page, 'log')).filter((r) => r.method === 'wallet_addEthereumChain')
    expect(adds).toHaveLength(1)
  })

  it('follows a chain switch made in the wallet itself (chainChanged)', async () => {
    await connectTestWallet(t.page)
    await t.page.evaluate(() => (window as unknown as { __testWallet: { emit(e: string, v: unknown): void } }).__testWallet.emit('chainChanged', '0x1'))
    await expect.poll(() => t.page.getByTestId('network').innerText()).toMatch(/eip155:1\)/)
  })

  it('stays connected across a reload, without asking the wallet again', async () => {
    await connectTestWallet(t.page)
    await t.page.reload()
    await waitConnected(t.page)
    const methods = (await wallet(t.page, 'log')).map((r) => r.method)
    expect(methods).toContain('eth_accounts')
    expect(methods).not.toContain('eth_requestAccounts')
  })

  it('disconnect clears the state, also after a reload', async () => {
    await connectTestWallet(t.page)
    await ui.accountButton(t.page).click()
    await ui.disconnectButton(t.page).click()
    await t.page.getByRole('button', { name: /^connect wallet$/i }).waitFor()
    expect((await t.page.locator('body').innerText()).toLowerCase()).not.toContain(ACCOUNT)
    const stored = await t.page.evaluate(() => Object.entries(localStorage).filter(([k]) => k.startsWith('@appkit')))
    expect(stored.map(([k, v]) => `${k}=${v}`).join('\n')).not.toMatch(/dev\.sigil\.testwallet.*connected|connected.*dev\.sigil\.testwallet/i)
    await t.page.reload()
    await t.page.getByRole('button', { name: /^connect wallet$/i }).waitFor()
    await t.page.waitForTimeout(1500)
    expect(await ui.status(t.page).innerText()).toBe('disconnected')
    expect(await ui.accountButton(t.page).count()).toBe(0)
  })

  it('connects with the keyboard only, and Escape closes the modal and gives focus back', async () => {
    /** The focused element, looking through shadow roots; described by role/name/text. */
    const focused = () =>
      t.page.evaluate(() => {
        let el: Element | null = document.activeElement
        while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
        return el ? `${el.tagName.toLowerCase()}|${el.getAttribute('aria-label') ?? ''}|${(el.textContent ?? '').trim().slice(0, 60)}` : ''
      })
    const tabTo = async (match: RegExp, max = 40) => {
      for (let i = 0; i < max; i++) {
        await t.page.keyboard.press('Tab')
        if (match.test(await focused())) return
      }
      throw new Error(`Tab never reached ${match}; last focus: ${await focused()}`)
    }
    await ui.connectButton(t.page).waitFor()
    await tabTo(/^button\|\|connect wallet$/i)
    await t.page.keyboard.press('Enter')
    await ui
      .dialog(t.page)
      .waitFor({ timeout: 5_000 })
      .catch(async (error: Error) => {
        throw new Error(
          `Enter on Connect Wallet did not open the modal (focus: ${await focused()}, modal: ${await t.page.getByTestId('modal-state').innerText()}): ${error.message}`,
        )
      })
    // focus moved into the dialog
    await expect
      .poll(() =>
        ui.dialog(t.page).evaluate((d) => {
          let el: Element | null = document.activeElement
          while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement
          return !!el && d.contains(el)
        }),
      )
      .toBe(true)
    // Escape closes, focus returns to the button
    await t.page.keyboard.press('Escape')
    await ui.dialog(t.page).waitFor({ state: 'hidden' })
    expect(await focused()).toMatch(/^button\|\|connect wallet$/i)
    // open again with Enter, tab to the wallet, connect with Enter
    await t.page.keyboard.press('Enter')
    await ui.dialog(t.page).waitFor()
    // let the view transition (150 ms) and the wallet list settle, as a person would
    await ui.walletButton(t.page).waitFor()
    await t.page.waitForTimeout(400)
    await tabTo(new RegExp(String.raw`^button\|\|` + TEST_WALLET_NAME, 'i'))
    await t.page.waitForTimeout(100)
    const before = await focused()
    await t.page.keyboard.press('Enter')
    await waitConnected(t.page).catch(async (error: Error) => {
      throw new Error(
        `Enter on the test wallet did not connect (focus before Enter: ${before}; now: ${await focused()}; modal: ${await t.page.getByTestId('modal-state').innerText()}): ${error.message}`,
      )
    })
  })
})
