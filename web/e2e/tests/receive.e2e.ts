/**
 * Receive, end to end: the Account view's Receive button opens the address as a QR code that
 * decodes (jsQR, from a screenshot of the code as the browser drew it) to the connected
 * account's address and nothing else, the same address as text, a copy button that puts it on
 * the clipboard, the network by name, the warning, and the demo's other EVM networks. Both
 * themes, desktop and phone, with screenshots and axe.
 */
import { join } from 'node:path'
import jsQR from 'jsqr'
import { getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import type { Locator, Page } from 'playwright-core'
import { screenshot, seriousA11yViolations, walletAccount, type Theme } from '../src/browser.js'
import { useDemo } from '../src/fixtures.js'
import { SOLANA_WALLET_LABEL } from '../src/paths.js'
import { SOLANA_WALLET_NAME, solanaKey } from '../src/solana-wallet.js'
import { connectTestWallet, ui } from '../src/ui.js'

const t = useDemo()
const shots = () => join(t.env.artifactsDir, 'e2e')

/** The demo connected with the test wallet, the Receive view open. */
async function openReceive(page: Page): Promise<Locator> {
  await page.goto(`${t.demoUrl}?siwx=off`)
  await connectTestWallet(page)
  await ui.accountButton(page).click()
  await ui.dialog(page).getByRole('button', { name: 'Receive', exact: true }).click()
  const view = ui.dialog(page).getByTestId('receive-view')
  await view.waitFor()
  return view
}

/** The text of the QR code `locator` shows: a screenshot of it, its pixels read back by the browser, decoded by jsQR in the test. */
async function decodeQr(page: Page, locator: Locator): Promise<string | undefined> {
  const png = (await locator.screenshot({ animations: 'disabled' })).toString('base64')
  const image = await page.evaluate(async (data) => {
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${data}`)).blob())
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height)
    const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D
    context.drawImage(bitmap, 0, 0)
    const pixels = context.getImageData(0, 0, bitmap.width, bitmap.height)
    return { width: pixels.width, height: pixels.height, data: Array.from(pixels.data) }
  }, png)
  return jsQR(Uint8ClampedArray.from(image.data), image.width, image.height)?.data
}

describe('Receive', () => {
  it("a Solana account: its base58 address as the QR code and as text, and only the demo's other Solana networks beside it", async () => {
    const page = await t.newPage({ solana: { rpcUrl: t.env.solana.rpcUrl } })
    await page.goto(`${t.demoUrl}?families=eip155,solana,bip122&siwx=off`)
    await page.getByRole('button', { name: 'Open modal' }).click()
    await ui.walletButton(page, SOLANA_WALLET_NAME).click()
    await page.waitForFunction(() => document.querySelector('[data-testid="solana-status"]')?.textContent === 'connected', undefined, { timeout: 20_000 })
    const address = solanaKey(SOLANA_WALLET_LABEL).address
    await page.getByRole('button', { name: 'Open modal' }).click()
    await ui.dialog(page).getByRole('button', { name: 'Receive', exact: true }).click()
    const view = ui.dialog(page).getByTestId('receive-view')
    await view.waitFor()
    expect(await decodeQr(page, view.getByTestId('receive-qr'))).toBe(address)
    expect((await view.getByTestId('receive-address').locator('bdi').innerText()).trim()).toBe(address)
    expect((await view.getByTestId('receive-network').innerText()).trim()).toBe('Sigil Solana Dev')
    const compatible = view.getByTestId('receive-compatible')
    const names = (await compatible.count()) ? (await compatible.getByRole('listitem').allInnerTexts()).map((n) => n.trim()) : []
    expect(names.every((name) => /solana/i.test(name) && name !== 'Sigil Solana Dev')).toBe(true)
    const findings = await seriousA11yViolations(page)
    expect(findings, JSON.stringify(findings, null, 2)).toEqual([])
    await screenshot(page, shots(), 'receive-solana-desktop-light')
  })

  for (const theme of ['light', 'dark'] as Theme[]) {
    for (const mobile of [false, true]) {
      const device = mobile ? 'phone' : 'desktop'
      it(`${device}, ${theme}: the QR code decodes to the account's address; the address as text, copy, the network and its family's other networks`, async () => {
        const page = await t.newPage({ theme, mobile })
        const view = await openReceive(page)
        const address = getAddress(await walletAccount(page))
        expect(await page.getByRole('dialog', { name: 'Receive' }).count()).toBe(1)

        const qr = view.getByTestId('receive-qr')
        expect(await qr.getAttribute('aria-label')).toBe('QR code of your address on Sigil Dev')
        // The plain address, which every wallet scans: no scheme, no chain id.
        expect(await decodeQr(page, qr)).toBe(address)

        expect((await view.getByTestId('receive-address').locator('bdi').innerText()).trim()).toBe(address)
        expect((await view.getByTestId('receive-network').innerText()).trim()).toBe('Sigil Dev')
        expect((await view.getByTestId('receive-note').innerText()).trim()).toBe(
          'Only send Sigil Dev assets to this address. Assets sent from another network may be lost.',
        )
        const compatible = (await view.getByTestId('receive-compatible').getByRole('listitem').allInnerTexts()).map((s) => s.trim())
        expect(compatible.length).toBeGreaterThan(0)
        expect(compatible).not.toContain('Sigil Dev')
        expect(compatible).toContain('Ethereum')
        // Other families' networks are not listed: their addresses differ.
        expect(compatible.some((name) => /solana|bitcoin/i.test(name))).toBe(false)

        await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(t.demoUrl).origin })
        await view.getByRole('button', { name: 'Copy address' }).click()
        await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(address)
        await view.getByRole('button', { name: 'Address copied' }).waitFor()

        // Nothing is cut off: the view fits the card's width.
        const box = await view.boundingBox()
        const card = await ui.dialog(page).boundingBox()
        expect(box && card && box.x >= card.x && box.x + box.width <= card.x + card.width + 0.5).toBe(true)
        const findings = await seriousA11yViolations(page)
        expect(findings, JSON.stringify(findings, null, 2)).toEqual([])
        await screenshot(page, shots(), `receive-${device}-${theme}`)
      })
    }
  }
})
