import { describe, expect, it, vi } from 'vitest'
import { createWalletListCache, walletParamsKey } from './wallet-cache.js'
import type { WalletsPage } from './directory.js'

const page = (name: string): WalletsPage => ({ count: 1, data: [{ id: name, name, image_id: name }] })

function deferred<T>() {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

describe('wallet list cache', () => {
  it('prefetched first page is served from cache while a refresh runs', async () => {
    const getWallets = vi.fn().mockResolvedValueOnce(page('first'))
    const cache = createWalletListCache({ getWallets }, () => 42)
    await cache.prefetch({ page: 1, entries: 40 })
    expect(cache.peek({ page: 1, entries: 40 })).toEqual({ page: page('first'), error: undefined, loading: false, updatedAt: 42 })

    const refresh = deferred<WalletsPage>()
    getWallets.mockReturnValueOnce(refresh.promise)
    const loading = cache.load({ page: 1, entries: 40 })
    // stale data stays visible during the refresh
    expect(cache.peek({ page: 1, entries: 40 })).toMatchObject({ page: page('first'), loading: true })
    refresh.resolve(page('fresh'))
    await loading
    expect(cache.peek({ page: 1, entries: 40 }).page).toEqual(page('fresh'))
  })

  it('shares a request in flight', async () => {
    const getWallets = vi.fn().mockResolvedValue(page('a'))
    const cache = createWalletListCache({ getWallets })
    await Promise.all([cache.load(), cache.load(), cache.prefetch()])
    expect(getWallets).toHaveBeenCalledTimes(1)
  })

  it('a failed refresh keeps the cached page and records the error; prefetch never rejects', async () => {
    const getWallets = vi.fn().mockResolvedValueOnce(page('a')).mockRejectedValue(new Error('offline'))
    const cache = createWalletListCache({ getWallets })
    await cache.load()
    await expect(cache.load()).rejects.toThrow('offline')
    await expect(cache.prefetch()).resolves.toBeUndefined()
    expect(cache.peek()).toMatchObject({ page: page('a'), loading: false, error: new Error('offline') })
  })

  it('notifies subscribers and keys params regardless of order', async () => {
    const cache = createWalletListCache({ getWallets: vi.fn().mockResolvedValue(page('a')) })
    const listener = vi.fn()
    const unsubscribe = cache.subscribe(listener)
    await cache.load({ chains: ['eip155:1', 'eip155:137'] })
    expect(listener).toHaveBeenCalledTimes(2)
    expect(cache.peek({ chains: ['eip155:137', 'eip155:1'] }).page).toEqual(page('a'))
    unsubscribe()
    cache.clear()
    expect(listener).toHaveBeenCalledTimes(2)
    expect(cache.peek({ chains: ['eip155:1', 'eip155:137'] }).page).toBeUndefined()
    expect(walletParamsKey({ search: 'Meta ' })).toBe(walletParamsKey({ search: 'meta', page: 1 }))
  })
})
