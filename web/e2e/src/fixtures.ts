/**
 * Per-file fixtures: one Chromium for the file, a fresh context (empty storage, test wallet
 * injected) for each test, and the demo page's URL. When the demo could not be built or served,
 * every test that needs it fails with the reason (never silently skipped).
 */
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { join } from 'node:path'
import { launchBrowser, newWalletPage, pageErrors, screenshot, type PageOptions } from './browser.js'
import type { E2eEnv } from './paths.js'

export interface DemoFixture {
  env: E2eEnv
  /** The demo page (a test fails before it starts when the demo could not be built or served). */
  demoUrl: string
  browser: Browser
  context: BrowserContext
  page: Page
  /** Opens a fresh context and page (e.g. another theme); closed after the test. */
  newPage(options?: PageOptions): Promise<Page>
}

export function useDemo(options: PageOptions = {}): DemoFixture {
  const env = inject('e2e')
  const fixture = { env } as DemoFixture
  const extra: BrowserContext[] = []
  /** The page a test worked with last (the fixture's, or one from newPage()). */
  let lastPage: Page | undefined
  beforeAll(async () => {
    fixture.browser = await launchBrowser()
  })
  afterAll(async () => {
    await fixture.browser?.close()
  })
  beforeEach(async () => {
    if (!env.demoUrl) throw new Error(`no demo page to test: ${env.demoError}`)
    fixture.demoUrl = env.demoUrl
    const { context, page } = await newWalletPage(fixture.browser, env.rpcUrl, options)
    fixture.context = context
    fixture.page = page
    lastPage = page
    await page.goto(fixture.demoUrl)
  })
  afterEach(async (ctx) => {
    // The result's errors outlive a failed attempt (a retry that passes keeps them): the state says this attempt's.
    const result = ctx.task.result
    if (result?.state === 'fail') await reportFailure(ctx.task.name, result.retryCount ?? 0, result.errors?.at(-1)?.message)
    const errors = fixture.page ? pageErrors(fixture.page) : []
    if (errors.length && result?.state !== 'fail') console.warn(`[e2e] page errors in "${ctx.task.name}":\n${errors.join('\n')}`)
    await Promise.all(extra.splice(0).map((c) => c.close()))
    await fixture.context?.close()
    lastPage = undefined
  })
  /** On failure: a screenshot and what the modal and the wallet saw, to tell a UI change from a bug. */
  const reportFailure = async (testName: string, attempt: number, error: string | undefined) => {
    const page = lastPage ?? fixture.page
    if (!page || page.isClosed()) return
    // One screenshot per attempt: a retry's must not overwrite the first failure's.
    const name = `${testName.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}${attempt ? `-retry${attempt}` : ''}`
    await screenshot(page, join(env.artifactsDir, 'e2e', 'failures'), name).catch(() => undefined)
    const dialog = await page
      .getByRole('dialog')
      .innerText({ timeout: 1000 })
      .catch(() => '(no dialog)')
    const log = await page.evaluate(() => JSON.stringify((window as unknown as { __testWallet?: { log: unknown } }).__testWallet?.log ?? null)).catch(() => '?')
    const errors = pageErrors(page)
    console.error(
      `[e2e] "${testName}" failed (attempt ${attempt + 1}): ${error ?? '?'}\nDialog text:\n${dialog}\nWallet requests: ${log}${errors.length ? `\nPage errors:\n${errors.join('\n')}` : ''}`,
    )
  }
  fixture.newPage = async (pageOptions = {}) => {
    const { context, page } = await newWalletPage(fixture.browser, env.rpcUrl, { ...options, ...pageOptions })
    extra.push(context)
    lastPage = page
    await page.goto(fixture.demoUrl)
    return page
  }
  return fixture
}
