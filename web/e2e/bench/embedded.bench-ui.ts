/**
 * make bench-ui, the embedded wallet: on loopback with the real server, frame and mail sink,
 * p50 over 20 runs of
 *   - frame ready after open: from the host page adding the hidden iframe to the frame's
 *     FRAME_READY message (a page load with a stored session, which opens the frame at once);
 *   - personal_sign, request to reply: from the Approve click in the frame to the signature
 *     back in the host page (frame -> server signs -> frame -> host), the user's reading time left out;
 * beside an injected wallet's personal_sign (the test wallet, signing through anvil) as the
 * baseline. Reported, not asserted (timings are not tests).
 */
import { expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { launchBrowser, newWalletPage } from '../src/browser.js'
import { emb, freshEmail, logIn } from '../src/embedded.js'
import { waitConnected } from '../src/ui.js'

const RUNS = 20
const env = inject('e2e')

const p50 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor((s.length - 1) / 2)] ?? Number.NaN
}
const fmt = (xs: number[]) => `p50 ${p50(xs).toFixed(1)} ms (min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)})`

/** Records, in every document of the page, when the frame was added and when it said it is ready (absolute ms). */
function instrument() {
  const w = window as unknown as { __bench: { added?: number; ready?: number; signed?: number; clicked?: number } }
  w.__bench = {}
  const now = () => performance.timeOrigin + performance.now()
  new MutationObserver((records) => {
    for (const r of records)
      for (const n of r.addedNodes) if (n instanceof HTMLIFrameElement && n.dataset.sigilFrame !== undefined && !w.__bench.added) w.__bench.added = now()
  }).observe(document, { childList: true, subtree: true })
  window.addEventListener('message', (e) => {
    if ((e.data as { type?: string })?.type === 'FRAME_READY' && !w.__bench.ready) w.__bench.ready = now()
  })
  // In the frame: when Approve was clicked.
  document.addEventListener(
    'click',
    (e) => {
      if ((e.target as HTMLElement | null)?.textContent === 'Approve') w.__bench.clicked = now()
    },
    true,
  )
}

const bench = (page: Page) => page.evaluate(() => (window as unknown as { __bench: Record<string, number | undefined> }).__bench)

it('embedded wallet: frame ready after open, personal_sign request to reply', async () => {
  if (!env.demoUrl) throw new Error(`no demo page: ${env.demoError}`)
  const browser = await launchBrowser()
  const ready: number[] = []
  const embedded: number[] = []
  const injected: number[] = []
  try {
    const { context, page } = await newWalletPage(browser, env.rpcUrl, { wallet: false })
    await context.addInitScript(instrument)
    await page.goto(`${env.demoUrl}/?email=on`)
    await logIn(page, env.mailUrl, freshEmail('bench'))
    for (let i = 0; i < RUNS; i++) {
      await page.reload()
      await waitConnected(page, 30_000)
      const b = await bench(page)
      if (!b.added || !b.ready) throw new Error(`no frame timings: ${JSON.stringify(b)}`)
      ready.push(b.ready - b.added)

      const frame = page.frames().find((f) => f.url().startsWith(env.frameUrl))
      if (!frame) throw new Error('no frame')
      await emb.provider.signMessage(page).click()
      await emb.approveButton(page).waitFor({ state: 'visible' })
      const signed = page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const el = document.querySelector('[data-testid="message-signature"]') as HTMLElement
            const check = () => /^0x[0-9a-f]{130}$/.test(el.textContent ?? '') && resolve(performance.timeOrigin + performance.now())
            new MutationObserver(check).observe(el, { childList: true, subtree: true, characterData: true })
            check()
          }),
      )
      await emb.approveButton(page).click()
      const done = await signed
      const clicked = (await frame.evaluate(() => (window as unknown as { __bench: { clicked?: number } }).__bench.clicked)) ?? Number.NaN
      embedded.push(done - clicked)
    }
    await context.close()

    const wallet = await newWalletPage(browser, env.rpcUrl)
    await wallet.page.goto(env.demoUrl)
    for (let i = 0; i < RUNS; i++) {
      injected.push(
        await wallet.page.evaluate(async () => {
          type Provider = { request(a: { method: string; params?: unknown[] }): Promise<unknown> }
          // The test wallet, found as a page finds any extension wallet: EIP-6963.
          const eth = await new Promise<Provider>((resolve) => {
            window.addEventListener('eip6963:announceProvider', (e) => resolve((e as CustomEvent<{ provider: Provider }>).detail.provider), { once: true })
            window.dispatchEvent(new Event('eip6963:requestProvider'))
          })
          const [account] = (await eth.request({ method: 'eth_requestAccounts' })) as string[]
          const t0 = performance.now()
          await eth.request({ method: 'personal_sign', params: ['0x48656c6c6f2066726f6d20746865205369676c2064656d6f', account] })
          return performance.now() - t0
        }),
      )
    }
    await wallet.context.close()
  } finally {
    await browser.close()
  }
  console.log(
    [
      `Embedded wallet on loopback, headless Chromium, ${RUNS} runs each`,
      `  frame ready after open (iframe added -> FRAME_READY):      ${fmt(ready)}`,
      `  personal_sign, approve click -> signature in the host page: ${fmt(embedded)}`,
      `  injected wallet personal_sign, request -> reply (baseline): ${fmt(injected)}`,
    ].join('\n'),
  )
  expect(ready).toHaveLength(RUNS)
  expect(embedded.every(Number.isFinite)).toBe(true)
  expect(injected).toHaveLength(RUNS)
})
