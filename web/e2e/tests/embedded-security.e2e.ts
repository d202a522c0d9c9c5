/**
 * The embedded wallet's trust boundary, in Chromium: the session token stays in the frame's
 * origin (the host page can neither read it nor ever receive it), messages from a third origin
 * are dropped by both the host page and the frame, and a page outside the project's allowed
 * origins cannot embed the frame at all.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ConsoleMessage, Page } from 'playwright-core'
import { approveInFrame, emb, freshEmail, logIn } from '../src/embedded.js'
import { useDemo } from '../src/fixtures.js'
import { codeOf, LOGIN_CODE, waitForMail } from '../src/mail.js'
import { waitConnected } from '../src/ui.js'

const t = useDemo({ wallet: false })
const EVIL = 'http://evil.test'

/** Serves a page at http://evil.test/ (a third origin, not among the project's). */
async function evilPage(body = ''): Promise<Page> {
  const page = await t.context.newPage()
  await page.route(`${EVIL}/**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><title>third origin</title>${body}` }))
  await page.goto(`${EVIL}/attack.html`)
  await page.evaluate(() => {
    const w = window as unknown as { received: unknown[] }
    w.received = []
    window.addEventListener('message', (e) => w.received.push(e.data))
  })
  return page
}

const frameOf = (page: Page) => page.frames().find((f) => f.url().startsWith(t.env.frameUrl))

describe('embedded wallet: security', () => {
  it('the host page cannot read the session token, and none of the messages it receives carries it', async () => {
    await t.context.addInitScript(() => {
      const w = window as unknown as { seen: string[] }
      w.seen = []
      window.addEventListener('message', (e) => w.seen.push(JSON.stringify(e.data)))
    })
    const consoleLines: string[] = []
    t.page.on('console', (m) => consoleLines.push(m.text()))
    await t.page.goto(`${t.demoUrl}/?email=on`)
    const email = freshEmail('frank')
    await logIn(t.page, t.env.mailUrl, email)
    const token = await frameOf(t.page)?.evaluate(() => localStorage.getItem('sigil-frame:token'))
    expect(token).toMatch(/^[0-9a-f]{64}$/)
    const code = codeOf(await waitForMail(t.env.mailUrl, email, LOGIN_CODE))
    // Neither the token nor the code is in the server's log, nor the token in any page's console.
    const serverLog = readFileSync(join(t.env.logsDir, 'sigil.log'), 'utf8')
    expect(serverLog).not.toContain(token)
    expect(serverLog).not.toMatch(new RegExp(`(^|[^0-9.])${code}([^0-9]|$)`, 'm'))
    expect(consoleLines.filter((l) => l.includes(token as string))).toEqual([])
    const live = await fetch(`${t.env.frameUrl}/wallet/v1/is-connected`, { headers: { authorization: `Bearer ${token}` } })
    expect(((await live.json()) as { isConnected: boolean }).isConnected).toBe(true)

    const host = await t.page.evaluate(async (frameUrl) => {
      const iframe = document.querySelector('iframe[data-sigil-frame]') as HTMLIFrameElement
      let direct: string
      try {
        direct = String(iframe.contentWindow?.localStorage.getItem('sigil-frame:token'))
      } catch (e) {
        direct = (e as Error).name
      }
      let api: string
      try {
        const res = await fetch(`${frameUrl}/wallet/v1/user`)
        api = `status ${res.status}`
      } catch (e) {
        api = (e as Error).name
      }
      const storage = JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie
      return { direct, api, storage, seen: (window as unknown as { seen: string[] }).seen }
    }, t.env.frameUrl)
    expect(host.direct).toBe('SecurityError')
    // The wallet API refuses the host's origin (or the browser keeps its answer from the page).
    expect(host.api).not.toBe('status 200')
    expect(host.storage).not.toContain(token)
    expect(host.seen.length).toBeGreaterThan(3)
    for (const message of host.seen) expect(message).not.toContain(token)
  })

  it('messages from a third origin are dropped by the host page and by the frame', async () => {
    await t.page.goto(`${t.demoUrl}/?email=on`)
    await logIn(t.page, t.env.mailUrl, freshEmail('grace'))

    // The third-origin page opens the demo (it then holds a handle to it and its frames).
    const evil = await evilPage()
    const popupEvent = t.context.waitForEvent('page')
    await evil.evaluate((url) => {
      ;(window as unknown as { target: Window | null }).target = window.open(url)
    }, `${t.demoUrl}/?email=on`)
    const popup = await popupEvent
    const logs: string[] = []
    popup.on('console', (m: ConsoleMessage) => logs.push(m.text()))
    await waitConnected(popup, 30_000)
    await expect.poll(() => frameOf(popup) !== undefined).toBe(true)

    await evil.evaluate(() => {
      const target = (window as unknown as { target: Window }).target
      const frame = target.frames[target.frames.length - 1] as Window
      // To the frame: requests a host would send, from the wrong origin.
      frame.postMessage({ id: 'evil-request-0001', type: 'GET_USER' }, '*')
      frame.postMessage({ id: 'evil-request-0002', type: 'SIGN_OUT' }, '*')
      frame.postMessage({ id: 'evil-request-0003', type: 'RPC_REQUEST', payload: { method: 'eth_accounts' } }, '*')
      // To the host page: what the frame would send.
      target.postMessage({ type: 'FRAME_READY', payload: {} }, '*')
      target.postMessage({ id: 'evil-request-0004', type: 'RESPONSE', ok: true, payload: { result: '0xdead' } }, '*')
    })
    // Both sides say so in the console (debug level), once per message.
    await expect.poll(() => logs.filter((l) => l.includes(`dropped a message from ${EVIL}`)).length, { timeout: 10_000 }).toBe(5)
    // Nothing came back to the third origin, and the session was not signed out.
    expect(await evil.evaluate(() => (window as unknown as { received: unknown[] }).received)).toEqual([])
    // (the popup's frame rotated the token when it loaded: read the current one)
    const token = await frameOf(popup)?.evaluate(() => localStorage.getItem('sigil-frame:token'))
    expect(token).toMatch(/^[0-9a-f]{64}$/)
    const live = await fetch(`${t.env.frameUrl}/wallet/v1/is-connected`, { headers: { authorization: `Bearer ${token}` } })
    expect(((await live.json()) as { isConnected: boolean }).isConnected).toBe(true)
  })

  it('an approval the host page covers, or makes transparent, cannot be approved; shown as it is, Approve works after a moment', async () => {
    await t.page.goto(`${t.demoUrl}/?email=on`)
    await logIn(t.page, t.env.mailUrl, freshEmail('gina'))
    await emb.provider.signMessage(t.page).click()
    await emb.approval(t.page).waitFor({ state: 'visible' })
    // Seen as it is for half a second: Approve works.
    await expect.poll(() => emb.approveButton(t.page).isEnabled(), { timeout: 10_000 }).toBe(true)
    // The host lays a transparent element over the approval (a click-jacking overlay), then makes
    // the frame itself translucent: Chromium's IntersectionObserver v2 says it is not visible.
    const cover = (how: 'overlay' | 'opacity' | 'none') =>
      t.page.evaluate((how) => {
        const iframe = document.querySelector('iframe[data-sigil-frame]') as HTMLIFrameElement
        document.getElementById('cover')?.remove()
        iframe.style.opacity = how === 'opacity' ? '0.5' : ''
        if (how !== 'overlay') return
        const r = iframe.getBoundingClientRect()
        const div = Object.assign(document.createElement('div'), { id: 'cover' })
        Object.assign(div.style, {
          position: 'fixed',
          left: `${r.left}px`,
          top: `${r.top}px`,
          width: `${r.width}px`,
          height: `${r.height}px`,
          zIndex: '2147483647',
          pointerEvents: 'none',
          opacity: '0.01',
          background: '#fff',
        })
        document.body.append(div)
      }, how)
    for (const how of ['overlay', 'opacity'] as const) {
      await cover(how)
      await expect.poll(() => emb.approveButton(t.page).isDisabled(), { timeout: 10_000 }).toBe(true)
      await cover('none')
      await expect.poll(() => emb.approveButton(t.page).isEnabled(), { timeout: 10_000 }).toBe(true)
    }
    await approveInFrame(t.page)
    await expect.poll(() => emb.provider.messageSignature(t.page).innerText(), { timeout: 20_000 }).toMatch(/^0x[0-9a-f]{130}$/i)
  })

  it('a page not among the allowed origins cannot embed the frame', async () => {
    const res = await fetch(`${t.env.frameUrl}/?projectId=${t.env.projectId}`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-security-policy')).toMatch(new RegExp(`frame-ancestors ${t.demoUrl.replace(/[.:/]/g, '\\$&')}$`))
    // The page lists the allowed origins for itself (it answers only those).
    expect(await res.text()).toContain(`<meta name="sigil-allowed-origins" content="${t.demoUrl}"`)

    const evil = await t.context.newPage()
    await evil.route(`${EVIL}/**`, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: `<!doctype html><title>third origin</title><iframe onload="window.framed = true" src="${t.env.frameUrl}/?projectId=${t.env.projectId}&chainId=eip155:31337"></iframe>`,
      }),
    )
    await evil.goto(`${EVIL}/embed.html`)
    // The browser refuses it (frame-ancestors), and the frame's load event fires on the error page.
    await evil.waitForFunction(() => (window as unknown as { framed?: boolean }).framed === true, undefined, { timeout: 15_000 })
    const child = evil.frames().find((f) => f !== evil.mainFrame())
    const loaded = await child?.evaluate(() => document.querySelector('meta[name="sigil-allowed-origins"]') !== null).catch(() => false)
    expect(loaded).toBe(false)
  })
})
