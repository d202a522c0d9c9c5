import { ethereum, sigilDev } from '@sigil/core/networks'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeAdapter } from '../../../../../core/src/test-utils/index.js'
import type { AppKit } from '../../../appkit.js'
import { cleanup, dialogName, serverBalance, shadow, stubDirectory, testAppKit, waitFor } from '../../../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

const HASH = `0x${'ab'.repeat(32)}`
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** The JSON-RPC deposit methods beside the directory's: one exchange; the status as `state` says. */
function stubPayServer() {
  const directory = stubDirectory(5, { balances: [serverBalance('ETH', '2', { name: 'Ether' })] })
  const state = { status: 'IN_PROGRESS' as 'IN_PROGRESS' | 'SUCCESS' | 'FAILED' }
  const asked: { method: string; params: Record<string, unknown> }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, req?: RequestInit) => {
      const url = new URL(String(input))
      if (url.pathname !== '/v1/json-rpc') return directory(input)
      const body = JSON.parse(String(req?.body)) as { method: string; params: Record<string, unknown> }
      asked.push(body)
      const reply = (result: unknown) => json({ jsonrpc: '2.0', id: 1, result })
      if (body.method === 'reown_getExchanges') return reply({ exchanges: [{ id: 'sigil-sandbox', name: 'Sigil sandbox exchange', imageUrl: '' }], total: 1 })
      if (body.method === 'reown_getExchangePayUrl') return reply({ url: 'http://127.0.0.1:8080/pay/sandbox/s1', sessionId: 's1' })
      return reply(state.status === 'SUCCESS' ? { status: 'SUCCESS', txHash: HASH } : { status: state.status })
    }),
  )
  return { state, asked }
}

async function account(pay: boolean) {
  const server = stubPayServer()
  const { adapter } = fakeAdapter()
  const { appKit } = testAppKit({
    networks: [sigilDev(), ethereum],
    adapters: [adapter],
    features: { email: false, socials: false, analytics: false, pay },
  })
  current = appKit
  await act(async () => {
    await appKit.client.connect('com.test')
    await appKit.client.refreshBalance()
  })
  await act(() => appKit.open({ view: 'Account' }))
  await waitFor(() => expect(shadow().querySelector('[data-testid=account-receive]')).not.toBeNull())
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

describe('pay: PayWithExchange -> PayProgress', () => {
  it('off (the default): no entry; on: "Deposit from exchange" after the wallet features', async () => {
    await account(false)
    expect(byTest('account-pay')).toBeNull()
    cleanup(current)
    await account(true)
    const actions = [...shadow().querySelectorAll('.account-actions button')].map((b) => b.textContent)
    expect(actions[actions.length - 1]).toBe('Deposit from exchange')
    expect(actions.slice(0, -1)).toEqual(['Buy', 'Swap', 'Receive', 'Send'].filter((a) => actions.includes(a)))
  })

  it('the coin prefilled, the exchanges listed; a deposit opens the exchange and follows the status to SUCCESS', async () => {
    const { appKit, server } = await account(true)
    const popup = { closed: false, location: { href: 'about:blank' }, close: vi.fn() }
    const open = vi.fn(() => popup)
    vi.stubGlobal('open', open)
    await click(byTest('account-pay'))
    await waitFor(() => expect(byTest('pay')).not.toBeNull())
    expect(dialogName()).toBe('Deposit from exchange')
    expect(byTest<HTMLSelectElement>('pay-asset')?.value).toBe('eip155:31337/slip44:60')
    await waitFor(() => expect(byTest('pay-exchange-sigil-sandbox')?.textContent).toContain('Sigil sandbox exchange'))
    expect(server.asked[0]).toEqual({ jsonrpc: '2.0', id: 1, method: 'reown_getExchanges', params: { page: 0, asset: 'eip155:31337/slip44:60' } })
    expect(byTest<HTMLButtonElement>('pay-exchange-sigil-sandbox')?.disabled).toBe(true)
    await type(byTest('pay-amount'), '1.5.')
    expect(byTest('pay-refusal')?.textContent).toBe('Enter an amount above 0 with at most 18 decimals, such as 0.05')
    await type(byTest('pay-amount'), '0.05')
    expect(byTest('pay-refusal')).toBeNull()

    await click(byTest('pay-exchange-sigil-sandbox'))
    await waitFor(() => expect(byTest('pay-progress')).not.toBeNull())
    expect(open).toHaveBeenCalledTimes(1)
    expect(popup.location.href).toBe('http://127.0.0.1:8080/pay/sandbox/s1')
    expect(dialogName()).toBe('Deposit')
    expect(shadow().querySelector('.view [role=status]')?.textContent).toBe('Finish the deposit in the Sigil sandbox exchange window')
    expect(byTest('pay-depositing')?.textContent).toBe('Depositing 0.05 ETH')
    const minted = server.asked.find((a) => a.method === 'reown_getExchangePayUrl')?.params
    expect(minted).toMatchObject({ exchangeId: 'sigil-sandbox', asset: 'eip155:31337/slip44:60', amount: '0.05' })
    expect(String(minted?.recipient)).toMatch(/^eip155:31337:0x[0-9a-fA-F]{40}$/)

    // The visitor switches network meanwhile: the transaction is still the deposit's network's
    // (the dev chain has no explorer: its hash as text, not Ethereum's explorer).
    await act(() => appKit.client.switchNetwork(ethereum))
    server.state.status = 'SUCCESS'
    await waitFor(() => expect(byTest('pay-done')).not.toBeNull(), 8000)
    expect(byTest('pay-done')?.textContent).toContain('0.05 ETH arrived')
    expect(byTest('pay-explorer')).toBeNull()
    expect(byTest('pay-hash')?.getAttribute('title')).toBe(HASH)
    await click(shadow().querySelector('[data-testid=pay-done] button'))
    expect(dialogName()).toBe('Account')
  }, 15_000)

  it('a blocked window is offered as a link; FAILED says so and goes back to the form', async () => {
    const { server } = await account(true)
    vi.stubGlobal(
      'open',
      vi.fn(() => null),
    )
    await click(byTest('account-pay'))
    await waitFor(() => expect(byTest('pay-exchange-sigil-sandbox')).not.toBeNull())
    await type(byTest('pay-amount'), '1')
    await click(byTest('pay-exchange-sigil-sandbox'))
    await waitFor(() => expect(byTest('pay-progress')).not.toBeNull())
    expect(shadow().querySelector('.view [role=status]')?.textContent).toBe(
      'The browser blocked the Sigil sandbox exchange window: open it with the link below.',
    )
    expect(byTest<HTMLAnchorElement>('pay-open')?.href).toBe('http://127.0.0.1:8080/pay/sandbox/s1')
    server.state.status = 'FAILED'
    await waitFor(() => expect(byTest('pay-failed')).not.toBeNull(), 8000)
    expect(byTest('pay-failed')?.textContent).toContain('The deposit from Sigil sandbox exchange did not arrive.')
    await click(shadow().querySelector('[data-testid=pay-failed] button'))
    await waitFor(() => expect(byTest('pay')).not.toBeNull())
    expect(byTest<HTMLInputElement>('pay-amount')?.value).toBe('1')
  }, 15_000)
})
