import { afterEach, describe, expect, it, vi } from 'vitest'
import { startFrame } from './frame.js'

const HOST = 'https://shop.example'
/** The frame's own origin (the server's login window page is on it too). */
const FRAME = 'https://wallet.sigil.example'

/** A window for the frame: its parent (the host page) records what the frame posts. */
function fakeWindow(allowed = HOST) {
  const target = new EventTarget()
  const posted: { message: { type: string; id?: string; ok?: boolean; payload?: unknown; error?: { message: string } }; origin: string }[] = []
  const parent = { postMessage: (message: never, origin: string) => posted.push({ message, origin }) }
  const meta = { getAttribute: () => allowed }
  const win = Object.assign(target, {
    parent,
    location: {
      origin: FRAME,
      search: '?projectId=p&chainId=eip155%3A31337',
      ancestorOrigins: Object.assign([HOST], { contains: () => true, item: () => HOST }),
    },
    document: { querySelector: () => meta, referrer: '', documentElement: { dataset: {} } },
  })
  const send = (data: unknown, origin = HOST, source: unknown = parent) => target.dispatchEvent(Object.assign(new Event('message'), { data, origin, source }))
  return { win: win as unknown as Window, posted, send }
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the frame', () => {
  it('says it is ready to its parent, on the allowed origin only', async () => {
    const { win, posted } = fakeWindow()
    startFrame(win)
    await vi.waitFor(() => expect(posted.map((p) => [p.message.type, p.origin])).toContainEqual(['FRAME_READY', HOST]))
  })

  it('answers its parent on an allowed origin, with one reply per request id', async () => {
    const { win, posted, send } = fakeWindow()
    startFrame(win)
    send({ id: 'request-0001', type: 'GET_CHAIN_ID' })
    send({ id: 'request-0002', type: 'SWITCH_NETWORK', payload: { chainId: 'eip155:10' } })
    send({ id: 'request-0003', type: 'CONNECT_OTP', payload: { otp: '12' } })
    await vi.waitFor(() => expect(posted.filter((p) => p.message.type === 'RESPONSE')).toHaveLength(3))
    const replies = posted.filter((p) => p.message.type === 'RESPONSE').map((p) => p.message)
    expect(replies).toContainEqual({ id: 'request-0001', type: 'RESPONSE', ok: true, payload: { chainId: 'eip155:31337' } })
    expect(replies).toContainEqual({ id: 'request-0002', type: 'RESPONSE', ok: true, payload: { chainId: 'eip155:10' } })
    // a malformed request is refused by the schema, with an error reply
    expect(replies).toContainEqual({ id: 'request-0003', type: 'RESPONSE', ok: false, error: { message: 'Invalid message' } })
    expect(posted.every((p) => p.origin === HOST)).toBe(true)
  })

  it('drops messages from other origins and other windows, and never answers them', async () => {
    const { win, posted, send } = fakeWindow()
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    startFrame(win)
    send({ id: 'request-0001', type: 'SIGN_OUT' }, 'https://evil.example')
    send({ id: 'request-0002', type: 'SIGN_OUT' }, HOST, {})
    send({ id: 'request-0003', type: 'GET_CHAIN_ID' })
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0003')).toBe(true))
    expect(posted.filter((p) => p.message.id === 'request-0001' || p.message.id === 'request-0002')).toEqual([])
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('refuses wallet requests while logged out', async () => {
    const { win, posted, send } = fakeWindow()
    startFrame(win)
    send({ id: 'request-0001', type: 'RPC_REQUEST', payload: { method: 'eth_sign', params: [] } })
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0001')).toBe(true))
    expect(posted.find((p) => p.message.id === 'request-0001')?.message).toMatchObject({
      ok: false,
      error: { message: 'You are not logged in to the embedded wallet' },
    })
  })

  it("passes a chain's refusal to the page as that JSON-RPC error, with the node's code and words", async () => {
    const { win, posted, send } = fakeWindow()
    localStorage.setItem('sigil-frame:token', 'a'.repeat(64))
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/wallet/v1/refresh') return new Response(JSON.stringify({ token: 'b'.repeat(64) }), { status: 200 })
        if (url === '/wallet/v1/rpc')
          return new Response(JSON.stringify({ error: { code: -32003, message: 'Insufficient funds for gas * price + value' } }), { status: 200 })
        return new Response('{}', { status: 404 })
      }),
    )
    startFrame(win)
    await vi.waitFor(() => expect(posted.some((p) => p.message.type === 'FRAME_READY')).toBe(true))
    send({ id: 'request-0001', type: 'RPC_REQUEST', payload: { method: 'eth_getBalance', params: ['0x0', 'latest'] } })
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0001')).toBe(true))
    expect(posted.find((p) => p.message.id === 'request-0001')?.message).toEqual({
      id: 'request-0001',
      type: 'RESPONSE',
      ok: false,
      error: { message: 'Insufficient funds for gas * price + value', code: -32003 },
    })
    localStorage.clear()
  })

  it('smart accounts: the enabled networks and the account type come from the server; the preference changes how calls go, never the address', async () => {
    const { win, posted, send } = fakeWindow()
    localStorage.setItem('sigil-frame:token', 'a'.repeat(64))
    const address = '0x1111111111111111111111111111111111111111'
    const TOKEN = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
    const bodies: { method: string; accountType: string; params: unknown }[] = []
    let delegated = false
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url === '/wallet/v1/refresh') return new Response(JSON.stringify({ token: 'b'.repeat(64) }), { status: 200 })
        if (url === '/wallet/v1/user') return new Response(JSON.stringify({ accounts: [{ namespace: 'eip155', address, type: 'eoa' }] }), { status: 200 })
        if (url === '/wallet/v1/rpc') {
          const body = JSON.parse(String(init?.body))
          bodies.push(body)
          if (body.method === 'wallet_getCapabilities') {
            const result = { '0x7a69': { atomic: { status: delegated ? 'supported' : 'ready' } }, '0x1': { atomic: { status: 'unsupported' } } }
            return new Response(JSON.stringify({ result }), { status: 200 })
          }
          if (body.method === 'wallet_sendCalls') return new Response(JSON.stringify({ result: { id: '0xabc' } }), { status: 200 })
          if (body.method === 'eth_call' && body.params[0].data === '0x313ce567')
            return new Response(JSON.stringify({ result: `0x${'12'.padStart(64, '0')}` }), { status: 200 })
          if (body.method === 'eth_call' && body.params[0].data === '0x95d89b41')
            return new Response(JSON.stringify({ result: `0x${'20'.padStart(64, '0')}${'3'.padStart(64, '0')}${'53474c'.padEnd(64, '0')}` }), { status: 200 })
        }
        return new Response('{}', { status: 404 })
      }),
    )
    const frame = startFrame(win)
    await vi.waitFor(() => expect(posted.some((p) => p.message.type === 'FRAME_READY')).toBe(true))
    const reply = async (id: string, message: object) => {
      send({ id, ...message })
      await vi.waitFor(() => expect(posted.some((p) => p.message.id === id)).toBe(true))
      return posted.find((p) => p.message.id === id)?.message
    }
    expect(await reply('request-0001', { type: 'GET_SMART_ACCOUNT_ENABLED_NETWORKS' })).toMatchObject({
      ok: true,
      payload: { smartAccountEnabledNetworks: [31337] },
    })
    expect(await reply('request-0002', { type: 'GET_USER' })).toMatchObject({
      ok: true,
      payload: {
        address,
        preferredAccountType: 'smartAccount',
        smartAccountDeployed: false,
        accounts: [{ namespace: 'eip155', address, type: 'smartAccount' }],
      },
    })
    // A batch waits for the user's approval, then goes to the server as the smart account.
    const transfer = `0xa9059cbb${address.slice(2).padStart(64, '0')}${(10n ** 18n).toString(16).padStart(64, '0')}`
    send({
      id: 'request-0003',
      type: 'RPC_REQUEST',
      payload: { method: 'wallet_sendCalls', params: [{ version: '2.0.0', calls: [{ to: TOKEN, data: transfer }] }] },
    })
    await vi.waitFor(() => expect(frame.getState().approval?.method).toBe('wallet_sendCalls'))
    // The token's symbol and decimals were read from the chain for the approval view.
    expect(frame.getState().approval?.tokens).toEqual(new Map([[TOKEN, { symbol: 'SGL', decimals: 18 }]]))
    expect(bodies.some((b) => b.method === 'wallet_sendCalls')).toBe(false)
    frame.approve()
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0003')).toBe(true))
    expect(bodies.find((b) => b.method === 'wallet_sendCalls')?.accountType).toBe('smartAccount')
    delegated = true
    expect(await reply('request-0004', { type: 'GET_USER' })).toMatchObject({ payload: { smartAccountDeployed: true } })
    // The EOA: same address; batches go call by call.
    expect(await reply('request-0005', { type: 'SET_PREFERRED_ACCOUNT', payload: { type: 'eoa' } })).toMatchObject({
      ok: true,
      payload: { type: 'eoa', address },
    })
    send({ id: 'request-0006', type: 'RPC_REQUEST', payload: { method: 'wallet_sendCalls', params: [{ version: '2.0.0', calls: [{ to: address }] }] } })
    await vi.waitFor(() => expect(frame.getState().approval?.id).toBe('request-0006'))
    frame.reject()
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0006')).toBe(true))
    expect(posted.find((p) => p.message.id === 'request-0006')?.message).toMatchObject({ ok: false, error: { code: 4001 } })
    expect(bodies.filter((b) => b.method === 'wallet_sendCalls')).toHaveLength(1)
    // Where the server has no smart account, the preference falls back to EOA.
    await reply('request-0007', { type: 'SWITCH_NETWORK', payload: { chainId: 'eip155:1' } })
    expect(await reply('request-0008', { type: 'SET_PREFERRED_ACCOUNT', payload: { type: 'smartAccount' } })).toMatchObject({
      payload: { type: 'eoa', address },
    })
    localStorage.clear()
  })

  it('connect device: "not approved yet" is an answer the host asks again after (VERIFY_DEVICE), not an error', async () => {
    const { win, posted, send } = fakeWindow()
    const answers = [{ action: 'VERIFY_DEVICE' }, { action: 'VERIFY_OTP' }]
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/wallet/v1/connect-email') return new Response(JSON.stringify({ action: 'VERIFY_DEVICE' }), { status: 200 })
        if (url === '/wallet/v1/connect-device') return new Response(JSON.stringify(answers.shift()), { status: 200 })
        return new Response('{}', { status: 404 })
      }),
    )
    startFrame(win)
    send({ id: 'request-0001', type: 'CONNECT_EMAIL', payload: { email: 'a@b.co' } })
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0001')).toBe(true))
    send({ id: 'request-0002', type: 'CONNECT_DEVICE' })
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0002')).toBe(true))
    send({ id: 'request-0003', type: 'CONNECT_DEVICE' })
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0003')).toBe(true))
    const reply = (id: string) => posted.find((p) => p.message.id === id)?.message
    expect(reply('request-0002')).toEqual({ id: 'request-0002', type: 'RESPONSE', ok: true, payload: { action: 'VERIFY_DEVICE' } })
    expect(reply('request-0003')).toEqual({ id: 'request-0003', type: 'RESPONSE', ok: true, payload: { action: 'VERIFY_OTP' } })
  })

  it("keeps the app's name without text-direction or zero-width characters (it heads the approval view)", async () => {
    const { win, posted, send } = fakeWindow()
    const frame = startFrame(win)
    const sync = (id: string, name: string) =>
      send({
        id,
        type: 'SYNC_DAPP_DATA',
        payload: { metadata: { name, description: '', url: HOST, icons: [] }, sdkVersion: '0', sdkType: 'sigil', projectId: 'p' },
      })
    sync('request-0001', 'Good\u202Eyppah\u202C Shop\u200B')
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0001')).toBe(true))
    expect(frame.getState().appName).toBe('Goodyppah Shop')
    sync('request-0002', '\u200B\u2066')
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0002')).toBe(true))
    expect(frame.getState().appName).toBeUndefined()
  })

  it("keeps the host's network names (without hidden characters) for the approval view", async () => {
    const { win, posted, send } = fakeWindow()
    const frame = startFrame(win)
    send({
      id: 'request-0001',
      type: 'SYNC_DAPP_DATA',
      payload: {
        sdkVersion: '0',
        sdkType: 'sigil',
        projectId: 'p',
        networks: [
          { caipNetworkId: 'solana:SigiLDevSoLanaRuntime11111111111', name: 'Sigil Solana\u200B Dev' },
          { caipNetworkId: 'eip155:8453', name: '\u202E' },
        ],
      },
    })
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0001')).toBe(true))
    expect([...frame.getState().networkNames]).toEqual([['solana:SigiLDevSoLanaRuntime11111111111', 'Sigil Solana Dev']])
    // too many, or a name too long: the schema refuses the message
    send({
      id: 'request-0002',
      type: 'SYNC_DAPP_DATA',
      payload: { sdkVersion: '0', sdkType: 's', projectId: 'p', networks: [{ caipNetworkId: 'eip155:1', name: 'x'.repeat(65) }] },
    })
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0002')).toBe(true))
    expect(posted.find((p) => p.message.id === 'request-0002')?.message).toMatchObject({ ok: false, error: { message: 'Invalid message' } })
  })

  it('tells its parent the height its view needs, on the allowed origin, once per change', async () => {
    const { win, posted } = fakeWindow()
    const frame = startFrame(win)
    frame.reportHeight(311.2)
    frame.reportHeight(311.9)
    frame.reportHeight(480)
    const heights = posted.filter((p) => p.message.type === 'FRAME_HEIGHT')
    expect(heights.map((p) => [p.message.payload, p.origin])).toEqual([
      [{ height: 312 }, HOST],
      [{ height: 480 }, HOST],
    ])
    // hidden (no width): nothing; shown again, told again even when the height is the same
    Object.assign(win, { innerWidth: 0 })
    frame.reportHeight(480)
    Object.assign(win, { innerWidth: 330 })
    frame.reportHeight(480)
    expect(posted.filter((p) => p.message.type === 'FRAME_HEIGHT').map((p) => p.message.payload)).toEqual([{ height: 312 }, { height: 480 }, { height: 480 }])
    // embedded by a page it does not serve: nothing
    const other = fakeWindow('https://elsewhere.example')
    startFrame(other.win).reportHeight(300)
    expect(other.posted.filter((p) => p.message.type === 'FRAME_HEIGHT')).toEqual([])
  })

  it('exports the keys inside the frame only: a code first, the keys shown here, the host told only that it is done', async () => {
    const { win, posted, send } = fakeWindow()
    localStorage.setItem('sigil-frame:token', 'a'.repeat(64))
    const calls: string[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        calls.push(url)
        if (url === '/wallet/v1/refresh') return new Response(JSON.stringify({ token: 'b'.repeat(64) }), { status: 200 })
        if (url === '/wallet/v1/export/request') return new Response(null, { status: 204 })
        if (url === '/wallet/v1/export') return new Response(JSON.stringify({ eip155: '0xsecret', solana: 'base58secret' }), { status: 200 })
        return new Response('{}', { status: 404 })
      }),
    )
    const frame = startFrame(win)
    send({ id: 'request-0001', type: 'EXPORT_KEYS' })
    await vi.waitFor(() => expect(frame.getState().keyExport?.step).toBe('start'))
    frame.exportSendCode()
    await vi.waitFor(() => expect(frame.getState().keyExport?.step).toBe('code'))
    frame.exportShow('12345')
    await vi.waitFor(() => expect(frame.getState().keyExport?.error).toBe('Enter the 6-digit code'))
    frame.exportShow('123456')
    await vi.waitFor(() => expect(frame.getState().keyExport?.keys).toEqual({ eip155: '0xsecret', solana: 'base58secret' }))
    expect(posted.some((p) => p.message.id === 'request-0001')).toBe(false)
    frame.exportDone()
    await vi.waitFor(() =>
      expect(posted.find((p) => p.message.id === 'request-0001')?.message).toEqual({ id: 'request-0001', type: 'RESPONSE', ok: true, payload: {} }),
    )
    expect(frame.getState().keyExport).toBeUndefined()
    expect(JSON.stringify(posted)).not.toContain('secret')
    expect(calls).toEqual(['/wallet/v1/refresh', '/wallet/v1/export/request', '/wallet/v1/export'])
    localStorage.clear()
  })

  it('social login: the provider URL, then the session kept here; the host gets the user, never the token', async () => {
    const { win, posted, send } = fakeWindow()
    const bodies: Record<string, unknown>[] = []
    let claims = 0
    const user = { email: 'alice@example.com', accounts: [{ namespace: 'eip155', address: '0x1111111111111111111111111111111111111111', type: 'eoa' }] }
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        bodies.push({ url, ...JSON.parse(String(init.body ?? '{}')) })
        if (url === '/wallet/v1/social/redirect') return new Response(JSON.stringify({ uri: 'https://idp.example/auth?state=s1' }), { status: 200 })
        if (url === '/wallet/v1/social/connect') {
          claims += 1
          const reply = claims === 1 ? { status: 'pending' } : { status: 'connected', token: 't'.repeat(43), user, provider: 'google', userName: 'alice' }
          return new Response(JSON.stringify(reply), { status: 200 })
        }
        return new Response('{}', { status: 404 })
      }),
    )
    startFrame(win)
    send({ id: 'request-0001', type: 'GET_SOCIAL_REDIRECT_URI', payload: { provider: 'google', returnUrl: `${HOST}/shop` } })
    send({ id: 'request-0002', type: 'GET_SOCIAL_REDIRECT_URI', payload: { provider: 'Not A Provider!' } })
    send({ id: 'request-0003', type: 'CONNECT_SOCIAL', payload: { uri: 'https://idp.example/auth?state=s1' } })
    await vi.waitFor(() => expect(posted.filter((p) => p.message.type === 'RESPONSE')).toHaveLength(3))
    // The login window's page (this origin, another window) says the login came back, with the
    // claim secret; the same message from the host page's origin is not heard.
    const loginWindow = {}
    send({ type: 'SIGIL_SOCIAL_RETURNED', state: 's1', claim: 'forged' }, HOST, loginWindow)
    send({ type: 'SIGIL_SOCIAL_RETURNED', state: 's1', claim: 'c'.repeat(43) }, FRAME, loginWindow)
    send({ id: 'request-0004', type: 'CONNECT_SOCIAL', payload: { uri: 'https://idp.example/auth?state=s1' } })
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0004')).toBe(true))
    const reply = (id: string) => posted.find((p) => p.message.id === id)?.message
    expect(reply('request-0001')).toMatchObject({ ok: true, payload: { uri: 'https://idp.example/auth?state=s1' } })
    expect(reply('request-0002')).toMatchObject({ ok: false, error: { message: 'Invalid message' } })
    expect(reply('request-0003')).toMatchObject({ ok: true, payload: { pending: true } })
    expect(reply('request-0004')).toMatchObject({
      ok: true,
      payload: { provider: 'google', userName: 'alice', email: 'alice@example.com', address: '0x1111111111111111111111111111111111111111' },
    })
    // The claim carries the window's secret and this frame's device secret (never the host's to see).
    const connects = bodies.filter((b) => b.url === '/wallet/v1/social/connect')
    expect(connects.map((b) => b.claim)).toEqual([undefined, 'c'.repeat(43)])
    expect(connects[1]?.deviceSecret).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(posted)).not.toContain(String(connects[1]?.deviceSecret))
    // The redirect names the page to come back to, with the project it belongs to.
    expect(bodies.find((b) => b.url === '/wallet/v1/social/redirect')).toMatchObject({ provider: 'google', returnUrl: `${HOST}/shop`, projectId: 'p' })
    expect(localStorage.getItem('sigil-frame:token')).toBe('t'.repeat(43))
    expect(JSON.stringify(posted)).not.toContain('t'.repeat(43))
    localStorage.clear()
  })

  it('a login cancelled at the provider (login_cancelled) answers as a user rejection (4001); other refusals keep their reason', async () => {
    const { win, posted, send } = fakeWindow()
    let answer = { code: 'login_cancelled', message: 'The login was cancelled at GitHub' }
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ error: answer }), { status: 400 })),
    )
    startFrame(win)
    send({ id: 'request-0001', type: 'CONNECT_SOCIAL', payload: { uri: 'https://idp.example/auth?state=s1' } })
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0001')).toBe(true))
    // Told apart by the code, not the wording.
    answer = { code: 'login_failed', message: "Google's answer did not verify: nonce" }
    send({ id: 'request-0002', type: 'CONNECT_SOCIAL', payload: { uri: 'https://idp.example/auth?state=s2' } })
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0002')).toBe(true))
    const reply = (id: string) => posted.find((p) => p.message.id === id)?.message
    expect(reply('request-0001')).toMatchObject({ ok: false, error: { message: 'The login was cancelled at GitHub', code: 4001 } })
    expect(reply('request-0002')).toEqual({ id: 'request-0002', type: 'RESPONSE', ok: false, error: { message: "Google's answer did not verify: nonce" } })
  })

  it('Farcaster: the channel URL to the host, its token kept here for connect Farcaster', async () => {
    const { win, posted, send } = fakeWindow()
    const bodies: Record<string, unknown>[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        bodies.push({ url, ...JSON.parse(String(init.body ?? '{}')) })
        if (url === '/wallet/v1/farcaster/uri')
          return new Response(JSON.stringify({ url: 'https://farcaster.xyz/~/siwf?channelToken=c1', channelToken: 'c1' }), { status: 200 })
        if (url === '/wallet/v1/farcaster/connect')
          return new Response(
            JSON.stringify({ status: 'connected', token: 'f'.repeat(43), user: { accounts: [] }, provider: 'farcaster', userName: 'alice' }),
            {
              status: 200,
            },
          )
        return new Response('{}', { status: 404 })
      }),
    )
    startFrame(win)
    send({ id: 'request-0001', type: 'CONNECT_FARCASTER' })
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0001')).toBe(true))
    send({ id: 'request-0002', type: 'GET_FARCASTER_URI' })
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0002')).toBe(true))
    send({ id: 'request-0003', type: 'CONNECT_FARCASTER' })
    await vi.waitFor(() => expect(posted.some((p) => p.message.id === 'request-0003')).toBe(true))
    const reply = (id: string) => posted.find((p) => p.message.id === id)?.message
    expect(reply('request-0001')).toMatchObject({ ok: false, error: { message: 'Ask for a Farcaster sign-in link first' } })
    expect(reply('request-0002')).toEqual({ id: 'request-0002', type: 'RESPONSE', ok: true, payload: { url: 'https://farcaster.xyz/~/siwf?channelToken=c1' } })
    expect(reply('request-0003')).toEqual({ id: 'request-0003', type: 'RESPONSE', ok: true, payload: { userName: 'alice' } })
    expect(bodies.find((b) => b.url === '/wallet/v1/farcaster/connect')).toMatchObject({ channelToken: 'c1' })
    expect(JSON.stringify(posted)).not.toContain('f'.repeat(43))
    localStorage.clear()
  })
})
