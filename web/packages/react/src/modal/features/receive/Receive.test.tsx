import qrcode from 'qrcode-generator'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AppKit } from '../../../appkit.js'
import { ADDRESS, cleanup, shadow, stubDirectory, testAppKit, waitFor, dialogName } from '../../../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

/** Connected, the Account view open, then its Receive button. */
async function receiveView(options: Parameters<typeof testAppKit>[0] = {}) {
  stubDirectory(10)
  const { appKit } = testAppKit(options)
  current = appKit
  await act(async () => {
    await appKit.client.connect('com.test')
    await new Promise((r) => setTimeout(r, 0))
  })
  await act(() => appKit.open({ view: 'Account' }))
  const button = await waitFor(() => {
    const el = shadow().querySelector<HTMLButtonElement>('[data-testid=account-receive]')
    if (!el) throw new Error('no receive button')
    return el
  })
  expect(button.textContent).toBe('Receive')
  act(() => button.click())
  const view = await waitFor(() => {
    const el = shadow().querySelector<HTMLElement>('[role=dialog][data-view=WalletReceive] [data-testid=receive-view]')
    if (!el) throw new Error('no receive view')
    return el
  })
  return { appKit, view }
}

/** The dark modules qrcode-generator makes of `text`, as the QR code's SVG path draws them. */
function pathOf(text: string): string {
  const qr = qrcode(0, 'M')
  qr.addData(text)
  qr.make()
  let d = ''
  for (let r = 0; r < qr.getModuleCount(); r++) for (let c = 0; c < qr.getModuleCount(); c++) if (qr.isDark(r, c)) d += `M${c} ${r}h1v1h-1z`
  return d
}

describe('Receive view', () => {
  it('the plain address as a QR code and as text, the network by name and icon, and only its assets', async () => {
    const { view } = await receiveView()
    expect(dialogName()).toBe('Receive')
    const qr = view.querySelector('[data-testid=receive-qr]') as SVGElement
    expect(qr.getAttribute('role')).toBe('img')
    expect(qr.getAttribute('aria-label')).toBe('QR code of your address on Sigil Dev')
    // The code is the address itself: no URI scheme, no chain id.
    expect(qr.querySelector('path')?.getAttribute('d')).toBe(pathOf(ADDRESS))
    expect(view.querySelector('[data-testid=receive-address] bdi')?.textContent).toBe(ADDRESS)
    expect(view.querySelector('[data-testid=receive-address]')?.textContent).toBe(`Your address: ${ADDRESS}`)
    expect(view.querySelector('[data-testid=receive-network]')?.textContent).toBe('Sigil Dev')
    expect(view.querySelector('[data-testid=receive-network] .img')).not.toBeNull()
    expect(view.querySelector('[data-testid=receive-note]')?.textContent).toBe(
      'Only send Sigil Dev assets to this address. Assets sent from another network may be lost.',
    )
  })

  it("lists the host's other networks of the same family", async () => {
    const { view } = await receiveView()
    const compatible = view.querySelector('[data-testid=receive-compatible]')
    expect([...(compatible?.querySelectorAll('li') ?? [])].map((li) => li.textContent)).toEqual(['Ethereum', 'Arbitrum One'])
    expect(compatible?.getAttribute('aria-labelledby')).toBeTruthy()
  })

  it('copies the address', async () => {
    const writeText = vi.fn(async () => undefined)
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    const { view } = await receiveView()
    const copy = view.querySelector<HTMLButtonElement>('[data-testid=receive-copy]') as HTMLButtonElement
    expect(copy.textContent).toBe('Copy address')
    await act(async () => copy.click())
    expect(writeText).toHaveBeenCalledWith(ADDRESS)
    await waitFor(() => expect(copy.textContent).toBe('Address copied'))
  })

  it('no Receive button when the host turned the feature off', async () => {
    stubDirectory(10)
    const { appKit } = testAppKit({ features: { email: false, socials: false, analytics: false, receive: false } })
    current = appKit
    await act(async () => {
      await appKit.client.connect('com.test')
    })
    await act(() => appKit.open({ view: 'Account' }))
    await waitFor(() => expect(shadow().querySelector('[data-testid=account-view]')).not.toBeNull())
    expect(shadow().querySelector('[data-testid=account-receive]')).toBeNull()
  })
})
