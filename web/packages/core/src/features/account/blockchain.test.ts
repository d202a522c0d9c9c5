import { describe, expect, it, vi } from 'vitest'
import { resolveOptions } from '../../options.js'
import { ethereum } from '../../networks.js'
import { BlockchainApiError, createBlockchainClient } from './blockchain.js'
import { blockchainClientFor } from '../../api/from-options.js'
import { apiClientOptions, calledUrl, fakeFetch } from '../../test-utils/index.js'

const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const SGL = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

/** The server's answer for account 0 on the dev chain (testnet: no fiat values). */
const devBalances = {
  balances: [
    {
      name: 'Ether',
      symbol: 'ETH',
      chainId: 'eip155:31337',
      address: null,
      value: 0,
      price: 0,
      quantity: { decimals: '18', numeric: '9999.998765' },
      iconUrl: 'https://api.test/public/getTokenImage/ETH?projectId=p1',
    },
    {
      name: 'Sigil',
      symbol: 'SGL',
      chainId: 'eip155:31337',
      address: `eip155:31337:${SGL}`,
      value: 0,
      price: 0,
      quantity: { decimals: '18', numeric: '987000' },
      iconUrl: 'https://cdn.example/sgl.png',
    },
  ],
}

const client = (fetch: ReturnType<typeof fakeFetch>) => createBlockchainClient(apiClientOptions(fetch))

describe('blockchain client: balances', () => {
  it('GETs /v1/account/{address}/balance with projectId, st, sv, currency and chainId', async () => {
    const fetch = fakeFetch(200, devBalances)
    await client(fetch).getBalances(ADDRESS, { chainId: 'eip155:31337' })
    const url = calledUrl(fetch)
    expect(url.origin + url.pathname).toBe(`https://api.test/v1/account/${ADDRESS}/balance`)
    expect(Object.fromEntries(url.searchParams)).toEqual({ projectId: 'p1', st: 'sigil', sv: '0.1.0', currency: 'usd', chainId: 'eip155:31337' })
    expect(fetch.mock.calls[0]?.[1]).toBeUndefined() // a plain GET
  })

  it('forceUpdate=true only when asked', async () => {
    const fetch = fakeFetch(200, devBalances)
    await client(fetch).getBalances(ADDRESS, { chainId: 'eip155:1', forceUpdate: true })
    await client(fetch).getBalances(ADDRESS, { chainId: 'eip155:1', forceUpdate: false })
    expect(calledUrl(fetch, 0).searchParams.get('forceUpdate')).toBe('true')
    expect(calledUrl(fetch, 1).searchParams.has('forceUpdate')).toBe(false)
  })

  it('parses the balances: no address for the native entry, a token address on its chain (the server gives CAIP-10), icons as the server gives them', async () => {
    const balances = await client(fakeFetch(200, devBalances)).getBalances(ADDRESS, { chainId: 'eip155:31337' })
    expect(balances).toEqual([
      {
        name: 'Ether',
        symbol: 'ETH',
        chainId: 'eip155:31337',
        value: 0,
        price: 0,
        quantity: { decimals: '18', numeric: '9999.998765' },
        iconUrl: 'https://api.test/public/getTokenImage/ETH?projectId=p1',
      },
      {
        name: 'Sigil',
        symbol: 'SGL',
        chainId: 'eip155:31337',
        address: SGL,
        value: 0,
        price: 0,
        quantity: { decimals: '18', numeric: '987000' },
        iconUrl: 'https://cdn.example/sgl.png',
      },
    ])
    expect('address' in (balances[0] ?? {})).toBe(false)
  })

  it('a bare token address (older servers) is kept as it is', async () => {
    const bare = { balances: [{ ...devBalances.balances[1], address: SGL }] }
    const balances = await client(fakeFetch(200, bare)).getBalances(ADDRESS, { chainId: 'eip155:31337' })
    expect(balances[0]?.address).toBe(SGL)
  })

  it('an unsupported chain is an empty list', async () => {
    expect(await client(fakeFetch(200, { balances: [] })).getBalances(ADDRESS, { chainId: 'eip155:10' })).toEqual([])
  })

  it('non-OK answers throw with the server message, status and code', async () => {
    const fetch = fakeFetch(503, { error: { code: 'upstream_unavailable', message: 'All upstreams of eip155:1 are unavailable' } })
    const error = await client(fetch)
      .getBalances(ADDRESS, { chainId: 'eip155:1' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(BlockchainApiError)
    expect(error).toMatchObject({ status: 503, code: 'upstream_unavailable', message: 'All upstreams of eip155:1 are unavailable' })
  })

  it('a network failure or a malformed body rejects', async () => {
    const down = vi.fn(async () => {
      throw new TypeError('Failed to fetch')
    })
    await expect(client(down as never).getBalances(ADDRESS, { chainId: 'eip155:1' })).rejects.toThrow('Failed to fetch')
    await expect(client(fakeFetch(200, { balances: [{ symbol: 'ETH' }] })).getBalances(ADDRESS, { chainId: 'eip155:1' })).rejects.toThrow()
    await expect(client(fakeFetch(200, {})).getBalances(ADDRESS, { chainId: 'eip155:1' })).rejects.toThrow()
  })
})

describe('blockchain client: identity', () => {
  it('GETs /v1/identity/{address} with sender and parses name and avatar', async () => {
    const fetch = fakeFetch(200, { name: 'alice.eth', avatar: 'data:image/svg+xml;base64,PHN2Zy8+' })
    const identity = await client(fetch).getIdentity(ADDRESS, { sender: ADDRESS })
    const url = calledUrl(fetch)
    expect(url.origin + url.pathname).toBe(`https://api.test/v1/identity/${ADDRESS}`)
    expect(Object.fromEntries(url.searchParams)).toEqual({ projectId: 'p1', st: 'sigil', sv: '0.1.0', sender: ADDRESS })
    expect(identity).toEqual({ name: 'alice.eth', avatar: 'data:image/svg+xml;base64,PHN2Zy8+' })
  })

  it('no name is null, not an error', async () => {
    expect(await client(fakeFetch(200, { name: null, avatar: null })).getIdentity(ADDRESS)).toEqual({ name: null, avatar: null })
  })

  it('errors and malformed answers reject', async () => {
    const error = await client(fakeFetch(400, { error: { code: 'invalid_parameter', message: "Invalid parameter 'address'" } }))
      .getIdentity('0x12')
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'BlockchainApiError', status: 400, code: 'invalid_parameter' })
    await expect(client(fakeFetch(200, { name: 3 })).getIdentity(ADDRESS)).rejects.toThrow()
  })
})

it('is built from resolved options', async () => {
  const fetch = fakeFetch(200, { balances: [] })
  const api = blockchainClientFor(resolveOptions({ projectId: 'abc', networks: [ethereum], apiUrl: 'http://127.0.0.1:9000/' }), fetch as never)
  await api.getBalances(ADDRESS, { chainId: 'eip155:1' })
  expect(calledUrl(fetch).toString()).toBe(
    `http://127.0.0.1:9000/v1/account/${ADDRESS}/balance?projectId=abc&st=sigil&sv=0.1.0&currency=usd&chainId=eip155%3A1`,
  )
})

describe('blockchain client: prices', () => {
  const answer = {
    fungibles: [
      { name: 'USD Coin', symbol: 'USDC', iconUrl: 'https://api.test/public/getTokenImage/USDC?projectId=p1', price: 1 },
      { name: 'Ether', symbol: 'ETH', iconUrl: null, price: 3000 },
    ],
  }

  it('POSTs /v1/fungible/price with currency, CAIP-10 addresses and projectId, and parses the prices', async () => {
    const fetch = fakeFetch(200, answer)
    const prices = await client(fetch).getPrices(['eip155:1:native', 'eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'])
    const url = calledUrl(fetch)
    expect(url.origin + url.pathname).toBe('https://api.test/v1/fungible/price')
    expect(url.searchParams.get('projectId')).toBe('p1')
    const init = fetch.mock.calls[0]?.[1]
    expect(init?.method).toBe('POST')
    expect(JSON.parse(String(init?.body))).toEqual({
      currency: 'usd',
      addresses: ['eip155:1:native', 'eip155:1:0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'],
      projectId: 'p1',
    })
    expect(prices).toEqual([
      { name: 'USD Coin', symbol: 'USDC', iconUrl: 'https://api.test/public/getTokenImage/USDC?projectId=p1', price: 1 },
      { name: 'Ether', symbol: 'ETH', iconUrl: '', price: 3000 },
    ])
  })

  it('asks nothing for no addresses; errors reject with the server message', async () => {
    const fetch = fakeFetch(200, answer)
    expect(await client(fetch).getPrices([])).toEqual([])
    expect(fetch).not.toHaveBeenCalled()
    const failing = fakeFetch(400, { error: { code: 'invalid_param', message: "Invalid parameter 'addresses': at most 100" } })
    await expect(client(failing).getPrices(['eip155:1:native'])).rejects.toMatchObject({ message: "Invalid parameter 'addresses': at most 100", status: 400 })
  })
})
