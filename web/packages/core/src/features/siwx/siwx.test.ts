import { describe, expect, it, vi } from 'vitest'
import { arbitrum, ethereum, polygon } from '../../networks.js'
import { resolveOptions } from '../../options.js'
import { currentView } from '../../router.js'
import { MemoryStorage, testClient, testOptions } from '../../test-utils/index.js'
import { localSiwx, serverSiwx } from './config.js'
// The client loads the controller on the first connection; loaded here, that import is already settled.
import './controller.js'
import { buildMessage, formatSiwxMessage } from './message.js'
import { SIWX_TOKEN_KEY } from './server-client.js'
import { SIWX_LOCAL_KEY } from './local-impl.js'

const ADDRESS = '0x1111111111111111111111111111111111111111'
const flush = async (n = 10) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 0))
}

/** An in-memory stand-in for the server's /auth/v1 API. */
function fakeServer() {
  const nonces = new Map<string, boolean>() // nonce -> used
  const sessions = new Map<string, { id: string; revoked: boolean; body: Record<string, unknown> }>()
  const fail: { nonce?: number } = {}
  let n = 0
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  const error = (status: number, code: string, message: string) => json(status, { error: { code, message } })
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input))
    expect(url.searchParams.get('projectId')).toBe('p1')
    expect(url.searchParams.get('st')).toBeTruthy()
    const auth = new Headers(init?.headers).get('authorization')?.replace(/^Bearer /, '')
    const method = init?.method ?? 'GET'
    switch (`${method} ${url.pathname}`) {
      case 'POST /auth/v1/nonce': {
        if (fail.nonce) return error(fail.nonce, 'internal', 'Nonce store unavailable')
        const nonce = `nonce${++n}abcdef`
        nonces.set(nonce, false)
        return json(200, { nonce, expiresAt: new Date(Date.now() + 600_000).toISOString() })
      }
      case 'POST /auth/v1/authenticate': {
        const { message, signature } = JSON.parse(String(init?.body)) as { message: string; signature: string }
        const field = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(message)?.[1] ?? ''
        const nonce = field('Nonce')
        if (!nonces.has(nonce)) return error(400, 'unknown_nonce', 'Unknown nonce')
        if (nonces.get(nonce)) return error(409, 'nonce_used', 'Nonce has already been used')
        if (signature !== '0xsigned') return error(401, 'invalid_signature', 'Invalid signature')
        nonces.set(nonce, true)
        const id = `s${++n}`
        const lines = message.split('\n')
        const body = {
          id,
          data: {
            accountAddress: lines[1],
            chainId: `eip155:${field('Chain ID')}`,
            domain: lines[0]?.split(' ')[0],
            uri: field('URI'),
            nonce,
            issuedAt: field('Issued At'),
            version: '1',
          },
          message,
          signature,
          cacao: { h: { t: 'caip122' } },
          // The server sends milliseconds since the epoch.
          expiresAt: Date.now() + 86_400_000,
        }
        sessions.set(`tok-${id}`, { id, revoked: false, body })
        return json(200, { session: body, token: `tok-${id}` })
      }
      case 'GET /auth/v1/session': {
        const s = auth ? sessions.get(auth) : undefined
        if (!s || s.revoked) return error(401, 'unauthorized', 'Session not found')
        return json(200, s.body)
      }
      case 'POST /auth/v1/signout': {
        const s = auth ? sessions.get(auth) : undefined
        if (!s || s.revoked) return error(401, 'unauthorized', 'Session not found')
        s.revoked = true
        return json(200, { revoked: true })
      }
      default:
        return error(404, 'not_found', 'Not found')
    }
  })
  const calls = (path: string) => fetch.mock.calls.filter(([u]) => new URL(String(u)).pathname === path)
  return { fetch, sessions, nonces, fail, calls }
}

function setup(opts: { required?: boolean; storage?: MemoryStorage; server?: ReturnType<typeof fakeServer>; sessionScope?: 'chain' | 'family' } = {}) {
  const server = opts.server ?? fakeServer()
  const storage = opts.storage ?? new MemoryStorage()
  const siwx = serverSiwx({
    apiUrl: 'https://api.test',
    projectId: 'p1',
    required: opts.required ?? true,
    ...(opts.sessionScope ? { sessionScope: opts.sessionScope } : {}),
    statement: 'Sign in to the test.',
    storage,
    fetch: server.fetch as unknown as typeof fetch,
  })
  const t = testClient({ siwx }, { storage, restore: false })
  return { ...t, server, siwx }
}

async function connect(client: ReturnType<typeof testClient>['client']) {
  client.open()
  await client.connect('com.test')
  await flush()
}

describe('siwx option', () => {
  it('refuses siweConfig together with siwx', () => {
    expect(() => resolveOptions(testOptions({ siwx: localSiwx(), siweConfig: {} as never }))).toThrow('Cannot set both `siweConfig` and `siwx` options')
    expect(resolveOptions(testOptions({ siwx: localSiwx() })).siwx).toBeDefined()
  })
})

describe('sign-in message', () => {
  it('formats the exact CAIP-122 text, the account as the adapter states it', () => {
    const message = buildMessage(
      { accountAddress: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', chainId: 'eip155:31337', accountLabel: 'Ethereum' },
      {
        nonce: 'abcdefgh1234',
        statement: 'Sign in to the Sigil demo.',
        expirationMinutes: 10,
        now: new Date('2026-11-22T00:30:00.123Z'),
        domain: '127.0.0.1:5174',
        uri: 'http://127.0.0.1:5174',
      },
    )
    expect(message.toString()).toBe(
      '127.0.0.1:5174 wants you to sign in with your Ethereum account:\n0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed\n\nSign in to the Sigil demo.\n\nURI: http://127.0.0.1:5174\nVersion: 1\nChain ID: 31337\nNonce: abcdefgh1234\nIssued At: 2026-11-22T00:30:00Z\nExpiration Time: 2026-11-22T00:40:00Z',
    )
    expect(`${message}`).toBe(message.toString())
  })

  it('without a statement keeps two empty lines, and lists resources; without a label the namespace names the chain', () => {
    const text = formatSiwxMessage(
      {
        domain: 'a.example',
        accountAddress: '0xabc',
        uri: 'https://a.example',
        version: '1',
        chainId: 'eip155:1',
        nonce: 'n1234567',
        issuedAt: '2026-01-01T00:00:00Z',
        requestId: 'r1',
        resources: ['https://x.example/1'],
      },
      'Ethereum',
    )
    expect(text).toBe(
      'a.example wants you to sign in with your Ethereum account:\n0xabc\n\n\nURI: https://a.example\nVersion: 1\nChain ID: 1\nNonce: n1234567\nIssued At: 2026-01-01T00:00:00Z\nRequest ID: r1\nResources:\n- https://x.example/1',
    )
    const data = {
      domain: 'a.example',
      accountAddress: 'abc',
      uri: 'https://a.example',
      version: '1',
      chainId: 'bip122:000000000019d6689c085ae165831e93',
      nonce: 'n1234567',
    } as const
    expect(formatSiwxMessage(data).split('\n')[0]).toBe('a.example wants you to sign in with your bip122 account:')
  })
})

describe('sign-in flow (server-backed)', () => {
  it('connected without a session: SIWXSignMessage opens and a nonce is prepared', async () => {
    const { client, server } = setup()
    await connect(client)
    const state = client.store.getState()
    expect(state.modal.open).toBe(true)
    expect(currentView(state)).toBe('SIWXSignMessage')
    expect(state.siwx.status).toBe('signed-out')
    expect(server.calls('/auth/v1/nonce')).toHaveLength(1)
  })

  it('closing is disabled while sign-in is required and no session exists', async () => {
    const { client } = setup()
    await connect(client)
    expect(client.canClose()).toBe(false)
    expect(client.close()).toBe(false)
    expect(client.store.getState().modal.open).toBe(true)
  })

  it('closing is allowed when sign-in is optional', async () => {
    const { client } = setup({ required: false })
    await connect(client)
    expect(currentView(client.store.getState())).toBe('SIWXSignMessage')
    expect(client.canClose()).toBe(true)
    expect(client.close()).toBe(true)
  })

  it('Sign: signs the message, the server verifies, the session is read back, the modal closes, success is tracked', async () => {
    const { client, server, fake, storage, events } = setup()
    await connect(client)
    await client.siwx.sign()
    const signed = String((fake.adapter.signMessage.mock.calls[0] as unknown[] | undefined)?.[1])
    expect(signed).toMatch(
      /^localhost(:\d+)? wants you to sign in with your Ethereum account:\n0x1111111111111111111111111111111111111111\n\nSign in to the test\.\n\nURI: http:\/\/localhost/,
    )
    expect(signed).toMatch(/\nChain ID: 1\nNonce: nonce1abcdef\nIssued At: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    const body = JSON.parse(String(server.calls('/auth/v1/authenticate')[0]?.[1]?.body))
    expect(body).toEqual({ message: signed, signature: '0xsigned' })
    const state = client.store.getState()
    expect(state.siwx.status).toBe('signed-in')
    expect(state.siwx.session?.id).toMatch(/^s\d+$/)
    expect(state.siwx.session?.data.chainId).toBe('eip155:1')
    expect(state.siwx.session?.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/)
    expect(state.modal.open).toBe(false)
    expect(storage.getItem(SIWX_TOKEN_KEY)).toMatch(/^tok-s/)
    expect(server.calls('/auth/v1/session').length).toBeGreaterThan(0)
    expect(events.some((e) => e.event === 'SIWX_AUTH_SUCCESS')).toBe(true)
  })

  it('Sign rejected in the wallet: the error shows, the view stays, a new nonce is used next time', async () => {
    const { client, fake, server, events } = setup()
    await connect(client)
    fake.adapter.signMessage.mockRejectedValueOnce(Object.assign(new Error('denied'), { code: 4001 }))
    await client.siwx.sign()
    let state = client.store.getState()
    expect(state.siwx).toMatchObject({ status: 'signed-out', error: 'User rejected the request.' })
    expect(state.modal.open).toBe(true)
    expect(currentView(state)).toBe('SIWXSignMessage')
    expect(events.some((e) => e.event === 'SIWX_AUTH_ERROR')).toBe(true)
    await client.siwx.sign()
    state = client.store.getState()
    expect(state.siwx.status).toBe('signed-in')
    expect(server.calls('/auth/v1/nonce')).toHaveLength(2)
  })

  it("Sign refused by the server: the server's message shows and the view stays", async () => {
    const { client, fake } = setup()
    await connect(client)
    fake.adapter.signMessage.mockResolvedValueOnce('0xbad')
    await client.siwx.sign()
    const state = client.store.getState()
    expect(state.siwx).toMatchObject({ status: 'signed-out', error: 'Invalid signature', session: undefined })
    expect(currentView(state)).toBe('SIWXSignMessage')
    expect(state.modal.open).toBe(true)
  })

  it('Cancel with required sign-in disconnects and resets to Connect', async () => {
    const { client, fake } = setup()
    await connect(client)
    await client.siwx.cancel()
    const state = client.store.getState()
    expect(fake.connector.disconnect).toHaveBeenCalled()
    expect(state.chains.eip155?.connectionStatus).toBe('disconnected')
    expect(state.modal.open).toBe(false)
    expect(state.router.history).toEqual([{ view: 'Connect' }])
  })

  it('Cancel with optional sign-in closes, stays connected and resets to Connect', async () => {
    const { client, fake } = setup({ required: false })
    await connect(client)
    await client.siwx.cancel()
    const state = client.store.getState()
    expect(fake.connector.disconnect).not.toHaveBeenCalled()
    expect(state.chains.eip155?.connectionStatus).toBe('connected')
    expect(state.modal.open).toBe(false)
    expect(state.router.history).toEqual([{ view: 'Connect' }])
  })

  it('setup failure (nonce request fails) disconnects and resets to Connect', async () => {
    const server = fakeServer()
    server.fail.nonce = 500
    const { client, fake } = setup({ server })
    await connect(client)
    const state = client.store.getState()
    expect(fake.connector.disconnect).toHaveBeenCalled()
    expect(state.chains.eip155?.connectionStatus).toBe('disconnected')
    expect(state.router.history).toEqual([{ view: 'Connect' }])
    expect(state.notification).toMatchObject({ open: true, variant: 'error', message: 'A problem occurred while trying initialize authentication' })
    expect(state.siwx.error).toBe('Nonce store unavailable')
  })

  it('a stored session for the account is found: no prompt, signed in', async () => {
    const storage = new MemoryStorage()
    const server = fakeServer()
    const first = setup({ storage, server })
    await connect(first.client)
    await first.client.siwx.sign()
    first.client.destroy()
    const second = setup({ storage, server })
    await connect(second.client)
    const state = second.client.store.getState()
    expect(state.modal.open).toBe(false)
    expect(state.siwx.status).toBe('signed-in')
    expect(state.siwx.session?.data.accountAddress).toBe(ADDRESS)
  })

  it('a session for another chain does not count', async () => {
    const storage = new MemoryStorage()
    const server = fakeServer()
    const first = setup({ storage, server })
    await connect(first.client)
    await first.client.siwx.sign()
    expect(await first.siwx.getSessions('eip155:137', ADDRESS)).toEqual([])
    expect(await first.siwx.getSessions('eip155:1', ADDRESS.toUpperCase().replace('0X', '0x'))).toHaveLength(1)
  })

  it('back on a chain signed before: its session is found again, no new signature (Ethereum -> Arbitrum -> Ethereum)', async () => {
    const { client, fake, server, storage } = setup()
    await connect(client)
    await client.siwx.sign()
    const onEthereum = client.store.getState().siwx.session?.id
    expect(storage.getItem(SIWX_TOKEN_KEY)).toBe(`tok-${onEthereum}`)

    await client.switchNetwork(arbitrum)
    await flush()
    expect(currentView(client.store.getState())).toBe('SIWXSignMessage')
    await client.siwx.sign()
    const onArbitrum = client.store.getState().siwx.session
    expect(onArbitrum?.data.chainId).toBe('eip155:42161')
    expect(storage.getItem(SIWX_TOKEN_KEY)).toBe(`tok-${onArbitrum?.id}`)

    await client.switchNetwork(ethereum)
    await flush()
    const state = client.store.getState()
    expect(state.siwx).toMatchObject({ status: 'signed-in', session: { id: onEthereum, data: { chainId: 'eip155:1' } } })
    expect(state.modal.open).toBe(false)
    // The page's token is the session of the chain it is on.
    expect(storage.getItem(SIWX_TOKEN_KEY)).toBe(`tok-${onEthereum}`)
    expect(fake.adapter.signMessage).toHaveBeenCalledTimes(2)
    expect(server.calls('/auth/v1/authenticate')).toHaveLength(2)

    // Signing out on disconnect ends both sessions.
    await client.disconnect()
    await flush()
    expect([...server.sessions.values()].every((s) => s.revoked)).toBe(true)
    expect(storage.getItem(SIWX_TOKEN_KEY)).toBeNull()
  })

  it("sessionScope 'family': one signature holds on every chain of the family, a reload included", async () => {
    const storage = new MemoryStorage()
    const server = fakeServer()
    const { client, fake } = setup({ sessionScope: 'family', storage, server })
    await connect(client)
    await client.siwx.sign()
    const session = client.store.getState().siwx.session
    for (const network of [arbitrum, polygon, ethereum]) {
      await client.switchNetwork(network)
      await flush()
      expect(client.store.getState().siwx).toMatchObject({ status: 'signed-in', session: { id: session?.id } })
      expect(client.store.getState().modal.open).toBe(false)
    }
    expect(fake.adapter.signMessage).toHaveBeenCalledTimes(1)
    client.destroy()

    // The next visit, the wallet on Polygon: the Ethereum session still counts.
    const again = setup({ sessionScope: 'family', storage, server })
    again.fake.state.chainId = 137
    await connect(again.client)
    expect(again.client.store.getState().siwx).toMatchObject({ status: 'signed-in', session: { id: session?.id } })
    expect(again.fake.adapter.signMessage).not.toHaveBeenCalled()
  })

  it("sessionScope 'family' with localSiwx: a session on the family's other chain counts", async () => {
    const storage = new MemoryStorage()
    const siwx = localSiwx({ required: true, storage, sessionScope: 'family' })
    expect(siwx.sessionScope).toBe('family')
    const { client, fake } = testClient({ siwx }, { storage, restore: false })
    await connect(client)
    await client.siwx.sign()
    await client.switchNetwork(polygon)
    await flush()
    expect(client.store.getState().siwx.status).toBe('signed-in')
    expect(fake.adapter.signMessage).toHaveBeenCalledTimes(1)
    // The default scope is one chain.
    expect(localSiwx({ storage }).sessionScope).toBe('chain')
  })

  it('disconnect signs out on the server (signOutOnDisconnect)', async () => {
    const { client, server, storage } = setup()
    await connect(client)
    await client.siwx.sign()
    await client.disconnect()
    await flush()
    expect(server.calls('/auth/v1/signout')).toHaveLength(1)
    expect(storage.getItem(SIWX_TOKEN_KEY)).toBeNull()
    expect(client.store.getState().siwx).toMatchObject({ status: 'signed-out', session: undefined })
    expect([...server.sessions.values()].every((s) => s.revoked)).toBe(true)
  })

  it('signOut revokes the session; with required sign-in the wallet disconnects too', async () => {
    const { client, server, fake } = setup()
    await connect(client)
    await client.siwx.sign()
    await client.siwx.signOut()
    expect(server.calls('/auth/v1/signout')).toHaveLength(1)
    expect(fake.connector.disconnect).toHaveBeenCalled()
    expect(client.store.getState().siwx.status).toBe('signed-out')
  })

  it('a revoked token reads back as no session (and is forgotten)', async () => {
    const { client, server, storage, siwx } = setup()
    await connect(client)
    await client.siwx.sign()
    for (const s of server.sessions.values()) s.revoked = true
    expect(await siwx.getSessions('eip155:1', ADDRESS)).toEqual([])
    expect(storage.getItem(SIWX_TOKEN_KEY)).toBeNull()
  })

  it('nothing happens on the unsupported-network placeholder', async () => {
    const { client, fake, server } = setup()
    fake.state.chainId = 999999
    await connect(client)
    expect(currentView(client.store.getState())).not.toBe('SIWXSignMessage')
    expect(server.fetch).not.toHaveBeenCalled()
  })

  it('without the siwx option the controller is inert', async () => {
    const { client } = testClient({}, { restore: false })
    await connect(client)
    await client.siwx.sign()
    expect(client.store.getState().modal.open).toBe(false)
    expect(client.store.getState().siwx.status).toBe('signed-out')
  })
})

describe('localSiwx', () => {
  it('keeps sessions in storage: sign, read back, survive a reload, revoke', async () => {
    const storage = new MemoryStorage()
    const siwx = localSiwx({ required: true, storage })
    const { client } = testClient({ siwx }, { storage, restore: false })
    await connect(client)
    expect(currentView(client.store.getState())).toBe('SIWXSignMessage')
    await client.siwx.sign()
    expect(client.store.getState().siwx.status).toBe('signed-in')
    const stored = JSON.parse(storage.getItem(SIWX_LOCAL_KEY) ?? '[]')
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({ signature: '0xsigned', data: { chainId: 'eip155:1', accountAddress: ADDRESS } })
    expect(await siwx.getSessions('eip155:1', ADDRESS)).toHaveLength(1)
    await siwx.revokeSession('eip155:1', ADDRESS)
    expect(await siwx.getSessions('eip155:1', ADDRESS)).toEqual([])
  })

  it('expired sessions do not count; setSessions replaces all', async () => {
    const storage = new MemoryStorage()
    const siwx = localSiwx({ storage })
    const data = { accountAddress: ADDRESS, chainId: 'eip155:1' as const, domain: 'x', uri: 'http://x', version: '1', nonce: 'n1234567' }
    await siwx.setSessions([{ data: { ...data, expirationTime: '2000-01-01T00:00:00Z' }, message: 'm', signature: 's' }])
    expect(await siwx.getSessions('eip155:1', ADDRESS)).toEqual([])
    await siwx.setSessions([{ data, message: 'm', signature: 's' }])
    expect(await siwx.getSessions('eip155:1', ADDRESS)).toHaveLength(1)
    await siwx.setSessions([])
    expect(storage.getItem(SIWX_LOCAL_KEY)).toBeNull()
  })
})
