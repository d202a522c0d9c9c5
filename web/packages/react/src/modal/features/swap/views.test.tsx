import type { CallBatch } from '@sigil/core'
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

const SGL = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const USDT = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const ROUTER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const USER = '0x1111111111111111111111111111111111111111'
const NATIVE = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const HASH = `0x${'ab'.repeat(32)}`

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** The swap endpoints beside the directory's: ETH, SGL (6 decimals) and USDT on the asked chain, 2500 SGL an ETH. */
function stubSwapServer(options: { unsupported?: boolean; noRoute?: boolean } = {}) {
  const directory = stubDirectory(5, {
    balances: [serverBalance('ETH', '2', { name: 'Ether' }), serverBalance('SGL', '100', { name: 'Sigil', address: SGL, decimals: '6' })],
  })
  const asked: URL[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input))
    if (!url.pathname.startsWith('/v1/convert/')) return directory(input)
    asked.push(url)
    const q = url.searchParams
    if (options.unsupported) return json({ error: { code: 'BAD_REQUEST', message: 'Network not supported for Swaps' } }, 400)
    switch (url.pathname) {
      case '/v1/convert/tokens': {
        const chain = q.get('chainId')
        return json({
          tokens: [
            { name: 'Ether', symbol: 'ETH', address: `${chain}:${NATIVE}`, decimals: 18, logoUri: 'https://api.test/img/token.png' },
            { name: 'Sigil', symbol: 'SGL', address: `${chain}:${SGL}`, decimals: 6, logoUri: 'https://api.test/img/token.png' },
            { name: 'Tether USD', symbol: 'USDT', address: `${chain}:${USDT}`, decimals: 6, logoUri: 'https://api.test/img/token.png' },
          ],
        })
      }
      case '/v1/convert/gas-price':
        return json({ standard: '1000000000', fast: '2000000000', instant: '3000000000' })
      case '/v1/convert/quotes': {
        if (options.noRoute) return json({ error: { code: 'NO_ROUTE', message: 'no route' } }, 400)
        const amount = BigInt(q.get('amount') ?? '0')
        const selling = (q.get('from') ?? '').endsWith(NATIVE)
        const toAmount = selling ? (amount * 2_500n) / 10n ** 12n : (amount * 10n ** 12n) / 2_500n
        return json({
          quotes: [
            { id: null, fromAmount: amount.toString(), fromAccount: q.get('from'), toAmount: toAmount.toString(), toAccount: q.get('to'), priceImpact: 0.4 },
          ],
        })
      }
      case '/v1/convert/allowance':
        return json({ allowance: '0' })
      case '/v1/convert/build-approve':
        return json({ tx: { from: USER, to: SGL, data: `0x095ea7b3${'0'.repeat(128)}`, value: '0' } })
      case '/v1/convert/build-transaction': {
        const body = JSON.parse(String(init?.body)) as { amount: string }
        return json({ tx: { from: USER, to: ROUTER, data: '0x7ff36ab5', amount: body.amount, eip155: { gas: '150000', gasPrice: '1000000000' } } })
      }
    }
    return json({ error: { code: 'NOT_FOUND', message: 'not found' } }, 404)
  })
  vi.stubGlobal('fetch', fetchMock)
  return { asked }
}

async function account(options: { calls?: boolean; atomic?: boolean; unsupported?: boolean; noRoute?: boolean; swaps?: boolean } = {}) {
  const server = stubSwapServer(options)
  const { adapter } = fakeAdapter()
  const family = {
    atomic: vi.fn(async () => options.atomic ?? false),
    send: vi.fn(async (_provider: unknown, batch: CallBatch) => {
      batch.onSubmitted?.(HASH)
      return HASH
    }),
  }
  const isAddress = (a: string) => /^0x[0-9a-fA-F]{40}$/.test(a)
  const { appKit } = testAppKit({
    networks: [sigilDev(), ethereum],
    adapters: [{ ...adapter, isAddress, ...(options.calls === false ? {} : { calls: { load: async () => family } }) }],
    features: { email: false, socials: false, analytics: false, swaps: options.swaps ?? true },
  })
  current = appKit
  await act(async () => {
    await appKit.client.connect('com.test')
    await appKit.client.refreshBalance()
  })
  await act(() => appKit.open({ view: 'Account' }))
  await waitFor(() => {
    if (!shadow().querySelector('[data-testid=token-row][data-symbol=SGL]')) throw new Error('no tokens yet')
  })
  return { appKit, family, server }
}

const byTest = <T extends Element = HTMLElement>(id: string) => shadow().querySelector<T>(`[data-testid=${id}]`)
const type = (el: HTMLInputElement | null, value: string) =>
  act(() => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
    setter?.call(el, value)
    el?.dispatchEvent(new Event('input', { bubbles: true }))
  })
const click = (el: Element | null | undefined) => act(async () => (el as HTMLElement | null)?.click())
const submit = () => byTest<HTMLButtonElement>('swap-submit')
const title = () => dialogName()

async function swapForm(options: Parameters<typeof account>[0] = {}) {
  const s = await account(options)
  await click(byTest('account-swap'))
  await waitFor(() => expect(byTest('swap') ?? byTest('swap-unavailable')).not.toBeNull())
  return s
}

describe('swap: Swap -> SwapSelectToken -> SwapPreview -> SwapDone', () => {
  it('is offered on a family with the calls capability while the host leaves swaps on', async () => {
    await account({ calls: false })
    expect(byTest('account-swap')).toBeNull()
    cleanup(current)
    await account({ swaps: false })
    expect(byTest('account-swap')).toBeNull()
    cleanup(current)
    await account()
    expect(byTest('account-swap')?.textContent).toBe('Swap')
  })

  it('sells ETH for a token chosen in its own view, quoted as the amount is typed', async () => {
    const { family } = await swapForm()
    expect(title()).toBe('Swap')
    await waitFor(() => expect(byTest('swap-from-token')?.textContent).toBe('ETH'))
    expect(byTest('swap-balance')?.textContent).toBe('Balance 2.000 ETH')
    expect(submit()?.textContent).toBe('Choose a Token to Receive')
    await click(byTest('swap-to-token'))
    await waitFor(() => expect(byTest('swap-select-token')).not.toBeNull())
    expect(title()).toBe('Choose a Token')
    await waitFor(() => expect(byTest('swap-popular-tokens')).not.toBeNull())
    const symbols = (id: string) =>
      [...shadow().querySelectorAll(`[data-testid=${id}] [data-testid=swap-token-option]`)].map((o) => o.getAttribute('data-symbol'))
    expect(symbols('swap-own-tokens')).toEqual(['ETH', 'SGL'])
    expect(symbols('swap-popular-tokens')).toEqual(['USDT'])
    await type(shadow().querySelector('input[type=search]'), 'tether')
    expect(symbols('swap-own-tokens')).toEqual([])
    expect(symbols('swap-popular-tokens')).toEqual(['USDT'])
    await type(shadow().querySelector('input[type=search]'), 'nothing')
    expect(byTest('swap-no-tokens')?.textContent).toBe('No token matches “nothing”.')
    await type(shadow().querySelector('input[type=search]'), '')
    await click(shadow().querySelector('[data-testid=swap-own-tokens] [data-symbol=SGL]'))
    await waitFor(() => expect(byTest('swap-to-token')?.textContent).toBe('SGL'))
    expect(submit()?.textContent).toBe('Enter an Amount')
    await type(byTest('swap-amount'), '3')
    expect(submit()?.textContent).toBe('Not Enough Funds')
    await type(byTest('swap-amount'), '0.1')
    await waitFor(() => expect(byTest('swap-to-amount')?.textContent).toBe('250'))
    // a new quote is announced: the amount is an <output> (a polite status region), busy while it is asked for
    expect(byTest('swap-to-amount')?.tagName).toBe('OUTPUT')
    expect(submit()?.textContent).toBe('Review Swap')
    expect(submit()?.disabled).toBe(false)

    await click(submit())
    await waitFor(() => expect(byTest('swap-minimum')?.textContent).toBe('247.5 SGL'))
    expect(title()).toBe('Review Swap')
    expect(byTest('swap-preview-to')?.textContent).toBe('250 SGL')
    expect(byTest('swap-price-impact')?.textContent).toBe('0.40 %')
    expect(byTest('swap-preview-slippage')?.textContent).toBe('1 %')
    expect(byTest('swap-rate')?.textContent).toBe('1 ETH = 2500 SGL')
    expect(byTest('swap-fee')?.textContent).toBe('about 0.00015 ETH')
    expect(byTest('swap-confirmations')?.textContent).toBe('One confirmation in your wallet')
    expect(byTest('swap-approval')).toBeNull()
    expect(byTest('swap-refresh')?.textContent).toMatch(/^The quote is refreshed in 1[45]s$/)
    await click(byTest('swap-confirm'))
    await waitFor(() => expect(byTest('swap-done')).not.toBeNull())
    expect(byTest('swap-done')?.textContent).toContain('Swapped 0.1 ETH for about 250 SGL')
    expect(family.send).toHaveBeenCalledTimes(1)
    expect(family.send.mock.calls[0]?.[1].calls).toEqual([{ to: ROUTER, data: '0x7ff36ab5', value: 10n ** 17n, gas: 150_000n }])
  })

  it('a token sold is approved for exactly the amount unless unlimited is ticked; two confirmations without atomic batches', async () => {
    const { family, server } = await swapForm()
    await waitFor(() => expect(byTest('swap-from-token')?.textContent).toBe('ETH'))
    await click(byTest('swap-to-token'))
    await waitFor(() => expect(byTest('swap-own-tokens')).not.toBeNull())
    await click(shadow().querySelector('[data-testid=swap-own-tokens] [data-symbol=SGL]'))
    await waitFor(() => expect(byTest('swap-to-token')?.textContent).toBe('SGL'))
    await click(byTest('swap-switch'))
    await waitFor(() => expect(byTest('swap-from-token')?.textContent).toBe('SGL'))
    expect(byTest('swap-to-token')?.textContent).toBe('ETH')
    await type(byTest('swap-amount'), '25')
    await type(byTest('swap-slippage'), '0.5')
    await waitFor(() => expect(byTest('swap-to-amount')?.textContent).toBe('0.01'))
    await click(submit())
    await waitFor(() => expect(byTest('swap-approval')?.textContent).toBe('Exactly 25 SGL'))
    expect(byTest('swap-preview-slippage')?.textContent).toBe('0.5 %')
    expect(byTest('swap-minimum')?.textContent).toBe('0.00995 ETH')
    expect(byTest('swap-confirmations')?.textContent).toBe('2 confirmations in your wallet, one after the other')
    const approvals = () => server.asked.filter((u) => u.pathname === '/v1/convert/build-approve').map((u) => u.searchParams.get('amount'))
    expect(approvals().at(-1)).toBe('25000000')
    await click(byTest('swap-unlimited'))
    await waitFor(() => expect(byTest('swap-approval')?.textContent).toBe('Unlimited SGL'))
    expect(approvals().at(-1)).toBe('max')
    await click(byTest('swap-confirm'))
    await waitFor(() => expect(byTest('swap-done')).not.toBeNull())
    expect(family.send.mock.calls[0]?.[1]).toMatchObject({ atomic: false })
    expect(family.send.mock.calls[0]?.[1].calls).toHaveLength(2)
  })

  it('one confirmation when the wallet batches atomically', async () => {
    await swapForm({ atomic: true })
    await waitFor(() => expect(byTest('swap-from-token')?.textContent).toBe('ETH'))
    await click(byTest('swap-to-token'))
    await waitFor(() => expect(byTest('swap-own-tokens')).not.toBeNull())
    await click(shadow().querySelector('[data-testid=swap-own-tokens] [data-symbol=ETH]'))
    // ETH chosen to receive: the sides switch, SGL is not yet anywhere; choose SGL to pay.
    await waitFor(() => expect(byTest('swap-to-token')?.textContent).toBe('ETH'))
    await click(byTest('swap-from-token'))
    await waitFor(() => expect(byTest('swap-own-tokens')).not.toBeNull())
    await click(shadow().querySelector('[data-testid=swap-own-tokens] [data-symbol=SGL]'))
    await waitFor(() => expect(byTest('swap-from-token')?.textContent).toBe('SGL'))
    await type(byTest('swap-amount'), '25')
    await waitFor(() => expect(submit()?.disabled).toBe(false))
    await click(submit())
    await waitFor(() => expect(byTest('swap-confirmations')?.textContent).toBe('One confirmation in your wallet'))
  })

  it('says there is no route, and that a network has no swaps', async () => {
    await swapForm({ noRoute: true })
    await waitFor(() => expect(byTest('swap-from-token')?.textContent).toBe('ETH'))
    await click(byTest('swap-to-token'))
    await waitFor(() => expect(byTest('swap-own-tokens')).not.toBeNull())
    await click(shadow().querySelector('[data-testid=swap-own-tokens] [data-symbol=SGL]'))
    await waitFor(() => expect(byTest('swap-to-token')?.textContent).toBe('SGL'))
    await type(byTest('swap-amount'), '0.1')
    await waitFor(() => expect(byTest('swap-error')?.textContent).toBe('No route from ETH to SGL on this network.'))
    expect(submit()?.disabled).toBe(true)
    cleanup(current)

    await swapForm({ unsupported: true })
    await waitFor(() => expect(byTest('swap-unavailable')?.textContent).toBe('Network not supported for Swaps'))
  })
})
