import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSigil } from '../../client.js'
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
import type { SigilOptions } from '../../options.js'
import { currentRoute } from '../../router.js'
import { createProfileClient } from './api.js'
import { canRegisterName } from './available.js'
import { coinTypeOf, nameRefusal, openRegisterName, registerName, suggestNames } from './names.js'

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const SIGNATURE = `0x${'11'.repeat(65)}`

/** The profile endpoints: `taken` names are registered; a registration answers `register`. */
function profileServer(init: { taken?: string[]; register?: () => Response } = {}) {
  const calls: { url: URL; body?: unknown }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, req?: RequestInit) => {
      const url = new URL(String(input))
      calls.push({ url, ...(req?.body ? { body: JSON.parse(String(req.body)) } : {}) })
      if (url.pathname.startsWith('/v1/profile/suggestions/')) {
        const label = decodeURIComponent(url.pathname.split('/').pop() ?? '')
        const name = `${label}.sigil.id`
        return json({
          suggestions: [
            { name, registered: (init.taken ?? []).includes(name) },
            { name: `${label}1.sigil.id`, registered: false },
          ],
        })
      }
      if (url.pathname === '/v1/profile/account') {
        if (init.register) return init.register()
        const body = JSON.parse(String(req?.body)) as { message: string }
        return json({ success: true, name: (JSON.parse(body.message) as { name: string }).name })
      }
      if (url.pathname.startsWith('/v1/account/')) return json({ balances: [] })
      return json({ error: { code: 'NOT_FOUND', message: 'no such route' } }, 404)
    }),
  )
  return { calls, asked: (path: string) => calls.filter((c) => c.url.pathname.startsWith(path)) }
}

async function connected(overrides: Partial<SigilOptions> = {}, sign = vi.fn(async (_provider: unknown, _message: string, _address: string) => SIGNATURE)) {
  const wallet = fakeConnector()
  const { adapter } = fakeAdapter()
  const client = createSigil(testOptions(overrides), {
    adapters: [{ ...adapter, signMessage: sign }],
    connectors: [wallet.source],
    isMobile: () => false,
    blockchainApi: fakeBlockchainApi([tokenBalance({ numeric: '1' })]),
    restore: false,
    storage: new MemoryStorage(),
  })
  await client.connect('com.test')
  return { client, sign }
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('name rules (spec section 5)', () => {
  it('letters, digits and hyphens, at least 4 characters', () => {
    for (const good of ['alice', 'al-1', 'ALICE', '1234']) expect(nameRefusal(good)).toBeUndefined()
    for (const bad of ['ali', 'al ice', 'alice.eth', 'ałice', ''])
      expect(nameRefusal(bad)).toBe('A name has at least 4 characters: letters, digits and hyphens')
  })

  it('coin types per ENSIP-11; a chain id of 2^31 or more has none', () => {
    expect(coinTypeOf(1)).toBe(60)
    expect(coinTypeOf(10)).toBe(0x8000000a)
    expect(coinTypeOf(31337)).toBe((0x80000000 | 31337) >>> 0)
    expect(coinTypeOf(0x7fffffff)).toBe(0xffffffff)
    expect(() => coinTypeOf(0x80000000)).toThrow('Invalid chainId')
  })
})

describe('profile API client', () => {
  it('a refusal says the server’s first reason', async () => {
    const fetch = fakeFetch(409, {
      error: { code: 'CONFLICT', message: 'Error registering name alice.sigil.id' },
      reasons: [{ field: 'name', description: 'The name alice.sigil.id is taken' }],
    })
    const api = createProfileClient(apiClientOptions(fetch))
    const message = JSON.stringify({ name: 'alice.sigil.id', attributes: {}, timestamp: 1 })
    await expect(api.register({ coinType: 60, address: '0x1', message, signature: '0x' })).rejects.toMatchObject({
      message: 'The name alice.sigil.id is taken',
      code: 'TAKEN',
    })
  })

  it('without a reason, the spec’s text', async () => {
    const api = createProfileClient(apiClientOptions(fakeFetch(500, 'oops')))
    await expect(api.suggestions('alice')).rejects.toThrow('Error fetching name suggestions')
    const lookup = createProfileClient(apiClientOptions(fakeFetch(502, {})))
    await expect(lookup.lookup('alice.sigil.id')).rejects.toThrow('Error resolving name')
    const reverse = createProfileClient(apiClientOptions(fakeFetch(503, {})))
    await expect(reverse.reverse('0x1')).rejects.toThrow('Error fetching names for address')
  })

  it('a name that is not registered is undefined, not an error', async () => {
    const fetch = fakeFetch(404, { error: { code: 'NOT_FOUND', message: 'not registered' } })
    expect(await createProfileClient(apiClientOptions(fetch)).lookup('nobody.sigil.id')).toBeUndefined()
    expect(calledUrl(fetch).searchParams.get('apiVersion')).toBe('2')
  })
})

describe('registering a name', () => {
  it('is offered to a connected EVM account that signs, unless the host turns names off', async () => {
    profileServer()
    expect(canRegisterName((await connected()).client)).toBe(true)
    expect(canRegisterName((await connected({ features: { names: false } })).client)).toBe(false)
  })

  it('suggests only for a valid label', async () => {
    const server = profileServer({ taken: ['alice.sigil.id'] })
    const { client } = await connected()
    await expect(suggestNames(client, 'ali')).rejects.toThrow('at least 4 characters')
    expect(server.asked('/v1/profile/suggestions')).toHaveLength(0)
    expect(await suggestNames(client, 'Alice')).toEqual([
      { name: 'alice.sigil.id', registered: true },
      { name: 'alice1.sigil.id', registered: false },
    ])
  })

  it('the account signs {name, attributes, timestamp}; the server stores it for the chain’s coin type; the account shows it', async () => {
    const server = profileServer()
    const { client, sign } = await connected()
    openRegisterName(client)
    const before = Math.floor(Date.now() / 1000)
    expect(await registerName(client, 'alice.sigil.id')).toBe('alice.sigil.id')
    const signed = JSON.parse(sign.mock.calls[0]?.[1] ?? '') as { name: string; attributes: object; timestamp: number }
    expect(Object.keys(signed)).toEqual(['name', 'attributes', 'timestamp'])
    expect(signed.name).toBe('alice.sigil.id')
    expect(signed.timestamp).toBeGreaterThanOrEqual(before)
    const body = server.asked('/v1/profile/account')[0]?.body as { coin_type: number; address: string; signature: string; message: string }
    const chainId = Number(client.store.getState().activeCaipNetwork.caipNetworkId.split(':')[1])
    expect(body.coin_type).toBe(coinTypeOf(chainId))
    expect(body.address).toBe(client.store.getState().chains.eip155?.account.address)
    expect(body.signature).toBe(SIGNATURE)
    expect(client.store.getState().chains.eip155?.account.profileName).toBe('alice.sigil.id')
    expect(currentRoute(client.store.getState())).toEqual({ view: 'RegisterAccountNameSuccess', data: { name: 'alice.sigil.id' } })
  })

  it('a refused registration goes back to RegisterAccountName with the reason', async () => {
    profileServer({
      register: () =>
        json({ error: { code: 'UNAUTHORIZED', message: 'x' }, reasons: [{ field: 'signature', description: 'The signature is not the address’s' }] }, 401),
    })
    const { client } = await connected()
    openRegisterName(client)
    await expect(registerName(client, 'alice.sigil.id')).rejects.toThrow('The signature is not the address’s')
    expect(currentRoute(client.store.getState())).toEqual({
      view: 'RegisterAccountName',
      data: { label: 'alice', error: 'The signature is not the address’s' },
    })
    expect(client.store.getState().chains.eip155?.account.profileName).toBeUndefined()
  })
})
