import { afterEach, describe, expect, it, vi } from 'vitest'
import { startFrame } from './frame.js'

const HOST = 'https://shop.example'

/** A window for the frame: its parent (the host page) records what the frame posts. */
function fakeWindow(allowed = HOST) {
  const target = new EventTarget()
  const posted: { message: { type: string; id?: string; ok?: boolean; payload?: unknown; error?: { message: string } }; origin: string }[] = []
  const parent = { postMessage: (message: never, origin: string) => posted.push({ message, origin }) }
  const meta = { getAttribute: () => allowed }
  const win = Object.assign(target, {
    parent,
    location: { search: '?projectId=p&chainId=eip155%3A31337', ancestorOrigins: Object.assign([HOST], { contains: () => true, item: () => HOST }) },
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
})
