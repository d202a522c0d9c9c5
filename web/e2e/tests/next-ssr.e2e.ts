/**
 * The Next.js (App Router) host example, web/apps/next, rendered by its own server: built once
 * (`next build`, into a folder of its own, unless `make test` says its `npm run build` just made
 * apps/next/.next) and started with `next start` on a free port, pointed
 * at this run's Sigil server and anvil, with a project allowing its origin. The page's HTML from
 * the server has the connect button and its style; Chromium hydrates it with no hydration error and no console
 * error, keeping the server's button; the injected test wallet connects through the modal; after
 * a reload the server's HTML is the disconnected page again (the connection is in the browser's
 * localStorage) and the browser's instance restores it: the address shows.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { openSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core'
import { getAddress } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchBrowser, newWalletPage, offLoopback, pageErrors, pageRequests, wallet } from '../src/browser.js'
import { accounts } from '../src/chain.js'
import { SIGIL_BIN, WEB_DIR } from '../src/paths.js'
import { connectTestWallet, ui, waitConnected } from '../src/ui.js'

const env = inject('e2e')
const APP_DIR = join(WEB_DIR, 'apps/next')
// scripts/test.sh sets SIGIL_E2E_NEXT_BUILT=1 after its `npm run build`, which built the example
// from this tree into .next: starting that saves a second `next build`. Otherwise the suite builds
// into a folder of its own and leaves .next (npm run build, make size) alone.
const PREBUILT = process.env.SIGIL_E2E_NEXT_BUILT === '1'
const DIST_DIR = PREBUILT ? '.next' : '.next-e2e'

/** What React and Next say when hydration goes wrong, in development and production builds. */
const HYDRATION = /hydrat|didn't match|did not match|minified react error #(418|419|421|422|423|425)/i

let nextUrl = ''
let server: ChildProcess | undefined
let browser: Browser
let context: BrowserContext | undefined

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** Runs a command to its end without blocking the test process; rejects with its output's tail. */
function run(cmd: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('error', reject)
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}:\n${output.slice(-6000)}`))))
  })
}

/** Resolves once `url` answers 200; rejects when the server exits first or after `timeoutMs`. */
async function waitUp(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with code ${child.exitCode} (log: ${env.logsDir}/next.log)`)
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    )
    if (ok) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`next start did not answer ${url} within ${timeoutMs} ms (log: ${env.logsDir}/next.log)`)
}

beforeAll(async () => {
  // The library packages were built by the global setup (the demo consumes them too).
  if (!PREBUILT) {
    await run('npm', ['run', 'build', '-w', '@sigil/next-example'], {
      cwd: WEB_DIR,
      env: { ...process.env, SIGIL_NEXT_DIST_DIR: DIST_DIR, NEXT_TELEMETRY_DISABLED: '1' },
    })
  }
  const port = await freePort()
  nextUrl = `http://127.0.0.1:${port}`
  // A project of this run's Sigil server for the example's origin.
  const add = spawnSync(SIGIL_BIN, ['project', 'add', '--name', 'next-example', '--origin', nextUrl], {
    env: { ...process.env, SIGIL_DATABASE_URL: `sqlite://${join(env.logsDir, 'e2e.db')}` },
    encoding: 'utf8',
  })
  const projectId = add.stdout.trim().split('\n').pop()?.trim() ?? ''
  if (add.status !== 0 || !/^[0-9a-f]{32}$/.test(projectId)) throw new Error(`sigil project add failed (${add.status}):\n${add.stdout}\n${add.stderr}`)
  const log = openSync(join(env.logsDir, 'next.log'), 'a')
  server = spawn(join(WEB_DIR, 'node_modules/.bin/next'), ['start', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: APP_DIR,
    env: {
      ...process.env,
      NEXT_TELEMETRY_DISABLED: '1',
      SIGIL_NEXT_DIST_DIR: DIST_DIR,
      SIGIL_API_URL: env.apiUrl,
      SIGIL_PROJECT_ID: projectId,
      SIGIL_DEV_RPC_URL: env.rpcUrl,
    },
    stdio: ['ignore', log, log],
    detached: true,
  })
  await waitUp(`${nextUrl}/`, server)
  browser = await launchBrowser()
}, 300_000)

afterAll(async () => {
  await browser?.close()
  if (server?.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM')
})

afterEach(async () => {
  await context?.close()
  context = undefined
})

/**
 * A page with the test wallet injected that keeps what its console says (errors and warnings)
 * and, for each document, the connect button the HTML parser made (the server's), so a client
 * render replacing the server's DOM is seen even where React says nothing.
 */
async function pageWithConsole(): Promise<{ page: Page; messages: string[] }> {
  const opened = await newWalletPage(browser, env.rpcUrl)
  context = opened.context
  const { page } = opened
  const messages: string[] = []
  page.on('console', (m: ConsoleMessage) => {
    if (m.type() === 'error' || m.type() === 'warning' || HYDRATION.test(m.text())) messages.push(`${m.type()}: ${m.text()} (${m.location().url})`)
  })
  await context.addInitScript(() => {
    const seen = window as unknown as { __serverButton?: Element }
    new MutationObserver((records, observer) => {
      for (const record of records)
        for (const node of record.addedNodes)
          if (node instanceof HTMLButtonElement && node.classList.contains('sigil-cb')) {
            seen.__serverButton = node
            observer.disconnect()
          }
    }).observe(document, { childList: true, subtree: true })
  })
  return { page, messages }
}

/** Resolves once React has hydrated the button (it keeps its fiber on the DOM node). */
async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const button = document.querySelector('button.sigil-cb')
    return button !== null && Object.keys(button).some((key) => key.startsWith('__reactFiber$'))
  })
}

/** Whether the button in the page is still the one the server's HTML made. */
const keptServerButton = (page: Page) =>
  page.evaluate(() => {
    const seen = window as unknown as { __serverButton?: Element }
    return seen.__serverButton !== undefined && document.querySelector('button.sigil-cb') === seen.__serverButton
  })

describe('Next.js App Router example (web/apps/next): server rendering', () => {
  it("the server's HTML has the connect button, rendered with the request's own instance", async () => {
    const res = await fetch(`${nextUrl}/`)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toMatch(/<button type="button" class="sigil-cb"[^>]*aria-haspopup="dialog">Connect Wallet<\/button>/)
    expect(html).toContain('<dd data-testid="status">disconnected</dd>')
    expect(html).toContain('<dd data-testid="network">Sigil Dev</dd>')
    // Its style is in the page's head: the button is styled before any script runs.
    expect(html).toMatch(/<head>.*<style data-precedence="sigil" data-href="sigil-connect-button-style">\.sigil-cb\{.*<\/head>/s)
  })

  it('hydrates with no warning, connects the test wallet through the modal, and is connected again after a reload', async () => {
    const { page, messages } = await pageWithConsole()
    await page.goto(`${nextUrl}/`)
    await hydrated(page)
    expect(await keptServerButton(page)).toBe(true)
    expect(await ui.status(page).innerText()).toBe('disconnected')
    // The server's style, kept once (the client render did not add another).
    expect(await page.locator('style[data-href="sigil-connect-button-style"]').count()).toBe(1)
    expect(await ui.connectButton(page).evaluate((b) => getComputedStyle(b).borderRadius)).toBe('999px')

    await connectTestWallet(page)
    const [first] = await accounts(env.rpcUrl)
    expect(getAddress(await page.getByTestId('address').innerText())).toBe(getAddress(first))
    // Kept where the reload finds it: the browser's localStorage.
    expect(await page.evaluate(() => localStorage.getItem('@appkit/eip155:connection_status'))).toBe('connected')
    expect((await wallet(page, 'log')).filter((r) => r.method === 'eth_requestAccounts').length).toBeGreaterThan(0)

    const response = await page.reload()
    // The server knows nothing of the visitor's wallet: it renders the disconnected button again.
    expect(await response?.text()).toMatch(/aria-haspopup="dialog">Connect Wallet<\/button>/)
    await hydrated(page)
    expect(await keptServerButton(page)).toBe(true)
    await waitConnected(page)
    expect(getAddress(await page.getByTestId('address').innerText())).toBe(getAddress(first))
    // The button shows the account (its full address in the title of the shortened one).
    expect(getAddress((await ui.accountButton(page).locator('span[title]').getAttribute('title')) ?? '')).toBe(getAddress(first))
    // Restored without asking the wallet again.
    expect((await wallet(page, 'log')).filter((r) => r.method === 'eth_requestAccounts')).toEqual([])

    expect(messages.filter((m) => HYDRATION.test(m))).toEqual([])
    expect(messages.filter((m) => m.startsWith('error:'))).toEqual([])
    expect(pageErrors(page)).toEqual([])
    // Nothing left this machine (no telemetry, no vendor host).
    expect(offLoopback(pageRequests(page))).toEqual([])
  })
})
