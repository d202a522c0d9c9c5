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

const HASH = `0x${'ab'.repeat(32)}`
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** The onramp endpoints beside the directory's: a sandbox and a Meld provider selling ETH on the dev chain, 2,500 USD an ETH less 1.5 %. */
function stubOnrampServer(init: { sample?: boolean; noProviders?: boolean } = {}) {
  const directory = stubDirectory(5, { balances: [serverBalance('ETH', '2', { name: 'Ether' })] })
  const state = { status: 'pending' as 'pending' | 'completed' | 'failed' }
  const asked: { url: URL; body?: unknown }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, req?: RequestInit) => {
      const url = new URL(String(input))
      if (!url.pathname.includes('onramp')) return directory(input)
      asked.push({ url, ...(req?.body ? { body: JSON.parse(String(req.body)) } : {}) })
      switch (url.pathname) {
        case '/v1/onramp/options':
          return json({
            country: 'US',
            providers: init.noProviders
              ? []
              : [
                  { name: 'sandbox', label: 'Sigil sandbox', feeRange: '1-2%', url: null, supportedChains: ['eip155'] },
                  { name: 'meld', label: 'Meld.io', feeRange: '1-2%', url: 'https://meld.io', supportedChains: ['eip155', 'solana'] },
                ],
            paymentCurrencies: [
              {
                id: 'USD',
                payment_method_limits: [
                  { id: 'card', min: '10.00', max: '7500.00' },
                  { id: 'ach_bank_account', min: '10.00', max: '25000.00' },
                ],
              },
              { id: 'EUR', payment_method_limits: [{ id: 'card', min: '10.00', max: '7500.00' }] },
            ],
            purchaseCurrencies: [
              {
                id: 'ETH',
                name: 'Ether',
                symbol: 'ETH',
                networks: [{ name: 'sigil-dev', display_name: 'Sigil Dev', chain_id: '31337', contract_address: '' }],
              },
            ],
            sample: init.sample ?? false,
          })
        case '/v1/onramp/quote': {
          const body = JSON.parse(String(req?.body)) as { provider: string; amount: string; paymentCurrency: string }
          const paid = Number(body.amount)
          const eth = ((paid * 0.985) / 2500).toFixed(6)
          return json({
            provider: body.provider,
            quoteId: `q-${body.provider}`,
            paymentTotal: { amount: paid.toFixed(2), currency: body.paymentCurrency },
            paymentSubtotal: { amount: (paid * 0.985).toFixed(2), currency: body.paymentCurrency },
            purchaseAmount: { amount: eth, currency: 'ETH' },
            coinbaseFee: { amount: (paid * 0.015).toFixed(2), currency: body.paymentCurrency },
            networkFee: { amount: '0.00', currency: body.paymentCurrency },
            sample: body.provider === 'meld',
          })
        }
        case '/v1/generators/onrampurl':
          return json({ url: 'http://127.0.0.1:8080/onramp/sandbox/s1', sessionId: 's1' })
        case '/v1/onramp/sessions/s1':
          return json({
            sessionId: 's1',
            provider: 'sandbox',
            status: state.status,
            txHash: state.status === 'completed' ? HASH : null,
            network: 'eip155:31337',
            address: '0x1',
            purchaseAmount: { amount: '0.0394', currency: 'ETH' },
          })
      }
      return json({ error: { code: 'NOT_FOUND', message: 'not found' } }, 404)
    }),
  )
  return { state, asked }
}

async function account(options: { onramp?: boolean; sample?: boolean; noProviders?: boolean } = {}) {
  const server = stubOnrampServer(options)
  const { adapter } = fakeAdapter()
  const { appKit } = testAppKit({
    networks: [sigilDev(), ethereum],
    adapters: [adapter],
    features: { email: false, socials: false, analytics: false, onramp: options.onramp ?? true },
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
const title = () => dialogName()

describe('onramp: OnRamp -> OnRampProgress', () => {
  it('Buy comes first among the wallet features, and only while the host leaves onramp on', async () => {
    await account()
    const actions = [...shadow().querySelectorAll('.account-actions button')].map((b) => b.textContent)
    expect(actions[0]).toBe('Buy')
    expect(actions).toContain('Receive')
    cleanup(current)
    await account({ onramp: false })
    expect(byTest('account-buy')).toBeNull()
  })

  it('quotes each provider for the amount, checks the limits, and follows the purchase to done', async () => {
    const { server } = await account()
    const popup = { closed: false, location: { href: 'about:blank' }, close: vi.fn() }
    const open = vi.fn(() => popup)
    vi.stubGlobal('open', open)
    await click(byTest('account-buy'))
    await waitFor(() => expect(byTest('onramp')).not.toBeNull())
    expect(title()).toBe('Buy')
    expect(byTest('onramp-limits')?.textContent).toBe('From 10.00 to 7500.00 USD')
    await waitFor(() => expect(byTest('onramp-quote-sandbox')?.textContent).toContain('about 0.039400 ETH'))
    expect(byTest('onramp-quote-sandbox')?.textContent).toContain('Total 100.00 USD')
    // a new quote is announced politely
    expect(byTest('onramp-quote-sandbox')?.getAttribute('aria-live')).toBe('polite')
    // A provider that did not answer shows sample figures, said so.
    await waitFor(() => expect(byTest('onramp-quote-meld')?.textContent).toContain('Sample figures'))

    await type(byTest('onramp-amount'), '5')
    expect(byTest('onramp-refusal')?.textContent).toBe('The least you can pay by card is 10.00 USD')
    expect(byTest<HTMLButtonElement>('onramp-continue')?.disabled).toBe(true)
    await type(byTest('onramp-amount'), '250')
    await waitFor(() => expect(byTest('onramp-quote-sandbox')?.textContent).toContain('about 0.098500 ETH'))
    expect(byTest('onramp-continue')?.textContent).toBe('Continue with Sigil sandbox')

    await click(byTest('onramp-continue'))
    await waitFor(() => expect(byTest('onramp-progress')).not.toBeNull())
    expect(open).toHaveBeenCalledTimes(1)
    expect(popup.location.href).toBe('http://127.0.0.1:8080/onramp/sandbox/s1')
    expect(title()).toBe('Buying')
    expect(shadow().querySelector('.view [role=status]')?.textContent).toBe('Finish the purchase in the Sigil sandbox window')
    expect(byTest('onramp-paying')?.textContent).toBe('250 USD for 0.098500 ETH')
    const minted = server.asked.find((a) => a.url.pathname === '/v1/generators/onrampurl')?.body as { provider: string; presetFiatAmount: number }
    expect(minted).toMatchObject({ provider: 'sandbox', presetFiatAmount: 250 })

    server.state.status = 'completed'
    await waitFor(() => expect(byTest('onramp-done')).not.toBeNull(), 8000)
    expect(byTest('onramp-done')?.textContent).toContain('Bought 0.0394 ETH')
    await click(shadow().querySelector('[data-testid=onramp-done] button'))
    expect(title()).toBe('Account')
  }, 15_000)

  it('a blocked window is offered as a link; a declined purchase says so and goes back to the form', async () => {
    const { server } = await account()
    vi.stubGlobal(
      'open',
      vi.fn(() => null),
    )
    await click(byTest('account-buy'))
    await waitFor(() => expect(byTest<HTMLButtonElement>('onramp-continue')?.disabled).toBe(false))
    await click(byTest('onramp-continue'))
    await waitFor(() => expect(byTest('onramp-progress')).not.toBeNull())
    expect(shadow().querySelector('.view [role=status]')?.textContent).toBe('The browser did not open the Sigil sandbox window.')
    expect(byTest<HTMLAnchorElement>('onramp-open')?.href).toBe('http://127.0.0.1:8080/onramp/sandbox/s1')
    server.state.status = 'failed'
    await waitFor(() => expect(byTest('onramp-failed')).not.toBeNull(), 8000)
    expect(byTest('onramp-failed')?.textContent).toContain('Sigil sandbox says the purchase did not go through')
    await click(shadow().querySelector('[data-testid=onramp-failed] button'))
    await waitFor(() => expect(byTest('onramp')).not.toBeNull())
    expect(byTest<HTMLInputElement>('onramp-amount')?.value).toBe('100')
  }, 15_000)

  it('a server with no provider says buying is not set up', async () => {
    await account({ sample: true, noProviders: true })
    await click(byTest('account-buy'))
    await waitFor(() => expect(byTest('onramp-unavailable')?.textContent).toBe('Buying with a card is not set up on this server.'))
  })
})
