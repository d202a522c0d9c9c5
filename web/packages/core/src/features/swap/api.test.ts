import { describe, expect, it } from 'vitest'
import { apiClientOptions, calledUrl, fakeFetch } from '../../test-utils/index.js'
import { createSwapClient, MAX_UINT256, NATIVE_TOKEN_ADDRESS } from './api.js'
import { SwapError } from './errors.js'

const USER = '0x1111111111111111111111111111111111111111'
const ROUTER = '0x2222222222222222222222222222222222222222'
const TOKEN = '0x3333333333333333333333333333333333333333'
const ETH = `eip155:1:${NATIVE_TOKEN_ADDRESS}`
const SGL = `eip155:1:${TOKEN}`

const client = (status: number, body: unknown) => {
  const fetch = fakeFetch(status, body)
  return { fetch, api: createSwapClient(apiClientOptions(fetch)) }
}

describe('swap API client (spec section 7, AppKit shapes)', () => {
  it('lists a chain’s tokens', async () => {
    const { fetch, api } = client(200, {
      tokens: [
        { name: 'Ether', symbol: 'ETH', address: ETH, decimals: 18, logoUri: 'https://x/eth.png' },
        { name: 'Sigil', symbol: 'SGL', address: SGL, decimals: 6, logoUri: null },
      ],
    })
    expect(await api.tokens('eip155:1')).toEqual([
      { name: 'Ether', symbol: 'ETH', address: ETH, decimals: 18, logoUri: 'https://x/eth.png' },
      { name: 'Sigil', symbol: 'SGL', address: SGL, decimals: 6, logoUri: '' },
    ])
    const url = calledUrl(fetch)
    expect(url.pathname).toBe('/v1/convert/tokens')
    expect(url.searchParams.get('chainId')).toBe('eip155:1')
    expect(url.searchParams.get('projectId')).toBe('p1')
  })

  it('quotes in bigints, with the query AppKit sends', async () => {
    const { fetch, api } = client(200, {
      quotes: [
        { id: null, fromAmount: '1000000000000000000', fromAccount: ETH, toAmount: '2500000', toAccount: SGL, minimumReceived: '2475000', priceImpact: 0.3 },
      ],
    })
    const quote = await api.quote({ amount: 10n ** 18n, userAddress: USER, from: ETH, to: SGL, gasPrice: 7n, slippage: 0.5 })
    expect(quote).toEqual({
      id: null,
      fromAmount: 10n ** 18n,
      fromAccount: ETH,
      toAmount: 2_500_000n,
      toAccount: SGL,
      minimumReceived: 2_475_000n,
      priceImpact: 0.3,
      issues: [],
    })
    const url = calledUrl(fetch)
    expect(url.pathname).toBe('/v1/convert/quotes')
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      amount: '1000000000000000000',
      userAddress: USER,
      from: ETH,
      to: SGL,
      gasPrice: '7',
      slippage: '0.5',
    })
    // Sigil's server: its floor as toAmountMin, and what stands in the way.
    const sigil = client(200, {
      quotes: [
        {
          id: null,
          fromAmount: '1',
          fromAccount: ETH,
          toAmount: '2',
          toAccount: SGL,
          toAmountMin: '1',
          slippage: 1,
          priceImpact: null,
          route: [],
          source: 'uniswap_v2',
          spender: `eip155:1:${ROUTER}`,
          issues: [{ code: 'price_impact_high', message: 'High price impact' }],
        },
      ],
    })
    expect(await sigil.api.quote({ amount: 1n, userAddress: USER, from: ETH, to: SGL })).toEqual({
      id: null,
      fromAmount: 1n,
      fromAccount: ETH,
      toAmount: 2n,
      toAccount: SGL,
      minimumReceived: 1n,
      issues: [{ code: 'price_impact_high', message: 'High price impact' }],
    })
  })

  it('reads allowance, gas prices (decimal or hex), the approval with resetFirst, and posts the swap', async () => {
    expect(await client(200, { allowance: '42' }).api.allowance(SGL, USER)).toBe(42n)
    expect(await client(200, { standard: '1', fast: '0x2', instant: 3 }).api.gasPrice('eip155:1')).toEqual({ standard: 1n, fast: 2n, instant: 3n })

    const approve = client(200, { tx: { from: USER, to: TOKEN, data: '0x095ea7b3', value: '0', eip155: { gasPrice: '5' } }, resetFirst: true })
    expect(await approve.api.buildApprove({ userAddress: USER, from: SGL, to: ETH, amount: 10n })).toEqual({
      from: USER,
      to: TOKEN,
      data: '0x095ea7b3',
      value: 0n,
      gasPrice: 5n,
      resetFirst: true,
    })
    expect(calledUrl(approve.fetch).searchParams.get('amount')).toBe('10')
    await approve.api.buildApprove({ userAddress: USER, from: SGL, to: ETH, amount: MAX_UINT256 })
    expect(calledUrl(approve.fetch, 1).searchParams.get('amount')).toBe('max')
    // Sigil's server: the ends as CAIP-10, and the reset built.
    const sigilApprove = client(200, {
      tx: { from: SGL, to: SGL, data: '0x095ea7b3', value: '0', eip155: { gasPrice: '5' } },
      resetFirst: true,
      resetTx: { from: SGL, to: SGL, data: '0x095ea7b300', value: '0', eip155: { gasPrice: '5' } },
    })
    expect(await sigilApprove.api.buildApprove({ userAddress: USER, from: SGL, to: ETH, amount: 10n })).toMatchObject({
      resetFirst: true,
      resetData: '0x095ea7b300',
    })

    const build = client(200, { tx: { from: USER, to: ROUTER, data: '0xabcd', amount: '100', eip155: { gas: '150000', gasPrice: '9' } } })
    expect(await build.api.buildTransaction({ amount: 100n, userAddress: USER, from: ETH, to: SGL, slippage: 0.5 })).toEqual({
      from: USER,
      to: ROUTER,
      data: '0xabcd',
      amount: 100n,
      gas: 150_000n,
      gasPrice: 9n,
    })
    // Sigil's server: the ends as CAIP-10, the value when the native coin is sold.
    const sigilBuild = client(200, {
      tx: { from: `eip155:1:${USER}`, to: `eip155:1:${ROUTER}`, data: '0xabcd', amount: '2500', value: '100', eip155: { gas: '0', gasPrice: '9' } },
    })
    expect(await sigilBuild.api.buildTransaction({ amount: 100n, userAddress: USER, from: ETH, to: SGL, slippage: 1 })).toEqual({
      from: USER,
      to: ROUTER,
      data: '0xabcd',
      amount: 2500n,
      value: 100n,
      gasPrice: 9n,
    })
    const [url, init] = build.fetch.mock.calls[0] ?? []
    expect(new URL(String(url)).pathname).toBe('/v1/convert/build-transaction')
    expect(init?.method).toBe('POST')
    expect(JSON.parse(String(init?.body))).toEqual({ amount: '100', eip155: { slippage: 0.5 }, from: ETH, to: SGL, userAddress: USER, disableEstimate: true })
  })

  it('rejects answers of another shape (zod) as a SwapError', async () => {
    const bad: [string, (api: ReturnType<typeof createSwapClient>) => Promise<unknown>, unknown][] = [
      ['tokens without decimals', (api) => api.tokens('eip155:1'), { tokens: [{ name: 'X', symbol: 'X', address: SGL, logoUri: '' }] }],
      ['a token id that is not CAIP-10', (api) => api.tokens('eip155:1'), { tokens: [{ name: 'X', symbol: 'X', address: TOKEN, decimals: 6, logoUri: '' }] }],
      [
        'a fractional amount',
        (api) => api.quote({ amount: 1n, userAddress: USER, from: ETH, to: SGL }),
        { quotes: [{ id: null, fromAmount: '1.5', fromAccount: ETH, toAmount: '1', toAccount: SGL }] },
      ],
      ['a negative allowance', (api) => api.allowance(SGL, USER), { allowance: -1 }],
      ['gas prices missing one', (api) => api.gasPrice('eip155:1'), { standard: '1', fast: '2' }],
      [
        'call data that is not hex',
        (api) => api.buildApprove({ userAddress: USER, from: SGL, to: ETH, amount: 1n }),
        { tx: { from: USER, to: TOKEN, data: 'approve' } },
      ],
      [
        'a swap to no address',
        (api) => api.buildTransaction({ amount: 1n, userAddress: USER, from: ETH, to: SGL, slippage: 1 }),
        { tx: { from: USER, data: '0x', amount: '1' } },
      ],
    ]
    for (const [what, call, body] of bad) {
      const error = await call(client(200, body).api).catch((e: unknown) => e)
      expect(error, what).toBeInstanceOf(SwapError)
      expect((error as SwapError).code, what).toBe('SERVER')
    }
  })

  it('says the server’s refusals in words: no route, liquidity, the network', async () => {
    const refused = async (code: string, message: string) =>
      (await client(400, { error: { code, message } })
        .api.quote({ amount: 1n, userAddress: USER, from: ETH, to: SGL })
        .catch((e: unknown) => e)) as SwapError
    expect(await refused('NO_ROUTE', 'no route between the tokens')).toMatchObject({ code: 'NO_ROUTE' })
    expect(await refused('INSUFFICIENT_LIQUIDITY', 'pool too small')).toMatchObject({
      code: 'INSUFFICIENT_LIQUIDITY',
      message: 'Not enough liquidity in the pools for this amount.',
    })
    expect(await refused('BAD_REQUEST', 'Network not supported for Swaps')).toMatchObject({
      code: 'NETWORK_NOT_SUPPORTED',
      message: 'Network not supported for Swaps',
    })
    expect(await refused('BAD_REQUEST', '`from` and `to` chain IDs must have the same value')).toMatchObject({
      code: 'SERVER',
      message: 'The swap service refused: `from` and `to` chain IDs must have the same value',
      status: 400,
    })
    // No quote at all is no route.
    expect(
      await client(200, { quotes: [] })
        .api.quote({ amount: 1n, userAddress: USER, from: ETH, to: SGL })
        .catch((e: unknown) => e),
    ).toMatchObject({ code: 'NO_ROUTE' })
  })
})
