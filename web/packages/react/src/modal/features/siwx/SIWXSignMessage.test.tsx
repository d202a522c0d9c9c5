import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { localSiwx, type SIWXConfig, type SIWXSession } from '@sigil/core'
import type { AppKit } from '../../../appkit.js'
import { useAppKitSiwx, type AppKitSiwx } from '../../../hooks.js'
import { ADDRESS, cleanup, flush, MemoryStorage, press, render, shadow, stubDirectory, testAppKit, waitFor, dialogName } from '../../../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

const ICON = 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>'

/** A scriptable SIWXConfig keeping sessions in memory. */
type FakeSiwx = SIWXConfig & { statement: string; sessions: SIWXSession[]; fail?: unknown }

function fakeSiwx(required = true): FakeSiwx {
  const config: FakeSiwx = {
    statement: 'Sign in to the test app.',
    sessions: [] as SIWXSession[],
    fail: undefined as unknown,
    createMessage: vi.fn(async ({ accountAddress, chainId }) => {
      const data = { accountAddress, chainId, domain: 'localhost', uri: 'http://localhost', version: '1', nonce: 'nonce12345' }
      return { ...data, toString: () => `localhost wants you to sign in\n${accountAddress}` }
    }),
    addSession: vi.fn(async (session: SIWXSession) => {
      if (config.fail) throw config.fail
      config.sessions.push({ ...session, id: 'sess-1', expiresAt: '2030-01-01T00:00:00Z' })
    }),
    getSessions: vi.fn(async (chainId: string, address: string) =>
      config.sessions.filter((s) => s.data.chainId === chainId && s.data.accountAddress === address),
    ),
    revokeSession: vi.fn(async () => {
      config.sessions = []
    }),
    setSessions: vi.fn(async (s: SIWXSession[]) => {
      config.sessions = s
    }),
    getRequired: () => required,
    signOutOnDisconnect: true,
  }
  return config
}

async function connected(siwx: SIWXConfig) {
  stubDirectory()
  const { appKit, fake } = testAppKit({ siwx, metadata: { name: 'Test App', description: '', url: 'http://localhost', icons: [ICON] } })
  current = appKit
  await act(async () => {
    await appKit.client.connect('com.test')
  })
  const dialog = await waitFor(() => {
    const el = shadow().querySelector<HTMLElement>('[role=dialog][data-view=SIWXSignMessage]')
    // the view's feature chunk loads on first show
    if (!el?.querySelector('.siwx-actions')) throw new Error('no sign-in view')
    return el
  })
  return { appKit, fake, dialog }
}

const button = (dialog: HTMLElement, name: string) =>
  [...dialog.querySelectorAll('button')].find((b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim() === name) as HTMLButtonElement | undefined

/** Shows useAppKitSiwx's status and hands the hook's value to the test. */
let seen: AppKitSiwx | undefined
function SiwxProbe() {
  seen = useAppKitSiwx()
  return <span>{seen.status}</span>
}

describe('SIWXSignMessage view', () => {
  it('shows site and wallet icons, title, statement, Cancel and Sign; no Close while sign-in is required', async () => {
    const { dialog } = await connected(fakeSiwx())
    expect(dialogName(dialog)).toBe('Sign in with your wallet')
    expect(dialog.textContent).toContain('Test App wants to connect to your wallet')
    expect(dialog.textContent).toContain('Sign in to the test app.')
    const images = [...dialog.querySelectorAll('.siwx-icons img')].map((img) => img.getAttribute('src'))
    expect(images).toEqual([ICON, 'data:image/svg+xml,<svg/>'])
    expect(button(dialog, 'Cancel')).toBeDefined()
    expect(button(dialog, 'Sign')).toBeDefined()
    expect(button(dialog, 'Close')).toBeUndefined()
    expect(button(dialog, 'Back')).toBeUndefined()
  })

  it('Escape and the backdrop do not close while sign-in is required', async () => {
    const { appKit } = await connected(fakeSiwx())
    press('Escape')
    const overlay = shadow().querySelector('.overlay') as HTMLElement
    act(() => {
      overlay.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }))
    })
    expect(appKit.client.store.getState().modal.open).toBe(true)
  })

  it('Close shows when sign-in is optional', async () => {
    const { dialog, appKit } = await connected(fakeSiwx(false))
    const close = button(dialog, 'Close')
    expect(close).toBeDefined()
    act(() => close?.click())
    expect(appKit.client.store.getState().modal.open).toBe(false)
  })

  it('Sign: the wallet signs, the session is added, the modal closes and the hook reports it', async () => {
    const siwx = fakeSiwx()
    const { dialog, appKit, fake } = await connected(siwx)
    render(<SiwxProbe />)
    expect(seen?.status).toBe('signed-out')
    await act(async () => {
      button(dialog, 'Sign')?.click()
    })
    await waitFor(() => expect(appKit.client.store.getState().modal.open).toBe(false))
    expect(fake.adapter.signMessage).toHaveBeenCalledWith(fake.providers.get('eip155'), `localhost wants you to sign in\n${ADDRESS}`, ADDRESS)
    expect(siwx.addSession).toHaveBeenCalledWith(expect.objectContaining({ signature: '0xsigned' }))
    expect(seen?.status).toBe('signed-in')
    expect(seen?.session?.id).toBe('sess-1')
    await act(() => seen?.signOut() as Promise<void>)
    expect(siwx.revokeSession).toHaveBeenCalled()
    expect(seen?.status).toBe('signed-out')
    expect(appKit.client.store.getState().chains.eip155?.connectionStatus).toBe('disconnected')
  })

  it('a failure shows the error line and the view stays', async () => {
    const siwx = fakeSiwx()
    const { dialog, appKit, fake } = await connected(siwx)
    vi.mocked(fake.adapter.signMessage).mockRejectedValueOnce(Object.assign(new Error('no'), { code: 4001 }))
    await act(async () => {
      button(dialog, 'Sign')?.click()
    })
    const alert = await waitFor(() => {
      const el = shadow().querySelector('[data-view=SIWXSignMessage] [role=alert]')
      if (!el) throw new Error('no error line')
      return el
    })
    expect(alert.textContent).toBe('User rejected the request.')
    expect(appKit.client.store.getState().modal.open).toBe(true)
    siwx.fail = Object.assign(new Error('Nonce has already been used'), { status: 409 })
    await act(async () => {
      button(shadow().querySelector('[role=dialog]') as HTMLElement, 'Sign')?.click()
    })
    await waitFor(() => expect(shadow().querySelector('[role=alert]')?.textContent).toBe('Nonce has already been used'))
  })

  it('Cancel with required sign-in disconnects; the buttons are keyboard reachable', async () => {
    const { dialog, appKit } = await connected(fakeSiwx())
    const cancel = button(dialog, 'Cancel') as HTMLButtonElement
    const sign = button(dialog, 'Sign') as HTMLButtonElement
    expect(cancel.disabled).toBe(false)
    expect(sign.tabIndex).toBe(0)
    // Cancel and Sign are the dialog's only controls: Tab cycles between them.
    sign.focus()
    press('Tab')
    expect(shadow().activeElement).toBe(cancel)
    press('Tab', { shiftKey: true })
    expect(shadow().activeElement).toBe(sign)
    await act(async () => {
      cancel.click()
    })
    await flush()
    expect(appKit.client.store.getState().chains.eip155?.connectionStatus).toBe('disconnected')
    expect(appKit.client.store.getState().router.history).toEqual([{ view: 'Connect' }])
  })

  it('works with localSiwx end to end (session kept in storage)', async () => {
    const storage = new MemoryStorage()
    const { dialog, appKit } = await connected(localSiwx({ required: true, storage }))
    await act(async () => {
      button(dialog, 'Sign')?.click()
    })
    await waitFor(() => expect(appKit.client.store.getState().siwx.status).toBe('signed-in'))
    expect(storage.getItem('@appkit/siwx')).toContain('"signature":"0xsigned"')
  })
})
