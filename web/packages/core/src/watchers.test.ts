import { afterEach, describe, expect, it, vi } from 'vitest'
import { currentView } from './router.js'
import { fakeAuthConnector, testClient } from './test-utils/index.js'
import { NOT_ALLOWED_ERROR_DELAY_MS } from './watchers.js'

/** An embedded-wallet connector whose request events the test sends. */
function fakeAuth() {
  const { source, emitRequest } = fakeAuthConnector()
  return { source, emit: emitRequest }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('embedded wallet requests in the modal', () => {
  it('an unsafe request opens ApproveTransaction (closing blocked), and the modal it opened closes when it settles', () => {
    const { source, emit } = fakeAuth()
    const { client } = testClient({}, { connectors: [source], restore: false })
    emit({ type: 'approval-start', abort: () => undefined })
    expect(client.store.getState().modal.open).toBe(true)
    expect(currentView(client.store.getState())).toBe('ApproveTransaction')
    expect(client.close()).toBe(false)
    expect(client.canClose()).toBe(false)
    emit({ type: 'approval-end', ok: true })
    expect(client.store.getState().modal.open).toBe(false)
  })

  it('over an open modal the view is pushed, then popped', () => {
    const { source, emit } = fakeAuth()
    const { client } = testClient({}, { connectors: [source], restore: false })
    client.open({ view: 'Networks' })
    emit({ type: 'approval-start', abort: () => undefined })
    expect(client.store.getState().router.history.map((r) => r.view)).toEqual(['Networks', 'ApproveTransaction'])
    emit({ type: 'approval-end', ok: false })
    expect(client.store.getState().router.history.map((r) => r.view)).toEqual(['Networks'])
    expect(client.store.getState().modal.open).toBe(true)
  })

  it("a failure other than the user's rejection is said in the modal: TransactionFailed in place of the approval", () => {
    const { source, emit } = fakeAuth()
    const { client } = testClient({}, { connectors: [source], restore: false })
    emit({ type: 'approval-start', abort: () => undefined })
    const failure = { message: 'Insufficient funds: the amount and the network fee are more than the account holds.', transaction: true }
    emit({ type: 'approval-end', ok: false, failure })
    const state = client.store.getState()
    expect(state.modal.open).toBe(true)
    expect(state.router.history).toEqual([{ view: 'TransactionFailed', data: failure }])
    // It closes as any view does.
    expect(client.close()).toBe(true)

    // Over an open modal, it takes the approval's place; going back returns to the view before.
    client.open({ view: 'Networks' })
    emit({ type: 'approval-start', abort: () => undefined })
    emit({ type: 'approval-end', ok: false, failure })
    expect(client.store.getState().router.history.map((r) => r.view)).toEqual(['Networks', 'TransactionFailed'])
  })

  it('a forced close aborts the waiting request', () => {
    const { source, emit } = fakeAuth()
    const { client } = testClient({}, { connectors: [source], restore: false })
    const abort = vi.fn()
    emit({ type: 'approval-start', abort })
    expect(client.close({ force: true })).toBe(true)
    expect(abort).toHaveBeenCalledTimes(1)
    emit({ type: 'approval-end', ok: false })
    expect(abort).toHaveBeenCalledTimes(1)
  })

  it('a method not allowed opens the modal and shows the error 300 ms later', () => {
    vi.useFakeTimers()
    const { source, emit } = fakeAuth()
    const { client } = testClient({}, { connectors: [source], restore: false })
    emit({ type: 'not-allowed', message: 'Requested RPC call is not allowed' })
    expect(client.store.getState().modal.open).toBe(true)
    vi.advanceTimersByTime(NOT_ALLOWED_ERROR_DELAY_MS - 1)
    expect(client.store.getState().notification.open).toBe(false)
    vi.advanceTimersByTime(1)
    expect(client.store.getState().notification).toEqual({ open: true, message: 'Requested RPC call is not allowed', variant: 'error' })
  })
})
