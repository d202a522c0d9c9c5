import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { hideNotification, showError, showLoading, showNotification, showSuccess } from './notification.js'
import { testContext } from './test-utils/index.js'

describe('notifications', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('shows at once when none is open', () => {
    const { store } = testContext().ctx
    showSuccess(store, 'Copied')
    expect(store.getState().notification).toEqual({ open: true, message: 'Copied', variant: 'success' })
  })

  it('a new one hides the open one and shows 150 ms later', () => {
    const { store } = testContext().ctx
    showLoading(store, 'Switching…')
    showError(store, 'User rejected the request.')
    expect(store.getState().notification).toEqual({ open: false, message: 'Switching…', variant: 'loading' })
    vi.advanceTimersByTime(149)
    expect(store.getState().notification.open).toBe(false)
    vi.advanceTimersByTime(1)
    expect(store.getState().notification).toEqual({ open: true, message: 'User rejected the request.', variant: 'error' })
  })

  it('only the last of quick successive ones shows', () => {
    const { store } = testContext().ctx
    showSuccess(store, 'one')
    showNotification(store, 'two', 'loading')
    showNotification(store, 'three', 'error')
    vi.advanceTimersByTime(150)
    expect(store.getState().notification).toEqual({ open: true, message: 'three', variant: 'error' })
    vi.advanceTimersByTime(1000)
    expect(store.getState().notification.message).toBe('three')
  })

  it('hide cancels a pending one', () => {
    const { store } = testContext().ctx
    showSuccess(store, 'one')
    showSuccess(store, 'two')
    hideNotification(store)
    vi.advanceTimersByTime(500)
    expect(store.getState().notification.open).toBe(false)
  })
})
