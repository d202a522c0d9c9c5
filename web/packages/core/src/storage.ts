import { isCaipNetworkId, isChainNamespace } from './caip.js'
import type { CaipNetworkId, ChainNamespace, ConnectionStatus, Wallet } from './types.js'

/** Browser-storage keys (spec section 3); the `@appkit/` prefix keeps them compatible. */
export const StorageKeys = {
  activeNamespace: '@appkit/active_namespace',
  activeCaipNetworkId: '@appkit/active_caip_network_id',
  recentWallets: '@appkit/recent_wallets',
  connectedNamespaces: '@appkit/connected_namespaces',
  deepLinkChoice: '@appkit/deeplink_choice',
  nativeBalanceCache: '@appkit/native_balance_cache',
  identityCache: '@appkit/identity_cache',
  ensCache: '@appkit/ens_cache',
  portfolioCache: '@appkit/portfolio_cache',
  connectedConnectorId: (namespace: ChainNamespace) => `@appkit/${namespace}:connected_connector_id` as const,
  connectionStatus: (namespace: ChainNamespace) => `@appkit/${namespace}:connection_status` as const,
} as const

/** Caches tied to an address; dropped when the stored connection is gone. */
export const ADDRESS_CACHE_KEYS = [StorageKeys.nativeBalanceCache, StorageKeys.identityCache, StorageKeys.ensCache, StorageKeys.portfolioCache] as const

export const MAX_RECENT_WALLETS = 2
/** Native balance cache lifetime (spec section 9). */
export const NATIVE_BALANCE_CACHE_MS = 30_000
/** Identity (ENS name and avatar) cache lifetime (spec section 9). */
export const IDENTITY_CACHE_MS = 5 * 60_000

/** The subset of the Web Storage API used; lets tests and non-browser hosts pass their own. */
export interface KeyValueStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

export interface CachedBalance {
  balance: string
  symbol: string
  timestamp: number
}

export interface CachedIdentity {
  name: string | null
  avatar: string | null
  timestamp: number
}

export interface SigilStorage {
  getActiveNamespace(): ChainNamespace | undefined
  setActiveNamespace(namespace: ChainNamespace): void
  getActiveCaipNetworkId(): CaipNetworkId | undefined
  setActiveCaipNetworkId(id: CaipNetworkId): void
  getRecentWallets(): Wallet[]
  /** Puts the wallet first, drops an older copy, keeps at most two. Returns the new list. */
  addRecentWallet(wallet: Wallet): Wallet[]
  getConnectedConnectorId(namespace: ChainNamespace): string | undefined
  setConnectedConnectorId(namespace: ChainNamespace, connectorId: string): void
  removeConnectedConnectorId(namespace: ChainNamespace): void
  getConnectionStatus(namespace: ChainNamespace): ConnectionStatus | undefined
  setConnectionStatus(namespace: ChainNamespace, status: ConnectionStatus): void
  getConnectedNamespaces(): ChainNamespace[]
  addConnectedNamespace(namespace: ChainNamespace): void
  removeConnectedNamespace(namespace: ChainNamespace): void
  getNativeBalance(caipAddress: string, now?: number): CachedBalance | undefined
  setNativeBalance(caipAddress: string, balance: Omit<CachedBalance, 'timestamp'>, now?: number): void
  /** An address's identity if it was stored less than 5 minutes ago. */
  getIdentity(address: string, now?: number): CachedIdentity | undefined
  setIdentity(address: string, identity: Omit<CachedIdentity, 'timestamp'>, now?: number): void
  clearAddressCaches(): void
  /** An entry under a key of an on-demand feature's own (the preferred account types); undefined when absent or unreadable. */
  getItem(key: string): string | undefined
  /** Writes such an entry; where storage fails (quota, privacy mode) it is kept for this page only, in state. */
  setItem(key: string, value: string): void
}

/** Storage that does nothing: used where localStorage is missing or throws (private modes). */
const memoryless: KeyValueStorage = { getItem: () => null, setItem: () => {}, removeItem: () => {} }

/** localStorage, or a storage that keeps nothing where it is missing or throws. */
export function defaultBackend(): KeyValueStorage {
  try {
    const local = (globalThis as { localStorage?: KeyValueStorage }).localStorage
    return local ?? memoryless
  } catch {
    return memoryless
  }
}

export function createSigilStorage(backend: KeyValueStorage = defaultBackend()): SigilStorage {
  const get = (key: string): string | undefined => {
    try {
      return backend.getItem(key) ?? undefined
    } catch {
      return undefined
    }
  }
  const set = (key: string, value: string) => {
    try {
      backend.setItem(key, value)
    } catch {
      // Quota or privacy mode: state still works for this page, it just is not remembered.
    }
  }
  const remove = (key: string) => {
    try {
      backend.removeItem(key)
    } catch {
      // see set()
    }
  }
  const getJson = (key: string): unknown => {
    const raw = get(key)
    if (raw === undefined) return undefined
    try {
      return JSON.parse(raw)
    } catch {
      return undefined
    }
  }

  const getConnectedNamespaces = (): ChainNamespace[] => {
    const value = getJson(StorageKeys.connectedNamespaces)
    return Array.isArray(value) ? value.filter(isChainNamespace) : []
  }

  const getRecentWallets = (): Wallet[] => {
    const value = getJson(StorageKeys.recentWallets)
    if (!Array.isArray(value)) return []
    return value
      .filter((w): w is Wallet => typeof w === 'object' && w !== null && typeof w.id === 'string' && typeof w.name === 'string')
      .slice(0, MAX_RECENT_WALLETS)
  }

  /** A stored JSON object of entries by key; anything else reads as empty. */
  const readRecord = <T>(key: string): Record<string, T> => {
    const value = getJson(key)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, T>) : {}
  }
  const readBalanceCache = () => readRecord<CachedBalance>(StorageKeys.nativeBalanceCache)
  const readIdentityCache = () => readRecord<CachedIdentity>(StorageKeys.identityCache)
  const isIdentity = (entry: CachedIdentity | undefined): entry is CachedIdentity =>
    !!entry &&
    typeof entry.timestamp === 'number' &&
    (entry.name === null || typeof entry.name === 'string') &&
    (entry.avatar === null || typeof entry.avatar === 'string')

  return {
    getActiveNamespace() {
      const value = get(StorageKeys.activeNamespace)
      return isChainNamespace(value) ? value : undefined
    },
    setActiveNamespace: (namespace) => set(StorageKeys.activeNamespace, namespace),
    getActiveCaipNetworkId() {
      const value = get(StorageKeys.activeCaipNetworkId)
      return isCaipNetworkId(value) ? value : undefined
    },
    setActiveCaipNetworkId: (id) => set(StorageKeys.activeCaipNetworkId, id),
    getRecentWallets,
    addRecentWallet(wallet) {
      const list = [wallet, ...getRecentWallets().filter((w) => w.id !== wallet.id)].slice(0, MAX_RECENT_WALLETS)
      set(StorageKeys.recentWallets, JSON.stringify(list))
      return list
    },
    getConnectedConnectorId: (namespace) => get(StorageKeys.connectedConnectorId(namespace)),
    setConnectedConnectorId: (namespace, id) => set(StorageKeys.connectedConnectorId(namespace), id),
    removeConnectedConnectorId: (namespace) => remove(StorageKeys.connectedConnectorId(namespace)),
    getConnectionStatus(namespace) {
      const value = get(StorageKeys.connectionStatus(namespace))
      return value === 'connected' || value === 'connecting' || value === 'disconnected' ? value : undefined
    },
    setConnectionStatus: (namespace, status) => set(StorageKeys.connectionStatus(namespace), status),
    getConnectedNamespaces,
    addConnectedNamespace(namespace) {
      const list = getConnectedNamespaces()
      if (!list.includes(namespace)) set(StorageKeys.connectedNamespaces, JSON.stringify([...list, namespace]))
    },
    removeConnectedNamespace(namespace) {
      set(StorageKeys.connectedNamespaces, JSON.stringify(getConnectedNamespaces().filter((n) => n !== namespace)))
    },
    getNativeBalance(caipAddress, now = Date.now()) {
      const entry = readBalanceCache()[caipAddress]
      if (!entry || typeof entry.balance !== 'string' || typeof entry.timestamp !== 'number') return undefined
      return now - entry.timestamp < NATIVE_BALANCE_CACHE_MS ? entry : undefined
    },
    setNativeBalance(caipAddress, balance, now = Date.now()) {
      const cache = readBalanceCache()
      cache[caipAddress] = { ...balance, timestamp: now }
      set(StorageKeys.nativeBalanceCache, JSON.stringify(cache))
    },
    getIdentity(address, now = Date.now()) {
      const entry = readIdentityCache()[address.toLowerCase()]
      return isIdentity(entry) && now - entry.timestamp < IDENTITY_CACHE_MS ? entry : undefined
    },
    setIdentity(address, identity, now = Date.now()) {
      // Expired entries are dropped on the way, so the cache stays as small as the addresses in use.
      const cache = Object.fromEntries(Object.entries(readIdentityCache()).filter(([, e]) => isIdentity(e) && now - e.timestamp < IDENTITY_CACHE_MS))
      cache[address.toLowerCase()] = { name: identity.name, avatar: identity.avatar, timestamp: now }
      set(StorageKeys.identityCache, JSON.stringify(cache))
    },
    clearAddressCaches() {
      for (const key of ADDRESS_CACHE_KEYS) remove(key)
    },
    getItem: get,
    setItem: set,
  }
}
