/**
 * Each view of the modal in both themes: a screenshot under test-artifacts/ (gitignored), the
 * palette the spec asks for (dark background #121313, light white), and an axe-core check of
 * Connect, AllWallets and Account with no serious or critical violation.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { screenshot, seriousA11yViolations, wallet, walletAccount, type Theme } from '../src/browser.js'
import { nativeBalanceText } from '../src/chain.js'
import { useDemo } from '../src/fixtures.js'
import { connectTestWallet, openModal, ui } from '../src/ui.js'

const t = useDemo()
const THEMES: Theme[] = ['light', 'dark']
const BACKGROUND: Record<Theme, string> = { light: 'rgb(255, 255, 255)', dark: 'rgb(18, 19, 19)' }

const themedPage = (theme: Theme): Promise<Page> => t.newPage({ theme })

const shot = (page: Page, theme: Theme, view: string) => screenshot(page, join(t.env.artifactsDir, 'e2e'), `${view}-${theme}`)

/** The dialog's own background colour (the first ancestor-or-self with a non-transparent one). */
const dialogBackground = (page: Page) =>
  ui.dialog(page).evaluate((el) => {
    for (let node: Element | null = el; node; node = node.parentElement ?? (node.getRootNode() as ShadowRoot).host ?? null) {
      const bg = getComputedStyle(node).backgroundColor
      if (bg && bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent') return bg
    }
    return ''
  })

async function expectAccessible(page: Page, view: string) {
  const findings = await seriousA11yViolations(page)
  expect(findings, `${view}: ${JSON.stringify(findings, null, 2)}`).toEqual([])
}

describe.each(THEMES)('views in the %s theme', (theme) => {
  it('Connect: palette, screenshot, accessibility', async () => {
    const page = await themedPage(theme)
    await openModal(page)
    await ui.walletButton(page).waitFor()
    await page.waitForTimeout(400) // transitions (150 ms) settle
    expect(await dialogBackground(page)).toBe(BACKGROUND[theme])
    await shot(page, theme, 'connect')
    await expectAccessible(page, 'Connect')
  })

  it('AllWallets: screenshot, accessibility, search results and empty state', async () => {
    const page = await themedPage(theme)
    await openModal(page)
    await ui.allWalletsButton(page).click()
    await ui.walletButton(page, 'MetaMask').waitFor()
    await page.waitForTimeout(800) // images
    await shot(page, theme, 'all-wallets')
    const findings = await seriousA11yViolations(page)
    await ui.search(page).fill('meta')
    await ui.walletButton(page, 'MetaWallet').waitFor()
    await page.waitForTimeout(400)
    await shot(page, theme, 'all-wallets-search')
    await ui.search(page).fill('zzzz-no-such-wallet')
    await expect.poll(() => ui.walletButton(page, 'MetaMask').count()).toBe(0)
    await page.waitForTimeout(300)
    await shot(page, theme, 'all-wallets-empty')
    expect(findings, `AllWallets: ${JSON.stringify(findings, null, 2)}`).toEqual([])
  })

  it('ConnectingExternal: waiting and rejected', async () => {
    const page = await themedPage(theme)
    await openModal(page)
    await wallet(page, 'holdApprovals', true)
    await ui.walletButton(page).click()
    await expect.poll(() => wallet(page, 'pendingCount')).toBe(1)
    await page.waitForTimeout(400)
    await shot(page, theme, 'connecting')
    await wallet(page, 'rejectPending')
    await ui.dialog(page).getByText('User rejected the request.').waitFor()
    await page.waitForTimeout(600) // shake 500 ms
    await shot(page, theme, 'connecting-rejected')
  })

  it('Account and Networks: screenshot, accessibility', async () => {
    const page = await themedPage(theme)
    await connectTestWallet(page)
    await ui.accountButton(page).click()
    await ui.dialog(page).waitFor()
    const account = await walletAccount(page)
    await expect.poll(() => ui.accountBalance(page).innerText(), { timeout: 10_000 }).toBe(await nativeBalanceText(t.env.rpcUrl, account))
    // the token rows from the Sigil server (SGL and USDC from the dev-chain deployment)
    await ui.tokenRow(page, 'SGL').waitFor({ timeout: 10_000 })
    await page.waitForTimeout(400)
    expect(await dialogBackground(page)).toBe(BACKGROUND[theme])
    await shot(page, theme, 'account')
    const findings = await seriousA11yViolations(page)
    await ui.networkButton(page).click()
    await ui.networkOption(page, 'Arbitrum').waitFor()
    await page.waitForTimeout(400)
    await shot(page, theme, 'networks')
    expect(findings, `Account: ${JSON.stringify(findings, null, 2)}`).toEqual([])
  })
})
