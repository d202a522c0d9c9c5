import { ethereum, sigilDev } from '@sigil/core/networks'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeAdapter } from '../../../../../core/src/test-utils/index.js'
import type { AppKit } from '../../../appkit.js'
import { cleanup, serverBalance, shadow, stubDirectory, testAppKit, waitFor, dialogName } from '../../../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** The profile endpoints beside the directory's: alice.sigil.id is taken; a registration answers `refuse` when set. */
function stubProfileServer(init: { refuse?: boolean } = {}) {
  const directory = stubDirectory(5, { balances: [serverBalance('ETH', '2', { name: 'Ether' })] })
  const registered: unknown[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, req?: RequestInit) => {
      const url = new URL(String(input))
      if (!url.pathname.startsWith('/v1/profile/')) return directory(input)
      if (url.pathname.startsWith('/v1/profile/suggestions/')) {
        const label = decodeURIComponent(url.pathname.split('/').pop() ?? '')
        return json({
          suggestions: [
            { name: `${label}.sigil.id`, registered: label === 'alice' },
            { name: `${label}-1.sigil.id`, registered: false },
            { name: `${label}2026.sigil.id`, registered: false },
          ],
        })
      }
      if (url.pathname === '/v1/profile/account') {
        registered.push(JSON.parse(String(req?.body)))
        if (init.refuse)
          return json({ error: { code: 'BAD_REQUEST', message: 'x' }, reasons: [{ field: 'timestamp', description: 'The message is too old' }] }, 400)
        const body = JSON.parse(String(req?.body)) as { message: string }
        return json({ success: true, name: (JSON.parse(body.message) as { name: string }).name })
      }
      return json({ error: { code: 'NOT_FOUND', message: 'not found' } }, 404)
    }),
  )
  return { registered }
}

async function account(options: { refuse?: boolean; names?: boolean } = {}) {
  const server = stubProfileServer(options)
  const { adapter } = fakeAdapter()
  const { appKit } = testAppKit({
    networks: [sigilDev(), ethereum],
    adapters: [{ ...adapter, signMessage: vi.fn(async () => `0x${'22'.repeat(65)}`) }],
    features: { email: false, socials: false, analytics: false, ...(options.names === false ? { names: false } : {}) },
  })
  current = appKit
  await act(async () => {
    await appKit.client.connect('com.test')
  })
  await act(() => appKit.open({ view: 'Account' }))
  await waitFor(() => expect(shadow().querySelector('[data-testid=account-address]')).not.toBeNull())
  return { appKit, server }
}

const byTest = <T extends Element = HTMLElement>(id: string) => shadow().querySelector<T>(`[data-testid=${id}]`)
const type = (el: HTMLInputElement | null, value: string) =>
  act(() => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
    setter?.call(el, value)
    el?.dispatchEvent(new Event('input', { bubbles: true }))
  })
const click = (el: Element | null | undefined) => act(async () => (el as HTMLElement | null)?.click())
const title = () => dialogName()

describe('names: RegisterAccountName -> RegisterAccountNameSuccess', () => {
  it('is offered on the Account view unless the host turns names off', async () => {
    await account()
    expect(byTest('account-choose-name')?.textContent).toBe('Choose a name')
    cleanup(current)
    await account({ names: false })
    expect(byTest('account-choose-name')).toBeNull()
  })

  it('checks the label as it is typed, offers free names like a taken one, and registers the chosen one', async () => {
    const { server } = await account()
    await click(byTest('account-choose-name'))
    await waitFor(() => expect(byTest('register-name')).not.toBeNull())
    expect(title()).toBe('Choose Name')
    await type(byTest('register-name-input'), 'ali')
    expect(byTest('register-name-hint')?.textContent).toBe('A name has at least 4 characters: letters, digits and hyphens')
    expect(byTest<HTMLButtonElement>('register-name-submit')?.disabled).toBe(true)
    await type(byTest('register-name-input'), 'alice')
    await waitFor(() => expect(byTest('register-name-availability')?.textContent).toBe('alice.sigil.id is taken'))
    expect(byTest<HTMLButtonElement>('register-name-submit')?.disabled).toBe(true)
    const chips = [...shadow().querySelectorAll('[data-testid=register-name-suggestions] button')]
    expect(chips.map((c) => c.textContent)).toEqual(['alice-1.sigil.id', 'alice2026.sigil.id'])
    await click(chips[0])
    await waitFor(() => expect(byTest('register-name-availability')?.textContent).toBe('alice-1.sigil.id is available'))
    expect(byTest('register-name-submit')?.textContent).toBe('Register alice-1.sigil.id')
    await click(byTest('register-name-submit'))
    await waitFor(() => expect(byTest('register-name-success')).not.toBeNull())
    expect(byTest('register-name-success')?.textContent).toContain('alice-1.sigil.id is yours')
    expect(server.registered).toHaveLength(1)
    await click(shadow().querySelector('[data-testid=register-name-success] button'))
    await waitFor(() => expect(byTest('account-address')?.textContent).toBe('alice-1.sigil.id'))
    expect(byTest('account-choose-name')).toBeNull()
  })

  it('a refused registration comes back with its reason', async () => {
    await account({ refuse: true })
    await click(byTest('account-choose-name'))
    await waitFor(() => expect(byTest('register-name')).not.toBeNull())
    await type(byTest('register-name-input'), 'bobby')
    await waitFor(() => expect(byTest<HTMLButtonElement>('register-name-submit')?.disabled).toBe(false))
    await click(byTest('register-name-submit'))
    await waitFor(() => expect(byTest('register-name-failed')?.textContent).toBe('The message is too old'))
    expect(byTest<HTMLInputElement>('register-name-input')?.value).toBe('bobby')
    expect(title()).toBe('Choose Name')
  })
})
