import type { DirectoryClient, GetWalletsParams, WalletsPage } from './directory.js'

export interface WalletListEntry {
  page: WalletsPage | undefined
  error: Error | undefined
  loading: boolean
  /** When the page was last fetched (ms). */
  updatedAt: number | undefined
}

export interface WalletListCache {
  /** What is cached for these params, without fetching. */
  peek(params?: GetWalletsParams): WalletListEntry
  /** Fetches (sharing a request already in flight) and caches. Rejects on failure. */
  load(params?: GetWalletsParams): Promise<WalletsPage>
  /** load() that never rejects: for warming the cache before the modal opens. */
  prefetch(params?: GetWalletsParams): Promise<void>
  /** Called whenever an entry changes. Returns an unsubscribe. */
  subscribe(listener: () => void): () => void
  clear(): void
}

const EMPTY: WalletListEntry = { page: undefined, error: undefined, loading: false, updatedAt: undefined }

/** Same params, same key, whatever the order of list items or object keys. */
export function walletParamsKey(params: GetWalletsParams = {}): string {
  const norm = (v?: readonly string[]) => (v?.length ? [...v].sort().join(',') : '')
  return JSON.stringify([
    params.page ?? 1,
    params.entries ?? '',
    norm(params.include),
    norm(params.exclude),
    norm(params.chains),
    params.search?.trim().toLowerCase() ?? '',
    params.badge_type ?? '',
    norm(params.rdns),
  ])
}

/**
 * Keeps directory pages so the first one can be fetched before the modal opens and shown
 * straight from cache while a refresh runs (stale-while-revalidate).
 */
export function createWalletListCache(api: Pick<DirectoryClient, 'getWallets'>, now: () => number = Date.now): WalletListCache {
  const entries = new Map<string, WalletListEntry>()
  const inFlight = new Map<string, Promise<WalletsPage>>()
  const listeners = new Set<() => void>()
  const emit = () => {
    for (const l of listeners) l()
  }
  const set = (key: string, patch: Partial<WalletListEntry>) => {
    entries.set(key, { ...(entries.get(key) ?? EMPTY), ...patch })
    emit()
  }

  const load = (params: GetWalletsParams = {}) => {
    const key = walletParamsKey(params)
    const running = inFlight.get(key)
    if (running) return running
    set(key, { loading: true })
    const promise = api.getWallets(params).then(
      (page) => {
        inFlight.delete(key)
        set(key, { page, error: undefined, loading: false, updatedAt: now() })
        return page
      },
      (error: unknown) => {
        inFlight.delete(key)
        // A failed refresh keeps the cached page: the list stays usable.
        set(key, { error: error instanceof Error ? error : new Error(String(error)), loading: false })
        throw error
      },
    )
    inFlight.set(key, promise)
    return promise
  }

  return {
    peek: (params) => entries.get(walletParamsKey(params)) ?? EMPTY,
    load,
    prefetch: (params) =>
      load(params).then(
        () => undefined,
        () => undefined,
      ),
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    clear() {
      entries.clear()
      emit()
    },
  }
}
