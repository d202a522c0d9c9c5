/**
 * Headless Debian Chromium driven by playwright-core (no browser download), plus helpers the
 * tests share: a page with the test wallet injected, the modal's shadow root, screenshots and
 * an axe-core check.
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core'
import { CHROMIUM } from './paths.js'
import { bitcoinSigner, installBitcoinWallet, walletConfig } from './bitcoin-wallet.js'
import { BITCOIN_WALLET_LABEL, SOLANA_WALLET_LABEL } from './paths.js'
import { installSolanaWallet, SOLANA_WALLET_NAME, solanaKey } from './solana-wallet.js'
import { installTestWallet, type TestWalletConfig, type TestWalletControl } from './test-wallet.js'

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS })
}

export type Theme = 'light' | 'dark'

export interface PageOptions {
  wallet?: Partial<TestWalletConfig> | false
  theme?: Theme
  /** Inject the Wallet Standard Solana test wallet, sending to this JSON-RPC URL (the dev Solana runtime). */
  solana?: { rpcUrl: string }
  /** Inject the sats-connect Bitcoin test wallet (it signs in the test process). */
  bitcoin?: boolean
  /** A phone: an iPhone user agent, touch, a narrow viewport. */
  mobile?: boolean
}

const PHONE = {
  userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  isMobile: true,
  hasTouch: true,
  viewport: { width: 390, height: 844 },
}

/** A fresh context (empty localStorage) with the test wallet injected before any page script. */
export async function newWalletPage(browser: Browser, rpcUrl: string, options: PageOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    colorScheme: options.theme ?? 'light',
    viewport: { width: 1280, height: 900 },
    ...(options.mobile ? PHONE : {}),
  })
  if (options.wallet !== false) {
    const config: TestWalletConfig = { rpcUrl, chainId: 31337, ...options.wallet }
    await context.addInitScript(installTestWallet, config)
  }
  if (options.solana) {
    const key = solanaKey(SOLANA_WALLET_LABEL)
    await context.addInitScript(installSolanaWallet, {
      name: SOLANA_WALLET_NAME,
      rpcUrl: options.solana.rpcUrl,
      d: key.d,
      x: key.x,
      address: key.address,
      chains: ['solana:mainnet', 'solana:devnet', 'solana:testnet', 'solana:localnet'],
    })
  }
  if (options.bitcoin) {
    const sign = bitcoinSigner(BITCOIN_WALLET_LABEL)
    await context.exposeBinding('__sigilBitcoinSign', (_source, request) => sign(request))
    await context.addInitScript(installBitcoinWallet, walletConfig(BITCOIN_WALLET_LABEL))
  }
  // Every URL the context's pages ask for, from the first one on: HTTP (their frames' too) and
  // WebSockets, of this page and of every window it opens (a social login's popup).
  const requests: string[] = []
  context.on('request', (r) => requests.push(r.url()))
  context.on('page', (p) => p.on('websocket', (ws) => requests.push(ws.url())))
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(String(e)))
  ;(page as Page & { __errors?: string[] }).__errors = errors
  ;(page as Page & { __requests?: string[] }).__requests = requests
  return { context, page }
}

/** Every URL the page's context requested so far (HTTP and WebSocket; its popups' too). */
export const pageRequests = (page: Page): string[] => (page as Page & { __requests?: string[] }).__requests ?? []

/** Requests that left loopback: any http(s)/ws(s) URL whose host is not 127.0.0.1 or localhost. */
export function offLoopback(urls: readonly string[]): string[] {
  return urls.filter((u) => {
    const url = new URL(u)
    if (!/^(https?|wss?):$/.test(url.protocol)) return false
    return url.hostname !== '127.0.0.1' && url.hostname !== 'localhost'
  })
}

/** Uncaught page errors seen so far. */
export const pageErrors = (page: Page): string[] => (page as Page & { __errors?: string[] }).__errors ?? []

/** Runs a method of `window.__testWallet` in the page. */
export function wallet<K extends keyof TestWalletControl>(page: Page, method: K, ...args: TestWalletControl[K] extends (...a: infer A) => unknown ? A : []) {
  return page.evaluate(
    ({ method, args }) => {
      const control = (window as unknown as { __testWallet: Record<string, unknown> }).__testWallet
      const member = control[method]
      return typeof member === 'function' ? (member as (...a: unknown[]) => unknown)(...args) : member
    },
    { method: method as string, args: args as unknown[] },
  ) as Promise<TestWalletControl[K] extends (...a: never[]) => infer R ? Awaited<R> : TestWalletControl[K]>
}

/** The test wallet's connected account; throws when it has none. */
export async function walletAccount(page: Page): Promise<string> {
  const { account } = await wallet(page, 'state')
  if (!account) throw new Error('the test wallet has no connected account')
  return account
}

/** The modal: an element with role dialog (playwright's selectors pierce open shadow roots). */
export const modal = (page: Page): Locator => page.getByRole('dialog')

export async function screenshot(page: Page, dir: string, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  mkdirSync(dir, { recursive: true })
  await page.screenshot({ path: join(dir, `${name}.png`), animations: 'disabled', fullPage: options.fullPage ?? false })
}

export interface AxeFinding {
  id: string
  impact: string | null | undefined
  help: string
  targets: string[]
  /** axe's explanation for the first few nodes (e.g. the contrast ratio found). */
  details: string[]
}

/** axe-core findings of impact serious or critical within the modal (which lives in a shadow root). */
export async function seriousA11yViolations(page: Page): Promise<AxeFinding[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => JSON.stringify(n.target)),
      details: v.nodes.slice(0, 3).map((n) => `${n.html.slice(0, 160)} -> ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300)}`),
    }))
}
