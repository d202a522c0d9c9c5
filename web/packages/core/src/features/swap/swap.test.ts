import { afterEach, describe, expect, it, vi } from 'vitest'
import type { CallBatch, FamilyCalls } from '../../adapter.js'
import { createSigil } from '../../client.js'
import { fakeAdapter, fakeBlockchainApi, fakeConnector, MemoryStorage, testOptions, tokenBalance } from '../../test-utils/index.js'
import type { SigilOptions } from '../../options.js'
import { MAX_UINT256, NATIVE_TOKEN_ADDRESS, type SwapToken } from './api.js'
import { canSwap } from './available.js'
import {
  confirmSwap,
  DEFAULT_SLIPPAGE_BPS,
  executeSwap,
  isQuoteExpired,
  loadSwapTokens,
  minimumReceived,
  parseSlippage,
  prepareSwap,
  QUOTE_TTL_MS,
  quoteSwap,
  requoteSwap,
  slippagePercent,
  swapStep,
  zeroApproveData,
} from './swap.js'
import { SwapError } from './errors.js'

const USER = '0x1111111111111111111111111111111111111111'
const ROUTER = '0x2222222222222222222222222222222222222222'
const TOKEN = '0x3333333333333333333333333333333333333333'
const HASH = `0x${'ab'.repeat(32)}`
const ETH: SwapToken = { name: 'Ether', symbol: 'ETH', address: `eip155:1:${NATIVE_TOKEN_ADDRESS}`, decimals: 18, logoUri: '' }
const SGL: SwapToken = { name: 'Sigil', symbol: 'SGL', address: `eip155:1:${TOKEN}`, decimals: 6, logoUri: '' }
const word = (hex: string) => hex.padStart(64, '0')
const approveData = (amount: bigint) => `0x095ea7b3${word(ROUTER.slice(2))}${word(amount.toString(16))}`

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** The server's six endpoints over a pool giving `rate` SGL units per ETH (and 1/rate back), an allowance, and USDT's zero-reset when `resetFirst`. */
function swapServer(init: { allowance?: bigint; resetFirst?: boolean; rate?: bigint } = {}) {
  const state = { allowance: init.allowance ?? 0n, resetFirst: init.resetFirst ?? false, rate: init.rate ?? 2_500n }
  const calls: { url: URL; body?: unknown }[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input))
    calls.push({ url, ...(init?.body ? { body: JSON.parse(String(init.body)) } : {}) })
    const q = url.searchParams
    switch (url.pathname) {
      case '/v1/convert/tokens':
        return json({ tokens: [ETH, SGL] })
      case '/v1/convert/gas-price':
        return json({ standard: '10', fast: '12', instant: '15' })
      case '/v1/convert/quotes': {
        const amount = BigInt(q.get('amount') ?? '0')
        const selling = q.get('from') === ETH.address
        const toAmount = selling ? (amount * state.rate) / 10n ** 12n : (amount * 10n ** 12n) / state.rate
        return json({
          quotes: [
            { id: null, fromAmount: amount.toString(), fromAccount: q.get('from'), toAmount: toAmount.toString(), toAccount: q.get('to'), priceImpact: 0.4 },
          ],
        })
      }
      case '/v1/convert/allowance':
        return json({ allowance: state.allowance.toString() })
      case '/v1/convert/build-approve':
        return json({
          tx: { from: SGL.address, to: SGL.address, data: approveData(q.get('amount') === 'max' ? MAX_UINT256 : BigInt(q.get('amount') ?? '0')), value: '0' },
          resetFirst: state.resetFirst,
          ...(state.resetFirst ? { resetTx: { from: SGL.address, to: SGL.address, data: approveData(0n), value: '0' } } : {}),
        })
      case '/v1/convert/build-transaction': {
        const body = JSON.parse(String(init?.body)) as { amount: string }
        return json({
          tx: { from: `eip155:1:${USER}`, to: `eip155:1:${ROUTER}`, data: '0x7ff36ab5', amount: body.amount, eip155: { gas: '150000', gasPrice: '10' } },
        })
      }
    }
    return json({ error: { code: 'NOT_FOUND', message: 'no such route' } }, 404)
  })
  vi.stubGlobal('fetch', fetchMock)
  const asked = (path: string) => calls.filter((c) => c.url.pathname === path)
  return { state, calls, asked }
}

/** A connected EVM account holding 1.5 ETH and 100 SGL, whose wallet batches atomically when `atomic`. */
async function connected(options: { atomic?: boolean; send?: FamilyCalls['send']; overrides?: Partial<SigilOptions> } = {}) {
  const wallet = fakeConnector()
  const family = {
    atomic: vi.fn(async () => options.atomic ?? false),
    send: vi.fn(
      options.send ??
        (async (_provider: unknown, batch: CallBatch) => {
          batch.onSubmitted?.(HASH)
          return HASH
        }),
    ),
  }
  const adapter = { ...fakeAdapter().adapter, calls: { load: async () => family } }
  const api = fakeBlockchainApi([
    tokenBalance({ numeric: '1.5' }),
    tokenBalance({ name: 'Sigil', symbol: 'SGL', address: TOKEN, numeric: '100', decimals: '6' }),
  ])
  const client = createSigil(testOptions(options.overrides), {
    adapters: [adapter],
    connectors: [wallet.source],
    isMobile: () => false,
    blockchainApi: api,
    restore: false,
    storage: new MemoryStorage(),
  })
  await client.connect('com.test')
  await vi.waitFor(() => expect(client.store.getState().chains.eip155?.account.tokenBalance).toHaveLength(2))
  return { client, family, api }
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('swap math (bigints end to end)', () => {
  it('the minimum received is the quote less the slippage, rounded down', () => {
    expect(DEFAULT_SLIPPAGE_BPS).toBe(100)
    expect(minimumReceived(2_500_000n, 100)).toBe(2_475_000n)
    expect(minimumReceived(999n, 50)).toBe(994n)
    // Past 2^53: no float ever touches it.
    expect(minimumReceived(10n ** 30n + 7n, 1)).toBe(((10n ** 30n + 7n) * 9_999n) / 10_000n)
  })

  it('reads the slippage the user types in percent', () => {
    expect(parseSlippage('1')).toBe(100)
    expect(parseSlippage('0.5')).toBe(50)
    expect(parseSlippage('0.05')).toBe(5)
    expect(parseSlippage('50')).toBe(5000)
    for (const bad of ['0', '0.00', '50.01', '51', '0.001', '-1', 'abc', '']) expect(parseSlippage(bad)).toBeUndefined()
    expect(slippagePercent(100)).toBe('1')
    expect(slippagePercent(50)).toBe('0.5')
  })

  it('says what the form lacks', () => {
    const held = [tokenBalance({ numeric: '1.5' })]
    expect(swapStep({ from: undefined, to: SGL, amount: '', held, slippage: '1' })).toBe('selectFrom')
    expect(swapStep({ from: ETH, to: undefined, amount: '', held, slippage: '1' })).toBe('selectTo')
    expect(swapStep({ from: ETH, to: SGL, amount: '', held, slippage: '1' })).toBe('addAmount')
    expect(swapStep({ from: ETH, to: SGL, amount: '1.2.3', held, slippage: '1' })).toBe('invalidAmount')
    expect(swapStep({ from: ETH, to: SGL, amount: '1.6', held, slippage: '1' })).toBe('insufficientFunds')
    expect(swapStep({ from: ETH, to: SGL, amount: '1.5', held, slippage: '0' })).toBe('invalidSlippage')
    expect(swapStep({ from: ETH, to: SGL, amount: '1.5', held, slippage: '1' })).toBe('ready')
  })

  it('turns an approve into the same spender’s approve of 0', () => {
    expect(zeroApproveData(approveData(123n))).toBe(approveData(0n))
    expect(zeroApproveData('0xa9059cbb')).toBeUndefined()
  })
})

describe('quoteSwap', () => {
  it('quotes with the network’s gas price and the default 1 % slippage, and expires', async () => {
    const server = swapServer()
    const { client } = await connected()
    const before = Date.now()
    const quoted = await quoteSwap(client, { from: ETH, to: SGL, amount: 10n ** 18n })
    expect(quoted.quote.toAmount).toBe(2_500_000_000n)
    expect(quoted.slippageBps).toBe(100)
    expect(quoted.minimumReceived).toBe(2_475_000_000n)
    expect(quoted.gasPrice).toBe(10n)
    expect(quoted.quote.priceImpact).toBe(0.4)
    expect(server.asked('/v1/convert/quotes')[0]?.url.searchParams.get('gasPrice')).toBe('10')
    expect(quoted.expiresAt - quoted.quotedAt).toBe(QUOTE_TTL_MS)
    expect(quoted.quotedAt).toBeGreaterThanOrEqual(before)
    expect(isQuoteExpired(quoted, quoted.quotedAt + QUOTE_TTL_MS - 1)).toBe(false)
    expect(isQuoteExpired(quoted, quoted.quotedAt + QUOTE_TTL_MS)).toBe(true)
  })

  it('refuses before asking the server: the same token, more than the balance, a bad slippage', async () => {
    const server = swapServer()
    const { client } = await connected()
    await expect(quoteSwap(client, { from: ETH, to: ETH, amount: 1n })).rejects.toMatchObject({ code: 'SAME_TOKEN' })
    await expect(quoteSwap(client, { from: SGL, to: ETH, amount: 100_000_001n })).rejects.toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      message: 'Insufficient balance: the account holds 100.000 SGL.',
    })
    await expect(quoteSwap(client, { from: ETH, to: SGL, amount: 1n, slippageBps: 0 })).rejects.toMatchObject({ code: 'INVALID_SLIPPAGE' })
    await expect(quoteSwap(client, { from: ETH, to: SGL, amount: 0n })).rejects.toMatchObject({ code: 'INVALID_AMOUNT' })
    expect(server.asked('/v1/convert/quotes')).toHaveLength(0)
  })

  it('says there is no route, with the tokens’ symbols', async () => {
    swapServer()
    const { client } = await connected()
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) =>
        new URL(String(input)).pathname === '/v1/convert/quotes'
          ? json({ error: { code: 'NO_ROUTE', message: 'no route' } }, 400)
          : json({ standard: '1', fast: '1', instant: '1' }),
      ),
    )
    await expect(quoteSwap(client, { from: ETH, to: SGL, amount: 1n })).rejects.toMatchObject({
      code: 'NO_ROUTE',
      message: 'No route from ETH to SGL on this network.',
    })
  })

  it('a quote asked again says when the price moved past the slippage', async () => {
    const server = swapServer()
    const { client } = await connected()
    const quoted = await quoteSwap(client, { from: ETH, to: SGL, amount: 10n ** 18n })
    server.state.rate = 2_490n // 0.4 % less: within 1 %
    expect((await requoteSwap(client, quoted)).moved).toBe(false)
    server.state.rate = 2_400n // 4 % less
    const again = await requoteSwap(client, quoted)
    expect(again.moved).toBe(true)
    expect(again.quoted.quote.toAmount).toBe(2_400_000_000n)
  })

  it('lists the network’s tokens once', async () => {
    const server = swapServer()
    const { client } = await connected()
    expect(await loadSwapTokens(client)).toEqual([ETH, SGL])
    await loadSwapTokens(client)
    expect(server.asked('/v1/convert/tokens')).toHaveLength(1)
    expect(server.asked('/v1/convert/tokens')[0]?.url.searchParams.get('chainId')).toBe('eip155:1')
  })
})

describe('prepareSwap: approvals', () => {
  it('approves exactly the amount sold by default, to the token’s contract, then swaps', async () => {
    const server = swapServer()
    const { client } = await connected()
    const quoted = await quoteSwap(client, { from: SGL, to: ETH, amount: 25_000_000n })
    const prepared = await prepareSwap(client, { quoted })
    expect(server.asked('/v1/convert/allowance')[0]?.url.searchParams.get('tokenAddress')).toBe(SGL.address)
    expect(server.asked('/v1/convert/build-approve')[0]?.url.searchParams.get('amount')).toBe('25000000')
    expect(prepared.approval).toEqual({ amount: 25_000_000n, unlimited: false, resetFirst: false, current: 0n })
    expect(prepared.calls).toEqual([
      { to: TOKEN, data: approveData(25_000_000n) },
      { to: ROUTER, data: '0x7ff36ab5', gas: 150_000n },
    ])
    expect(server.asked('/v1/convert/build-transaction')[0]?.body).toMatchObject({ amount: '25000000', eip155: { slippage: 1 }, disableEstimate: true })
    // The fee: the swap's gas and an approval's, at the server's gas price.
    expect(prepared.fee).toBe((150_000n + 60_000n) * 10n)
  })

  it('approves unlimited only when the user chose it', async () => {
    const server = swapServer()
    const { client } = await connected()
    const quoted = await quoteSwap(client, { from: SGL, to: ETH, amount: 25_000_000n })
    const prepared = await prepareSwap(client, { quoted, unlimited: true })
    expect(server.asked('/v1/convert/build-approve')[0]?.url.searchParams.get('amount')).toBe('max')
    expect(prepared.approval).toMatchObject({ amount: MAX_UINT256, unlimited: true })
  })

  it('asks no approval when the allowance covers the amount', async () => {
    const server = swapServer({ allowance: 25_000_000n })
    const { client } = await connected()
    const quoted = await quoteSwap(client, { from: SGL, to: ETH, amount: 25_000_000n })
    const prepared = await prepareSwap(client, { quoted })
    expect(prepared.approval).toBeUndefined()
    expect(prepared.calls).toEqual([{ to: ROUTER, data: '0x7ff36ab5', gas: 150_000n }])
    expect(server.asked('/v1/convert/build-approve')).toHaveLength(0)
  })

  it('sets a USDT-like allowance to 0 first when the server says so and some is left', async () => {
    swapServer({ allowance: 5n, resetFirst: true })
    const { client } = await connected()
    const quoted = await quoteSwap(client, { from: SGL, to: ETH, amount: 25_000_000n, slippageBps: 50 })
    const prepared = await prepareSwap(client, { quoted })
    expect(prepared.approval).toMatchObject({ resetFirst: true, current: 5n, amount: 25_000_000n })
    expect(prepared.calls.map((c) => c.data)).toEqual([approveData(0n), approveData(25_000_000n), '0x7ff36ab5'])
    expect(prepared.calls.slice(0, 2).every((c) => c.to === TOKEN)).toBe(true)
  })

  it('no zero-reset when the allowance is 0 already', async () => {
    swapServer({ allowance: 0n, resetFirst: true })
    const { client } = await connected()
    const quoted = await quoteSwap(client, { from: SGL, to: ETH, amount: 1n })
    const prepared = await prepareSwap(client, { quoted })
    expect(prepared.calls).toHaveLength(2)
    expect(prepared.approval?.resetFirst).toBe(false)
  })

  it('sells the native currency with a value and no allowance', async () => {
    const server = swapServer()
    const { client, family } = await connected({ atomic: true })
    const quoted = await quoteSwap(client, { from: ETH, to: SGL, amount: 10n ** 17n })
    const prepared = await prepareSwap(client, { quoted })
    expect(server.asked('/v1/convert/allowance')).toHaveLength(0)
    expect(prepared.calls).toEqual([{ to: ROUTER, data: '0x7ff36ab5', value: 10n ** 17n, gas: 150_000n }])
    // One call: nothing to batch, the wallet is not asked.
    expect(prepared.atomic).toBe(false)
    expect(family.atomic).not.toHaveBeenCalled()
  })
})

describe('executeSwap', () => {
  it('sends approve and swap as one atomic batch when the wallet can', async () => {
    swapServer()
    const { client, family } = await connected({ atomic: true })
    const prepared = await prepareSwap(client, { quoted: await quoteSwap(client, { from: SGL, to: ETH, amount: 1_000_000n }) })
    expect(prepared.atomic).toBe(true)
    expect(await executeSwap(client, prepared)).toBe(HASH)
    expect(family.send).toHaveBeenCalledTimes(1)
    expect(family.send.mock.calls[0]?.[1]).toMatchObject({ from: USER, atomic: true, calls: prepared.calls })
  })

  it('else as two transactions, one after the other', async () => {
    swapServer()
    const { client, family } = await connected({ atomic: false })
    const prepared = await prepareSwap(client, { quoted: await quoteSwap(client, { from: SGL, to: ETH, amount: 1_000_000n }) })
    expect(prepared.atomic).toBe(false)
    await executeSwap(client, prepared)
    expect(family.send.mock.calls[0]?.[1]).toMatchObject({ atomic: false })
    expect(family.send.mock.calls[0]?.[1].calls).toHaveLength(2)
  })

  it('records the swap in Activity and reads the balances again', async () => {
    swapServer()
    const { client, api } = await connected()
    const prepared = await prepareSwap(client, { quoted: await quoteSwap(client, { from: ETH, to: SGL, amount: 10n ** 17n }) })
    const reads = api.getBalances.mock.calls.length
    await executeSwap(client, prepared)
    expect(client.store.getState().activity?.pending[0]).toMatchObject({
      hash: HASH,
      status: 'confirmed',
      amount: '0.1',
      symbol: 'ETH',
      to: ROUTER,
      chain: 'eip155:1',
      operationType: 'trade',
    })
    await vi.waitFor(() => expect(api.getBalances.mock.calls.length).toBeGreaterThan(reads))
  })

  it('refuses an expired quote before the wallet is asked', async () => {
    swapServer()
    const { client, family } = await connected()
    const prepared = await prepareSwap(client, { quoted: await quoteSwap(client, { from: ETH, to: SGL, amount: 10n ** 17n }) })
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(prepared.quoted.expiresAt)
    await expect(executeSwap(client, prepared)).rejects.toMatchObject({ code: 'QUOTE_EXPIRED', message: 'The quote expired: review the new one.' })
    expect(family.send).not.toHaveBeenCalled()
  })

  it('a router’s revert is said as its reason: the price moved; the entry is failed', async () => {
    swapServer()
    const { client } = await connected({
      send: async (_provider, batch) => {
        batch.onSubmitted?.(HASH)
        throw Object.assign(new Error('execution reverted: UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT'), { code: 3 })
      },
    })
    const prepared = await prepareSwap(client, { quoted: await quoteSwap(client, { from: ETH, to: SGL, amount: 10n ** 17n }) })
    const error = await executeSwap(client, prepared).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SwapError)
    expect(error).toMatchObject({ code: 'PRICE_MOVED', message: 'The price moved beyond your slippage tolerance: review the new quote.' })
    expect(client.store.getState().activity?.pending[0]).toMatchObject({ hash: HASH, status: 'failed' })
  })

  it('the Preview’s Swap ends on the done state, the form gone from the history', async () => {
    swapServer()
    const { client } = await connected()
    client.push('Swap', {})
    client.push('SwapPreview', { from: ETH, to: SGL, amount: '0.1', slippageBps: 100 })
    const prepared = await prepareSwap(client, { quoted: await quoteSwap(client, { from: ETH, to: SGL, amount: 10n ** 17n }) })
    await confirmSwap(client, prepared)
    const history = client.store.getState().router.history
    expect(history.map((r) => r.view)).not.toContain('Swap')
    expect(history.at(-1)).toEqual({ view: 'SwapDone', data: { hash: HASH, fromAmount: '0.1', fromSymbol: 'ETH', toAmount: '250', toSymbol: 'SGL' } })
  })
})

describe('canSwap', () => {
  it('on a family with the calls capability, while the host leaves swaps on', async () => {
    swapServer()
    expect(canSwap((await connected()).client)).toBe(true)
    expect(canSwap((await connected({ overrides: { features: { swaps: false } } })).client)).toBe(false)
  })
})
