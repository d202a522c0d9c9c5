/**
 * make bench-ui: median time from clicking Connect (the pointer on it first) to the wallet list
 * being visible, over 15 runs each in headless Chromium, taking turns, for the demo (real server, directory prefetched when idle) and for
 * a plain React dialog page as the baseline, in the same run. Prints the figures and the ratio
 * against its goal (x1.5), and the absolute bound (50 ms): reported, not asserted (timings are
 * not tests).
 */
import { spawnSync } from 'node:child_process'
import { createReadStream, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { extname, join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { launchBrowser } from '../src/browser.js'
import { WEB_DIR } from '../src/paths.js'

const RUNS = 15
/** The goal for the click-to-list time, as a ratio to the plain React dialog's in the same run. */
const RATIO_GOAL = 1.5
const env = inject('e2e')
let baselineDir: string
let baseline: Server
let baselineUrl: string

beforeAll(async () => {
  baselineDir = mkdtempSync(join(tmpdir(), 'sigil-bench-baseline-'))
  const build = spawnSync('npm', ['run', 'build', '-w', '@sigil/bench-baseline', '--', '--outDir', baselineDir, '--emptyOutDir'], {
    cwd: WEB_DIR,
    encoding: 'utf8',
  })
  if (build.status !== 0) throw new Error(`baseline build failed:\n${build.stdout}\n${build.stderr}`)
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' }
  baseline = createServer((req, res) => {
    const path = join(baselineDir, req.url === '/' ? 'index.html' : ((req.url ?? '').split('?')[0] ?? ''))
    if (!path.startsWith(baselineDir) || !existsSync(path)) return void res.writeHead(404).end()
    res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' })
    createReadStream(path).pipe(res)
  })
  await new Promise<void>((resolve) => baseline.listen(0, '127.0.0.1', resolve))
  const address = baseline.address()
  baselineUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`
})

afterAll(() => {
  baseline?.close()
  if (baselineDir) rmSync(baselineDir, { recursive: true, force: true })
})

/**
 * Clicks `button` in the page (a CSS selector, or a JS expression giving the element when it
 * starts with '(') and resolves with the ms until `ready` holds (polled without frame waits).
 */
function clickToReady(page: Page, button: string, ready: string): Promise<number> {
  return page.evaluate(
    ({ button, ready }) =>
      new Promise<number>((resolve, reject) => {
        const isReady = new Function(`return (${ready})`) as () => boolean
        const el = button.startsWith('(') ? (new Function(`return ${button}`) as () => HTMLElement | null)() : document.querySelector<HTMLElement>(button)
        if (!el) return reject(new Error(`no ${button}`))
        const channel = new MessageChannel()
        const t0 = performance.now()
        channel.port1.onmessage = () => {
          if (isReady()) resolve(performance.now() - t0)
          else if (performance.now() - t0 > 10_000) reject(new Error('not ready after 10 s'))
          else channel.port2.postMessage(0)
        }
        el.click()
        channel.port2.postMessage(0)
      }),
    { button, ready },
  )
}

/** A page to open again and again, in a browser of its own. */
interface Subject {
  url: string
  button: string
  ready: string
  /** Runs in the page once `until` holds, before each click. */
  prepare?: { until: string; run: () => void }
}

/** One click-to-ready time of `subject`, on a fresh load of its page. */
async function measureOnce(page: Page, subject: Subject): Promise<number> {
  const { url, button, ready, prepare } = subject
  await page.goto(url, { waitUntil: 'load' })
  // Let idle-time prefetching (modal chunk, directory page 1) happen, as it would for a visitor.
  await page.waitForTimeout(800)
  if (prepare) {
    await page.waitForFunction(prepare.until)
    await page.evaluate(prepare.run)
  }
  // As a visitor clicks: the pointer reaches the button a moment before the click. Without
  // it, the first work after the page sat idle ran slower, and by how much varied from run
  // to run (Sigil's median 3.7 ms against 2.7 with the hover; the floor, clicked right
  // after its preparation, was not idle).
  await page.hover(button)
  await page.waitForTimeout(100)
  return clickToReady(page, button, ready)
}

/**
 * RUNS times each of `subjects`, taking turns (one run of each, then the next round), so a
 * slower or faster spell of the machine falls on all of them alike, not on one block of runs.
 */
async function measure(subjects: Subject[]): Promise<number[][]> {
  const runs = await Promise.all(
    subjects.map(async (subject) => {
      const browser = await launchBrowser()
      return { subject, browser, page: await browser.newPage({ viewport: { width: 1280, height: 900 } }), times: [] as number[] }
    }),
  )
  try {
    for (let i = 0; i < RUNS; i++) {
      for (const run of runs) run.times.push(await measureOnce(run.page, run.subject))
    }
    return runs.map((run) => run.times)
  } finally {
    await Promise.all(runs.map((run) => run.browser.close()))
  }
}

/**
 * The floor of opening the demo's modal: a button of the page whose click handler makes the
 * pre-rendered Connect view visible, and focuses the dialog once it has been painted as the
 * modal does, no React, no store: the style and layout work any open of that view costs,
 * whatever the code around it.
 */
function addFloorButton() {
  const root = document.querySelector('sigil-modal')?.shadowRoot?.querySelector<HTMLElement>('.root')
  if (!root) throw new Error('the Connect view is not pre-rendered')
  const button = document.createElement('button')
  button.id = 'floor-open'
  button.textContent = 'Open'
  button.onclick = () => {
    root.style.visibility = 'visible'
    requestAnimationFrame(() => setTimeout(() => root.querySelector<HTMLElement>('[role="dialog"]')?.focus({ preventScroll: true })))
  }
  document.body.append(button)
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  const at = (i: number) => s[i] ?? Number.NaN
  return s.length % 2 ? at((s.length - 1) / 2) : (at(s.length / 2 - 1) + at(s.length / 2)) / 2
}

it('click Connect -> wallet list visible', async () => {
  if (!env.demoUrl) throw new Error(`no demo page: ${env.demoError}`)
  // The wallet list: the Connect view with its directory wallets (at least 4 rows) laid out.
  // Visible, too: the closed modal keeps the view pre-rendered, laid out but hidden.
  const sigilReady = `(() => { const v = document.querySelector('sigil-modal')?.shadowRoot?.querySelector('[data-testid="connect-view"]'); return !!v && v.querySelectorAll('button').length >= 4 && v.getBoundingClientRect().height > 0 && getComputedStyle(v).visibility === 'visible' })()`
  const baselineReady = `(() => { const d = document.querySelector('[role="dialog"]'); return !!d && d.querySelectorAll('button').length >= 4 && d.getBoundingClientRect().height > 0 })()`
  const preRendered = `!!document.querySelector('sigil-modal')?.shadowRoot?.querySelector('.root [data-testid="connect-view"]')`
  const [sigil = [], base = [], floor = []] = await measure([
    { url: env.demoUrl, button: 'button.sigil-cb', ready: sigilReady },
    { url: baselineUrl, button: '#connect', ready: baselineReady },
    { url: env.demoUrl, button: '#floor-open', ready: sigilReady, prepare: { until: preRendered, run: addFloorButton } },
  ])
  const fmt = (xs: number[]) => `median ${median(xs).toFixed(1)} ms (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)})`
  console.log(
    [
      `Click Connect -> wallet list visible, headless Chromium, ${RUNS} runs each, taking turns (the pointer on the button 100 ms before the click)`,
      `  Sigil demo (real server, prefetched): ${fmt(sigil)}`,
      `  plain React dialog (baseline):        ${fmt(base)}`,
      `  floor, the demo's pre-rendered view shown by a bare click handler (no React): ${fmt(floor)}`,
      `  ratio to baseline: x${(median(sigil) / median(base)).toFixed(2)} (goal <= x${RATIO_GOAL}: ${median(sigil) / median(base) <= RATIO_GOAL ? 'met' : 'not met'}); under 50 ms: ${median(sigil) < 50 ? 'met' : 'not met'}`,
      `  the floor to baseline: x${(median(floor) / median(base)).toFixed(2)}; Sigil to the floor: x${(median(sigil) / median(floor)).toFixed(2)}`,
    ].join('\n'),
  )
  expect(sigil).toHaveLength(RUNS)
  expect(base).toHaveLength(RUNS)
  expect(floor).toHaveLength(RUNS)
})

it('choose WalletConnect -> QR visible', async () => {
  if (!env.demoUrl) throw new Error(`no demo page: ${env.demoError}`)
  const shadow = `document.querySelector('sigil-modal')?.shadowRoot`
  const row = `(${shadow}?.querySelector('button[data-section="walletConnect"]') ?? null)`
  const qrReady = `(() => { const q = ${shadow}?.querySelector('[data-testid="wc-qr"] svg'); return !!q && q.getBoundingClientRect().height > 0 })()`
  const browser = await launchBrowser()
  const times: number[] = []
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    for (let i = 0; i < RUNS; i++) {
      await page.goto(env.demoUrl, { waitUntil: 'load' })
      await page.waitForTimeout(800)
      await page.click('button.sigil-cb')
      await page.waitForFunction(`!!${row}`)
      // As a visitor does: the pointer reaches the option (the SDK client starts), then clicks.
      await page.locator('sigil-modal').locator('button[data-section="walletConnect"]').hover()
      await page.waitForTimeout(300)
      times.push(await clickToReady(page, row, qrReady))
    }
  } finally {
    await browser.close()
  }
  const fmt = (xs: number[]) => `median ${median(xs).toFixed(1)} ms (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)})`
  console.log(
    [
      `Choose WalletConnect -> QR visible, headless Chromium, ${RUNS} runs (hover 300 ms before the click, relay on loopback)`,
      `  Sigil demo: ${fmt(times)}; goal within 300 ms: ${median(times) < 300 ? 'met' : 'not met'}`,
    ].join('\n'),
  )
  expect(times).toHaveLength(RUNS)
})
