/**
 * What a visitor meets on a first open, on a desktop (1280x900) and a phone (390x844), as issue
 * 22 found it: icons that never appeared, a page wider than the phone once connected, rows and
 * pills whose text wraps or is pushed out, toasts over the title, no help for a newcomer (now 'New
 * to wallets? Get a wallet' and 'Don't have X? Get it'), no favicon. Each check has its screenshot under test-artifacts/e2e/visitor/.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { screenshot } from '../src/browser.js'
import { useDemo } from '../src/fixtures.js'
import { SOLANA_WALLET_NAME } from '../src/solana-wallet.js'
import { TEST_WALLET_NAME } from '../src/test-wallet.js'
import { openModal, ui } from '../src/ui.js'

const t = useDemo()
const shot = (page: Page, name: string) => screenshot(page, join(t.env.artifactsDir, 'e2e', 'visitor'), name)
const VIEWPORTS = [
  ['desktop', false],
  ['phone', true],
] as const

/** A row's image box state ('loading', 'loaded', 'error'). */
const imageState = (page: Page, wallet: string) => ui.walletButton(page, wallet).locator('.img').first().getAttribute('data-state')

describe.each(VIEWPORTS)('on a %s', (name, mobile) => {
  it("the WalletConnect logo and the injected wallet's EIP-6963 icon (data: URIs) show on every first open", async () => {
    // The load event of an image already complete was missed about once in three first opens.
    for (let open = 0; open < 4; open++) {
      const page = await t.newPage({ mobile })
      await openModal(page)
      await expect.poll(() => imageState(page, 'WalletConnect'), { timeout: 5_000 }).toBe('loaded')
      await expect.poll(() => imageState(page, TEST_WALLET_NAME), { timeout: 5_000 }).toBe('loaded')
      await expect
        .poll(() =>
          ui
            .walletButton(page, 'WalletConnect')
            .locator('img')
            .evaluate((img) => getComputedStyle(img).opacity),
        )
        .toBe('1')
      if (open === 0) await shot(page, `icons-${name}`)
      await page.context().close()
    }
  })
})

describe.each(VIEWPORTS)('on a %s, a page of three families', (name, mobile) => {
  it('the WalletConnect row keeps its whole name, its families on a line under it and its tag on one line inside the row', async () => {
    const page = await t.newPage({ mobile })
    await page.goto(`${t.demoUrl}?families=eip155,solana,bip122&siwx=off`)
    await openModal(page)
    const row = ui.walletButton(page, 'WalletConnect')
    await expect.poll(() => imageState(page, 'WalletConnect')).toBe('loaded')
    const box = await row.evaluate((el) => {
      const rect = (e: Element) => e.getBoundingClientRect()
      const r = rect(el)
      const nameEl = el.querySelector('.name') as HTMLElement
      return {
        name: nameEl.textContent,
        nameCut: nameEl.scrollWidth > nameEl.clientWidth,
        families: el.querySelector('.families')?.textContent,
        tags: [...el.querySelectorAll('.tag')].map((t) => ({
          text: (t as HTMLElement).innerText,
          height: rect(t).height,
          inside: rect(t).left >= r.left && rect(t).right <= r.right,
        })),
      }
    })
    expect(box.name).toBe('WalletConnect')
    expect(box.nameCut).toBe(false)
    expect(box.families).toBe('EVM · Solana · Bitcoin')
    // A QR code means nothing on the phone that would scan it.
    expect(box.tags.map((t) => t.text)).toEqual(mobile ? [] : ['QR CODE'])
    for (const tag of box.tags) {
      expect(tag.height).toBeLessThan(24)
      expect(tag.inside).toBe(true)
    }
    await shot(page, `families-walletconnect-row-${name}`)
  })
})

describe('small slips', () => {
  it('the search field shows its focus as its own rounded ring, not a square one inside it', async () => {
    const page = t.page
    await openModal(page)
    await ui.allWalletsButton(page).click()
    await ui.search(page).focus()
    const look = await ui.search(page).evaluate((input) => {
      const field = input.closest('.search') as HTMLElement
      return { outline: getComputedStyle(input).outlineStyle, ring: getComputedStyle(field).boxShadow, radius: getComputedStyle(field).borderRadius }
    })
    expect(look.outline).toBe('none')
    expect(look.ring).toMatch(/rgb\(59, 108, 246\) 0px 0px 0px 1px/)
    expect(look.radius).toBe('16px')
    await shot(page, 'search-focused')
  })

  it("'Open Farcaster' stays on one line inside its pill", async () => {
    const page = t.page
    await page.goto(`${t.demoUrl}/?email=on&socials=google,github,farcaster`)
    await openModal(page)
    await ui.dialog(page).locator('.socials [data-provider="farcaster"]').click()
    const link = ui.dialog(page).getByTestId('farcaster-link')
    await link.waitFor()
    const { height, lineHeight, scrollWidth, clientWidth } = await link.evaluate((el) => ({
      height: el.getBoundingClientRect().height,
      lineHeight: Number.parseFloat(getComputedStyle(el).lineHeight) || 20,
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }))
    expect(height).toBe(40)
    expect(lineHeight).toBeLessThan(40)
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth)
    expect(await link.evaluate((el) => el.getClientRects().length)).toBe(1)
    // its text is one line box
    expect(
      await link.evaluate((el) => {
        const text = [...el.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim()) as Text
        const range = document.createRange()
        range.selectNodeContents(text)
        return range.getClientRects().length
      }),
    ).toBe(1)
    await shot(page, 'farcaster-buttons')
  })

  it('the demo has a favicon of its own (SVG), served', async () => {
    const href = await t.page.locator('link[rel="icon"]').getAttribute('href')
    expect(href).toBe('/favicon.svg')
    const res = await t.page.request.get(new URL(href as string, t.demoUrl).toString())
    expect(res.status()).toBe(200)
    expect(await res.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
  })
})

describe.each(VIEWPORTS)('on a %s, a banner', (name, mobile) => {
  it("('Token Balance Unavailable' on the sign-in view) covers neither the title nor the view, on one line", async () => {
    const page = await t.newPage({ mobile })
    // The balance service fails: the banner shows while the sign-in view asks for a signature.
    await page.route(/\/v1\/account\/[^/]+\/balance/, (route) => route.fulfill({ status: 503, body: '{}' }))
    await page.goto(`${t.demoUrl}?siwx=required`)
    await openModal(page)
    await ui.walletButton(page).click()
    const banner = ui.dialog(page).locator('.toast')
    await expect.poll(() => banner.innerText().catch(() => ''), { timeout: 15_000 }).toBe('Token Balance Unavailable')
    await expect.poll(() => ui.dialog(page).getAttribute('data-view')).toBe('SIWXSignMessage')
    await expect.poll(() => banner.evaluate((el) => getComputedStyle(el).opacity)).toBe('1')
    const boxes = await ui.dialog(page).evaluate((card) => {
      const r = (sel: string) => {
        const b = (card.querySelector(sel) as HTMLElement).getBoundingClientRect()
        return { top: b.top, bottom: b.bottom, left: b.left, right: b.right, height: b.height }
      }
      return {
        banner: r('.toast'),
        title: r('.title'),
        view: r('.view'),
        lineHeight: Number.parseFloat(getComputedStyle((card.querySelector('.toast-text') ?? card.querySelector('.toast')) as Element).lineHeight) || 18,
      }
    })
    expect(await ui.dialog(page).locator('.title').innerText()).toBe('Sign in with your wallet')
    expect(boxes.banner.top).toBeGreaterThanOrEqual(boxes.title.bottom)
    expect(boxes.banner.bottom).toBeLessThanOrEqual(boxes.view.top)
    // one line: its height is its line and its padding
    expect(boxes.banner.height).toBeLessThan(boxes.lineHeight * 2)
    await shot(page, `banner-${name}`)
  })
})

/** Where `locator` is, against the visual viewport (what the visitor sees): its left and right edges. */
const onScreen = (locator: ReturnType<Page['locator']>) =>
  locator.evaluate((el) => {
    const r = el.getBoundingClientRect()
    const vv = window.visualViewport as VisualViewport
    return { left: r.left - vv.offsetLeft, right: r.right - vv.offsetLeft, width: vv.width }
  })

describe('on a phone (390x844)', () => {
  it('connected, the page stays 390 px wide: the header fits on one line each, and the sign-in sheet shows Sign and Cancel in full', async () => {
    const page = await t.newPage({ mobile: true })
    await page.goto(`${t.demoUrl}?siwx=required`)
    await openModal(page)
    await ui.walletButton(page).click()
    await expect.poll(() => ui.dialog(page).getAttribute('data-view'), { timeout: 15_000 }).toBe('SIWXSignMessage')
    // The connected button (balance and address) is in the header by now.
    await page.waitForFunction(() => document.querySelector('.sigil-cb[data-connected]') !== null)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    for (const control of [
      ui.dialog(page),
      ui.dialog(page).getByRole('button', { name: 'Sign', exact: true }),
      ui.dialog(page).getByRole('button', { name: 'Cancel' }),
    ]) {
      const box = await onScreen(control)
      expect(box.left).toBeGreaterThanOrEqual(0)
      expect(box.right).toBeLessThanOrEqual(box.width)
    }
    await shot(page, 'phone-sign-in-sheet')
    await ui.dialog(page).getByRole('button', { name: 'Sign', exact: true }).click()
    await ui.dialog(page).waitFor({ state: 'hidden', timeout: 15_000 })
    await expect.poll(() => page.getByTestId('siwx-status').innerText()).toBe('signed-in')
    const header = await page.evaluate(() => {
      const rect = (sel: string) => (document.querySelector(sel) as HTMLElement).getBoundingClientRect()
      const lines = (sel: string) => {
        const el = document.querySelector(sel) as HTMLElement
        return Math.round(el.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(el).lineHeight))
      }
      return {
        right: Math.max(rect('.bar').right, rect('.sigil-cb').right, rect('.theme-toggle').right),
        brandLines: lines('.brand'),
        toggle: rect('.theme-toggle').height,
        button: rect('.sigil-cb').height,
        scrollWidth: document.documentElement.scrollWidth,
      }
    })
    expect(header.scrollWidth).toBeLessThanOrEqual(390)
    expect(header.right).toBeLessThanOrEqual(390)
    expect(header.brandLines).toBe(1)
    // the toggle's icon and label side by side (or its icon alone): as tall as the button, not two lines
    expect(header.toggle).toBeLessThanOrEqual(header.button + 2)
    expect(await page.locator('.sigil-cb').innerText()).toMatch(/^0x[0-9a-f]{2}…[0-9a-f]{6}$/i)
    await shot(page, 'phone-connected-header')
  })

  it('on a page wider than the screen, the sheet still covers what the visitor sees, not the page width', async () => {
    const page = await t.newPage({ mobile: true })
    // A host page with an element wider than the phone: the layout viewport grows with it.
    await page.evaluate(() => {
      const wide = document.createElement('div')
      wide.style.cssText = 'width:640px;height:10px;background:#f00'
      document.body.prepend(wide)
    })
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeGreaterThan(600)
    await openModal(page)
    await ui.walletButton(page).waitFor()
    for (const control of [ui.dialog(page), ui.closeButton(page)]) {
      const box = await onScreen(control)
      expect(box.left).toBeGreaterThanOrEqual(0)
      expect(box.right).toBeLessThanOrEqual(box.width)
    }
    await shot(page, 'phone-wide-page-sheet')
  })
})

/** The directory's first wallets speaking one of `chains`, as the server lists them. */
async function directoryNames(_page: Page, chains: string[]): Promise<string[]> {
  const url = new URL('/getWallets', t.env.apiUrl)
  url.searchParams.set('projectId', t.env.projectId)
  url.searchParams.set('entries', '8')
  url.searchParams.set('chains', chains.join(','))
  const res = await fetch(url, { headers: { origin: t.demoUrl } })
  if (!res.ok) throw new Error(`getWallets answered ${res.status}: ${await res.text()}`)
  const body = (await res.json()) as { data: { name: string }[] }
  return body.data.map((w) => w.name)
}
const BITCOIN_MAINNET = 'bip122:000000000019d6689c085ae165831e93'
const SOLANA_MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
/** The Connect view's rows (not 'All Wallets'): section and name. */
const connectRows = (page: Page) =>
  ui
    .dialog(page)
    .locator('[data-testid=connect-view] button.row:not([data-section=all])')
    .evaluateAll((rows) => rows.map((r) => ({ section: r.getAttribute('data-section'), name: r.querySelector('.name')?.textContent ?? '' })))

describe('wallets featured per chain family', () => {
  it('Bitcoin chosen with no Bitcoin wallet: the Account view says so, and Connect lists Bitcoin wallets, the Solana wallet not at all (never twice)', async () => {
    const page = await t.newPage({ solana: { rpcUrl: t.env.solana.rpcUrl } })
    await page.goto(`${t.demoUrl}?families=eip155,solana,bip122&siwx=off`)
    await page.getByRole('button', { name: 'Open modal' }).click()
    await ui.walletButton(page, SOLANA_WALLET_NAME).click()
    await expect.poll(() => page.getByTestId('solana-status').innerText(), { timeout: 20_000 }).toBe('connected')
    await ui.dialog(page).waitFor({ state: 'hidden' })
    // From the Account view, the network pill, then Bitcoin: back on the Account view.
    await page.getByRole('button', { name: 'Open modal' }).click()
    await ui
      .dialog(page)
      .getByRole('button', { name: /switch network$/ })
      .click()
    await ui.networkOption(page, 'Bitcoin Regtest').click()
    await ui.dialog(page).getByTestId('no-wallet').waitFor()
    expect(await ui.dialog(page).getByTestId('no-wallet').innerText()).toBe('No Bitcoin wallet connected.')
    await shot(page, 'bitcoin-no-wallet-account')
    await ui
      .dialog(page)
      .getByRole('button', { name: /connect wallet/i })
      .click()
    const bitcoinWallets = await directoryNames(page, [BITCOIN_MAINNET])
    expect(bitcoinWallets.length).toBeGreaterThanOrEqual(4)
    await expect.poll(() => connectRows(page).then((rows) => rows.filter((r) => r.section === 'recommended').length)).toBe(4)
    const rows = await connectRows(page)
    expect(rows.filter((r) => r.section === 'recommended').map((r) => r.name)).toEqual(bitcoinWallets.slice(0, 4))
    expect(rows.map((r) => r.name)).not.toContain(SOLANA_WALLET_NAME)
    expect(rows.map((r) => r.name)).not.toContain(TEST_WALLET_NAME)
    expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length)
    await page.waitForTimeout(300) // icons fade in (150 ms)
    await shot(page, 'bitcoin-no-wallet-connect')
  })

  it('a page of EVM, Solana and Bitcoin networks features wallets of each family, taking from each in turn', async () => {
    const page = await t.newPage({ wallet: false })
    await page.goto(`${t.demoUrl}?families=eip155,solana,bip122&siwx=off`)
    await openModal(page)
    const evm = await directoryNames(page, ['eip155:31337', 'eip155:1', 'eip155:42161', 'eip155:137'])
    const solana = await directoryNames(page, [SOLANA_MAINNET])
    const bitcoin = await directoryNames(page, [BITCOIN_MAINNET])
    await expect.poll(() => connectRows(page).then((rows) => rows.filter((r) => r.section === 'recommended').length)).toBe(4)
    const featured = (await connectRows(page)).filter((r) => r.section === 'recommended').map((r) => r.name)
    // each family's first in turn, each wallet once
    const expected: string[] = []
    for (let i = 0; expected.length < 4; i++)
      for (const name of [evm[i], solana[i], bitcoin[i]]) if (name && !expected.includes(name) && expected.length < 4) expected.push(name)
    expect(featured).toEqual(expected)
    expect(featured.some((name) => solana.includes(name) && !evm.includes(name))).toBe(true)
    expect(featured.some((name) => bitcoin.includes(name) && !evm.includes(name))).toBe(true)
    await page.waitForTimeout(300)
    await shot(page, 'three-families-page-connect')
  })
})

describe.each(VIEWPORTS)('on a %s, a newcomer', (name, mobile) => {
  it("finds 'New to wallets? Get a wallet' under the list: the directory's wallets with where to install them; a wallet's view says 'Don't have Rainbow? Get it'", async () => {
    const page = await t.newPage({ mobile })
    await openModal(page)
    const newcomer = ui.dialog(page).getByTestId('connect-view').locator('.newcomer')
    await newcomer.waitFor({ state: 'visible' })
    expect(await newcomer.innerText()).toMatch(/^New to wallets\?\s*Get a wallet$/)
    await shot(page, `newcomer-connect-${name}`)
    await newcomer.getByRole('button', { name: 'Get a wallet' }).click()
    const rows = ui.dialog(page).getByTestId('get-wallet-view').locator('a.row')
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(4)
    const links = await rows.evaluateAll((list) => list.map((a) => [a.querySelector('.name')?.textContent, a.getAttribute('href'), a.getAttribute('target')]))
    // The directory's own store links: Chrome's web store or the site on a computer, the app stores on the phone (an iPhone here).
    for (const [, href, target] of links) {
      expect(href).toMatch(/^https:\/\//)
      expect(target).toBe('_blank')
    }
    const metamask = links.find(([n]) => n === 'MetaMask')
    expect(metamask?.[1]).toBe(
      mobile ? 'https://apps.apple.com/us/app/metamask/id1438144202' : 'https://chrome.google.com/webstore/detail/metamask/nkbihfbeogaeaoehlefnkodbefgpgknn',
    )
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(mobile ? 390 : 1280)
    await shot(page, `newcomer-get-wallet-${name}`)

    await ui.backButton(page).click()
    await ui.allWalletsButton(page).click()
    await ui.search(page).fill('Rainbow')
    await ui.walletButton(page, 'Rainbow').click()
    const dontHave = ui.dialog(page).locator('.newcomer', { hasText: "Don't have Rainbow?" })
    await dontHave.waitFor({ state: 'visible', timeout: 20_000 })
    expect(await dontHave.getByRole('link', { name: 'Get it' }).getAttribute('href')).toBe(
      mobile
        ? 'https://apps.apple.com/app/apple-store/id1457119021?pt=119997837&ct=wc&mt=8'
        : 'https://chrome.google.com/webstore/detail/rainbow/opfgelmcmbiajamepnmloijbpoleiama?utm_source=wc&utm_medium=connector&utm_campaign=wc',
    )
    await shot(page, `newcomer-dont-have-${name}`)
  })
})
