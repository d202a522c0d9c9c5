import { describe, expect, it, vi } from 'vitest'
import { createDirectoryClient, DirectoryApiError } from './directory.js'
import { directoryClientFor } from './from-options.js'
import { resolveOptions } from '../options.js'
import { ethereum } from '../networks.js'
import { apiClientOptions, calledUrl, fakeFetch } from '../test-utils/index.js'

const wallet = {
  id: 'c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96',
  name: 'MetaMask',
  image_id: 'eebe4a7f-7166-402f-92e0-1f64ca2aa800',
  image_url: 'https://api.test/getWalletImage/eebe4a7f-7166-402f-92e0-1f64ca2aa800',
  rdns: 'io.metamask',
  homepage: 'https://metamask.io',
  mobile_link: 'metamask://',
  desktop_link: null,
  webapp_link: null,
  app_store: null,
  play_store: null,
  chrome_store: null,
  injected: [{ namespace: 'eip155', injected_id: 'isMetaMask' }],
  chains: ['eip155:1'],
  order: 1,
}

const client = (fetch: ReturnType<typeof fakeFetch>) => createDirectoryClient(apiClientOptions(fetch))

describe('directory client', () => {
  it('getWallets sends projectId, st, sv and the filters', async () => {
    const fetch = fakeFetch(200, { count: 1, data: [wallet] })
    const page = await client(fetch).getWallets({
      page: 2,
      entries: 40,
      include: ['a', 'b'],
      exclude: ['c'],
      chains: ['eip155:1', 'eip155:137'],
      search: ' Meta ',
      badge_type: 'certified',
    })
    const url = calledUrl(fetch)
    expect(url.origin + url.pathname).toBe('https://api.test/getWallets')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      projectId: 'p1',
      st: 'sigil',
      sv: '0.1.0',
      page: '2',
      entries: '40',
      include: 'a,b',
      exclude: 'c',
      chains: 'eip155:1,eip155:137',
      search: 'Meta',
      badge_type: 'certified',
    })
    expect(page).toEqual({ count: 1, data: [wallet] })
  })

  it('leaves out filters that are not set', async () => {
    const fetch = fakeFetch(200, { count: 0, data: [] })
    await client(fetch).getWallets({ include: [], search: '  ' })
    expect(Object.fromEntries(calledUrl(fetch).searchParams)).toEqual({ projectId: 'p1', st: 'sigil', sv: '0.1.0' })
  })

  it('non-OK answers throw with the server message and code', async () => {
    const fetch = fakeFetch(400, { error: { code: 'invalid_parameter', message: "Invalid parameter 'entries': expected an integer from 1 to 100, got '0'" } })
    const error = await client(fetch)
      .getWallets({ entries: 0 })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DirectoryApiError)
    expect(error).toMatchObject({ status: 400, code: 'invalid_parameter', message: "Invalid parameter 'entries': expected an integer from 1 to 100, got '0'" })
  })

  it('non-OK answers without an error body still throw', async () => {
    const fetch = vi.fn(async () => new Response('oops', { status: 502 }))
    await expect(client(fetch as never).getAnalyticsConfig()).rejects.toMatchObject({ status: 502, message: 'Request failed with status 502' })
  })

  it('malformed wallet data is rejected', async () => {
    const fetch = fakeFetch(200, { count: 1, data: [{ id: 1 }] })
    await expect(client(fetch).getWallets()).rejects.toThrow()
  })

  it('image URLs carry projectId, st and sv', () => {
    const api = client(fakeFetch(200, {}))
    const q = 'projectId=p1&st=sigil&sv=0.1.0'
    expect(api.walletImageUrl('img-1')).toBe(`https://api.test/getWalletImage/img-1?${q}`)
    expect(api.assetImageUrl('ethereum')).toBe(`https://api.test/public/getAssetImage/ethereum?${q}`)
    expect(api.currencyImageUrl('USD')).toBe(`https://api.test/public/getCurrencyImage/USD?${q}`)
    expect(api.tokenImageUrl('USDC')).toBe(`https://api.test/public/getTokenImage/USDC?${q}`)
  })

  it('getAnalyticsConfig and getAllowedOrigins', async () => {
    const fetch = fakeFetch(200, { isAnalyticsEnabled: true })
    expect(await client(fetch).getAnalyticsConfig()).toEqual({ isAnalyticsEnabled: true })
    expect(calledUrl(fetch).pathname).toBe('/getAnalyticsConfig')
    expect(calledUrl(fetch).searchParams.get('projectId')).toBe('p1')
    const origins = fakeFetch(200, { allowedOrigins: ['https://*.example.com'] })
    expect(await client(origins).getAllowedOrigins()).toEqual(['https://*.example.com'])
    expect(calledUrl(origins).pathname).toBe('/projects/v1/origins')
  })

  it('sendEvent POSTs JSON to /e', async () => {
    const fetch = fakeFetch(202, { accepted: true })
    const event = { eventId: '7c9e6679-7425-40de-944b-e07fc1f90ae7', url: 'https://a.com/x', domain: 'a.com', timestamp: 1, props: { event: 'MODAL_OPEN' } }
    await client(fetch).sendEvent(event)
    expect(calledUrl(fetch).pathname).toBe('/e')
    expect(calledUrl(fetch).searchParams.get('st')).toBe('sigil')
    const init = fetch.mock.calls[0]?.[1]
    expect(init?.method).toBe('POST')
    expect(JSON.parse(String(init?.body))).toEqual(event)
  })

  it('is built from resolved options', async () => {
    const fetch = fakeFetch(200, { count: 0, data: [] })
    const api = directoryClientFor(resolveOptions({ projectId: 'abc', networks: [ethereum], apiUrl: 'http://127.0.0.1:9000/' }), fetch as never)
    await api.getWallets()
    expect(calledUrl(fetch).toString()).toBe('http://127.0.0.1:9000/getWallets?projectId=abc&st=sigil&sv=0.1.0')
  })
})
