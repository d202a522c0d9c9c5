import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSigil } from '../../client.js'
import { currentRoute } from '../../router.js'
import type { SigilOptions } from '../../options.js'
import {
  apiClientOptions,
  calledUrl,
  fakeAdapter,
  fakeBlockchainApi,
  fakeConnector,
  fakeFetch,
  MemoryStorage,
  testOptions,
  tokenBalance,
} from '../../test-utils/index.js'
import { createPayClient } from './api.js'
import { canPay } from './available.js'
import { PayError } from './errors.js'
import { finishPay, loadExchanges, payAmountRefusal, payAssets, startPay, watchPay } from './pay.js'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'

/** A server speaking the three JSON-RPC methods; `status` scripts the buy status answers in turn. */
function payServer(statuses: unknown[] = [{ status: 'IN_PROGRESS' }]) {
  const calls: { url: URL; body: { method: string; params: Record<string, unknown> } }[] = []
  let asked = 0
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, req?: RequestInit) => {
      const url = new URL(String(input))
      if (url.pathname !== '/v1/json-rpc') return json({ balances: [] })
      const body = JSON.parse(String(req?.body))
      calls.push({ url, body })
      const reply = (result: unknown) => json({ jsonrpc: '2.0', id: body.id, result })
      if (body.method === 'reown_getExchanges') {
        const all = Array.from({ length: 12 }, (_, i) => ({ id: `ex${i}`, name: `Exchange ${i}`, imageUrl: `https://x.test/${i}.png` }))
        return reply({ exchanges: all.slice(body.params.page * 10, body.params.page * 10 + 10), total: all.length })
      }
      if (body.method === 'reown_getExchangePayUrl') return reply({ url: 'http://127.0.0.1:9/pay/sandbox/s1', sessionId: 's1' })
      if (body.method === 'reown_getExchangeBuyStatus') return reply(statuses[Math.min(asked++, statuses.length - 1)])
      return json({ jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'Method not found' } })
    }),
  )
  return { calls, asked: (method: string) => calls.filter((c) => c.body.method === method) }
}

async function connected(overrides: Partial<SigilOptions> = {}) {
  const wallet = fakeConnector()
  const client = createSigil(testOptions({ features: { pay: true } as SigilOptions['features'], ...overrides }), {
    adapters: [fakeAdapter().adapter],
    connectors: [wallet.source],
    isMobile: () => false,
    blockchainApi: fakeBlockchainApi([tokenBalance({ numeric: '1.5' }), tokenBalance({ symbol: 'USDC', address: `eip155:1:${USDC}`, decimals: '6' })]),
    restore: false,
    storage: new MemoryStorage(),
  })
  await client.connect('com.test')
  return client
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('pay API client (the AppKit client’s JSON-RPC methods)', () => {
  it('posts JSON-RPC 2.0 to /v1/json-rpc with the project, and reads the result', async () => {
    const fetch = fakeFetch(200, { jsonrpc: '2.0', id: 1, result: { exchanges: [{ id: 'acme', name: 'Acme', imageUrl: 'https://a.test/i.png' }], total: 1 } })
    const api = createPayClient(apiClientOptions(fetch))
    expect(await api.exchanges({ page: 0, asset: 'eip155:1/slip44:60' })).toEqual({
      exchanges: [{ id: 'acme', name: 'Acme', imageUrl: 'https://a.test/i.png' }],
      total: 1,
    })
    const url = calledUrl(fetch)
    expect(url.pathname).toBe('/v1/json-rpc')
    expect(url.searchParams.get('projectId')).toBeTruthy()
    expect(JSON.parse(String(fetch.mock.calls[0]?.[1]?.body))).toEqual({
      jsonrpc: '2.0',
      id: 1,
      method: 'reown_getExchanges',
      params: { page: 0, asset: 'eip155:1/slip44:60' },
    })
  })

  it('a JSON-RPC error rejects with its message; another shape as a server failure', async () => {
    const refused = createPayClient(
      apiClientOptions(fakeFetch(200, { jsonrpc: '2.0', id: 1, error: { code: -32602, message: "Invalid parameter 'amount': must be above 0" } })),
    )
    const error = await refused.payUrl({ exchangeId: 'acme', asset: 'eip155:1/slip44:60', amount: '0', recipient: 'eip155:1:0x1' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PayError)
    expect((error as PayError).message).toBe("Invalid parameter 'amount': must be above 0")
    expect((error as PayError).code).toBe('REFUSED')
    const gate = createPayClient(apiClientOptions(fakeFetch(403, { error: { code: 'PROJECT_ID_INVALID', message: 'Invalid Project ID' } })))
    await expect(gate.status({ sessionId: 's', exchangeId: 'e' })).rejects.toThrow('Invalid Project ID')
    const odd = createPayClient(apiClientOptions(fakeFetch(200, { jsonrpc: '2.0', id: 1, result: { status: 'DONE' } })))
    await expect(odd.status({ sessionId: 's', exchangeId: 'e' })).rejects.toMatchObject({ code: 'SERVER' })
  })
})

describe('pay actions', () => {
  it('off by default: no entry; on, on an EVM network only', async () => {
    const off = createSigil(testOptions(), { adapters: [fakeAdapter().adapter], restore: false, storage: new MemoryStorage() })
    expect(off.options.features.pay).toBe(false)
    expect(canPay(off)).toBe(false)
    const on = createSigil(testOptions({ features: { pay: true } as SigilOptions['features'] }), {
      adapters: [fakeAdapter().adapter],
      restore: false,
      storage: new MemoryStorage(),
    })
    expect(canPay(on)).toBe(true)
  })

  it('amounts: a decimal above 0 with at most the asset’s decimals', () => {
    expect(payAmountRefusal('0.05', 18)).toBeUndefined()
    expect(payAmountRefusal('2', 6)).toBeUndefined()
    expect(payAmountRefusal('1.1234567', 6)).toBe('Enter an amount above 0 with at most 6 decimals, such as 0.05')
    for (const bad of ['0', '0.00', '-1', '1e3', 'abc', '.5']) expect(payAmountRefusal(bad, 18), bad).toBeDefined()
  })

  it('the assets: the network’s coin first, then the account’s tokens there, as CAIP-19', async () => {
    payServer()
    const client = await connected()
    await client.refreshBalance(undefined, { force: true })
    expect(payAssets(client)).toEqual([
      { id: 'eip155:1/slip44:60', symbol: 'ETH', decimals: 18 },
      { id: `eip155:1/erc20:${USDC.toLowerCase()}`, symbol: 'USDC', decimals: 6 },
    ])
  })

  it('every page of exchanges; a deposit opens the exchange’s page and follows the status to SUCCESS', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const server = payServer([{ status: 'IN_PROGRESS' }, { status: 'SUCCESS', txHash: `0x${'ab'.repeat(32)}` }])
    const client = await connected()
    const exchanges = await loadExchanges(client, 'eip155:1/slip44:60')
    expect(exchanges.map((e) => e.id)).toEqual(['ex0', 'ex1', 'ex2', 'ex3', 'ex4', 'ex5', 'ex6', 'ex7', 'ex8', 'ex9', 'ex10', 'ex11'])
    expect(server.asked('reown_getExchanges').map((c) => c.body.params.page)).toEqual([0, 1])

    const popup = { closed: false, location: { href: 'about:blank' }, close: vi.fn(), opener: {} as object | null }
    const [asset] = payAssets(client)
    if (!asset || !exchanges[0]) throw new Error('no asset or exchange')
    const progress = await startPay(client, { exchange: exchanges[0], asset, amount: ' 0.05 ', popup: popup as unknown as Window })
    expect(popup.location.href).toBe('http://127.0.0.1:9/pay/sandbox/s1')
    // The exchange's page gets no handle on the host page.
    expect(popup.opener).toBeNull()
    const address = client.store.getState().chains.eip155?.account.address
    expect(server.asked('reown_getExchangePayUrl')[0]?.body.params).toEqual({
      exchangeId: 'ex0',
      asset: 'eip155:1/slip44:60',
      amount: '0.05',
      recipient: `eip155:1:${address}`,
    })
    expect(currentRoute(client.store.getState())).toEqual({ view: 'PayProgress', data: progress })
    expect(progress).toMatchObject({ sessionId: 's1', exchangeId: 'ex0', exchange: 'Exchange 0', opened: true, amount: '0.05', symbol: 'ETH' })
    const history = client.store.getState().router.history
    expect(history[history.length - 2]).toEqual({ view: 'PayWithExchange', data: { asset: 'eip155:1/slip44:60', amount: '0.05' } })

    const outcome = await watchPay(client, progress, new AbortController().signal)
    expect(outcome).toEqual({ status: 'SUCCESS', txHash: `0x${'ab'.repeat(32)}` })
    expect(server.asked('reown_getExchangeBuyStatus').map((c) => c.body.params)).toEqual([
      { sessionId: 's1', exchangeId: 'ex0' },
      { sessionId: 's1', exchangeId: 'ex0' },
    ])
    finishPay(client, progress, outcome)
    expect(currentRoute(client.store.getState())).toEqual({ view: 'PayProgress', data: { ...progress, status: 'SUCCESS', txHash: `0x${'ab'.repeat(32)}` } })
  })

  it('a refused amount never asks the server and closes the window', async () => {
    const server = payServer()
    const client = await connected()
    const popup = { closed: false, location: { href: 'about:blank' }, close: vi.fn() }
    const [asset] = payAssets(client)
    if (!asset) throw new Error('no asset')
    await expect(
      startPay(client, { exchange: { id: 'ex0', name: 'E', imageUrl: '' }, asset, amount: '0', popup: popup as unknown as Window }),
    ).rejects.toMatchObject({
      code: 'INVALID_AMOUNT',
    })
    expect(popup.close).toHaveBeenCalled()
    expect(server.asked('reown_getExchangePayUrl')).toEqual([])
  })
})
