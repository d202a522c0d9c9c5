import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FrameBridge, FRAME_LOAD_TIMEOUT_MS, FRAME_READY_DELAY_MS, FRAME_REQUEST_TIMEOUT_MS } from './bridge.js'

const FRAME = 'https://frame.example'

/** A document with an iframe whose window records what the host posts to it. */
function fakeDocument() {
  const host = new EventTarget()
  const posted: { message: { id: string; type: string; payload?: unknown }; origin: string }[] = []
  const frameWindow = { postMessage: (message: never, origin: string) => posted.push({ message, origin }) }
  const iframe = {
    style: { cssText: '' },
    dataset: {} as Record<string, string>,
    src: '',
    title: '',
    allow: '',
    tabIndex: 0,
    contentWindow: frameWindow,
    setAttribute() {},
    removeAttribute() {},
    addEventListener() {},
    remove() {},
  }
  const doc = { defaultView: host, createElement: () => iframe, body: { appendChild() {} } }
  const fromFrame = (data: unknown, origin = FRAME, source: unknown = frameWindow) =>
    host.dispatchEvent(Object.assign(new Event('message'), { data, origin, source }))
  return { doc: doc as unknown as Document, iframe, posted, fromFrame }
}

function bridge() {
  const fake = fakeDocument()
  const heights: number[] = []
  const b = new FrameBridge({
    frameUrl: `${FRAME}/`,
    projectId: 'p'.repeat(32),
    chainId: 'eip155:1',
    version: '1.0.0',
    document: fake.doc,
    onHeight: (height) => heights.push(height),
  })
  return { b, heights, ...fake }
}

async function ready(fake: ReturnType<typeof bridge>) {
  fake.fromFrame({ type: 'FRAME_READY', payload: {} })
  await vi.advanceTimersByTimeAsync(FRAME_READY_DELAY_MS)
  await fake.b.ready
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('FrameBridge', () => {
  it('loads the frame with projectId, chainId, version and enableLogger', () => {
    const { iframe } = bridge()
    const url = new URL(iframe.src)
    expect(url.origin).toBe(FRAME)
    expect(Object.fromEntries(url.searchParams)).toEqual({ projectId: 'p'.repeat(32), chainId: 'eip155:1', version: '1.0.0', enableLogger: 'false' })
  })

  it('is ready 500 ms after the frame says so, and fails after 20 s without it', async () => {
    const fake = bridge()
    let done = false
    void fake.b.ready.then(() => (done = true))
    fake.fromFrame({ type: 'FRAME_READY', payload: {} })
    await vi.advanceTimersByTimeAsync(FRAME_READY_DELAY_MS - 1)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(done).toBe(true)

    const silent = bridge()
    const failed = silent.b.ready.catch((e: Error) => e.message)
    await vi.advanceTimersByTimeAsync(FRAME_LOAD_TIMEOUT_MS)
    expect(await failed).toBe('Network Error - Could not load embedded wallet')
  })

  it('sends a validated request with a random id and resolves with the one reply of that id', async () => {
    const fake = bridge()
    await ready(fake)
    const reply = fake.b.request('CONNECT_EMAIL', { email: 'a@b.co' })
    await vi.advanceTimersByTimeAsync(0)
    const [sent] = fake.posted
    expect(sent?.origin).toBe(FRAME)
    expect(sent?.message).toMatchObject({ type: 'CONNECT_EMAIL', payload: { email: 'a@b.co' } })
    expect(sent?.message.id).toMatch(/^[0-9a-f]{32}$/)
    const id = sent?.message.id as string
    // From another origin, or another window: dropped.
    fake.fromFrame({ id, type: 'RESPONSE', ok: true, payload: { action: 'CONNECT' } }, 'https://evil.example')
    fake.fromFrame({ id, type: 'RESPONSE', ok: true, payload: { action: 'CONNECT' } }, FRAME, {})
    // The first reply from the frame settles it; a second with the same id changes nothing.
    fake.fromFrame({ id, type: 'RESPONSE', ok: true, payload: { action: 'VERIFY_OTP' } })
    fake.fromFrame({ id, type: 'RESPONSE', ok: true, payload: { action: 'CONNECT' } })
    expect(await reply).toEqual({ action: 'VERIFY_OTP' })
  })

  it('rejects with the frame error, 4001 as a user rejection, and "An error occurred" without text', async () => {
    const fake = bridge()
    await ready(fake)
    const first = fake.b.request('SIGN_OUT').catch((e: { message: string; code: unknown }) => [e.message, e.code])
    const second = fake.b.request('RPC_REQUEST', { method: 'personal_sign', params: [] }).catch((e: { message: string; code: unknown }) => [e.message, e.code])
    const third = fake.b.request('GET_CHAIN_ID').catch((e: { message: string }) => e.message)
    await vi.advanceTimersByTimeAsync(0)
    const [a, b, c] = fake.posted.map((p) => p.message.id)
    fake.fromFrame({ id: a, type: 'RESPONSE', ok: false, error: { message: 'Invalid code' } })
    fake.fromFrame({ id: b, type: 'RESPONSE', ok: false, error: { message: 'User rejected the request.', code: 4001 } })
    fake.fromFrame({ id: c, type: 'RESPONSE', ok: false, error: { message: '' } })
    expect(await first).toEqual(['Invalid code', 5000])
    expect(await second).toEqual(['User rejected the request.', 4001])
    expect(await third).toBe('An error occurred')
  })

  it("hears the height the frame's view needs, from the frame only and validated; may copy to the clipboard", () => {
    const fake = bridge()
    fake.fromFrame({ type: 'FRAME_HEIGHT', payload: { height: 412 } })
    // from another origin or window, or not a height: dropped
    fake.fromFrame({ type: 'FRAME_HEIGHT', payload: { height: 999 } }, 'https://evil.example')
    fake.fromFrame({ type: 'FRAME_HEIGHT', payload: { height: 999 } }, FRAME, {})
    fake.fromFrame({ type: 'FRAME_HEIGHT', payload: { height: -1 } })
    fake.fromFrame({ type: 'FRAME_HEIGHT', payload: { height: 12.5 } })
    fake.fromFrame({ type: 'FRAME_HEIGHT', payload: { height: '400px' } })
    fake.fromFrame({ type: 'FRAME_HEIGHT', payload: { height: 1e9 } })
    fake.fromFrame({ type: 'FRAME_HEIGHT', payload: { height: 280 } })
    expect(fake.heights).toEqual([412, 280])
    expect(fake.iframe.allow).toBe('clipboard-write')
  })

  it('times out after 30 s, and an abort rejects RPC with "Request was aborted", others with "Something went wrong"', async () => {
    const fake = bridge()
    await ready(fake)
    const slow = fake.b.request('CONNECT_DEVICE').catch((e: Error) => e.message)
    await vi.advanceTimersByTimeAsync(FRAME_REQUEST_TIMEOUT_MS)
    expect(await slow).toBe('Embedded Wallet Request Timed Out')

    const rpcAbort = new AbortController()
    const otherAbort = new AbortController()
    const rpc = fake.b.request('RPC_REQUEST', { method: 'personal_sign' }, { signal: rpcAbort.signal, timeoutMs: 0 }).catch((e: Error) => e.message)
    const other = fake.b.request('GET_USER', undefined, { signal: otherAbort.signal }).catch((e: Error) => e.message)
    await vi.advanceTimersByTimeAsync(0)
    rpcAbort.abort()
    otherAbort.abort()
    expect(await rpc).toBe('Request was aborted')
    expect(await other).toBe('Something went wrong')
  })
})
