import { describe, expect, it } from 'vitest'
import { createSigilStorage, IDENTITY_CACHE_MS, StorageKeys } from './storage.js'
import { MemoryStorage } from './test-utils/index.js'
import type { Wallet } from './types.js'

const w = (id: string): Wallet => ({ id, name: `Wallet ${id}`, image_id: `img-${id}` })

describe('storage', () => {
  it('uses @appkit/ prefixed keys', () => {
    expect(StorageKeys.activeNamespace).toBe('@appkit/active_namespace')
    expect(StorageKeys.activeCaipNetworkId).toBe('@appkit/active_caip_network_id')
    expect(StorageKeys.recentWallets).toBe('@appkit/recent_wallets')
    expect(StorageKeys.connectedNamespaces).toBe('@appkit/connected_namespaces')
    expect(StorageKeys.connectedConnectorId('eip155')).toBe('@appkit/eip155:connected_connector_id')
    expect(StorageKeys.connectionStatus('solana')).toBe('@appkit/solana:connection_status')
  })

  it('writes and reads each value under its key', () => {
    const backend = new MemoryStorage()
    const s = createSigilStorage(backend)
    s.setActiveNamespace('eip155')
    s.setActiveCaipNetworkId('eip155:137')
    s.setConnectedConnectorId('eip155', 'io.metamask')
    s.setConnectionStatus('eip155', 'connected')
    s.addConnectedNamespace('eip155')
    s.addConnectedNamespace('eip155')
    s.addConnectedNamespace('solana')
    expect(Object.fromEntries(backend.data)).toEqual({
      '@appkit/active_namespace': 'eip155',
      '@appkit/active_caip_network_id': 'eip155:137',
      '@appkit/eip155:connected_connector_id': 'io.metamask',
      '@appkit/eip155:connection_status': 'connected',
      '@appkit/connected_namespaces': '["eip155","solana"]',
    })
    expect(s.getActiveNamespace()).toBe('eip155')
    expect(s.getActiveCaipNetworkId()).toBe('eip155:137')
    expect(s.getConnectedConnectorId('eip155')).toBe('io.metamask')
    expect(s.getConnectionStatus('eip155')).toBe('connected')
    s.removeConnectedNamespace('eip155')
    s.removeConnectedConnectorId('eip155')
    expect(s.getConnectedNamespaces()).toEqual(['solana'])
    expect(s.getConnectedConnectorId('eip155')).toBeUndefined()
  })

  it('recent wallets: most recent first, no duplicates, at most 2', () => {
    const s = createSigilStorage(new MemoryStorage())
    s.addRecentWallet(w('a'))
    s.addRecentWallet(w('b'))
    expect(s.getRecentWallets().map((x) => x.id)).toEqual(['b', 'a'])
    s.addRecentWallet(w('a'))
    expect(s.getRecentWallets().map((x) => x.id)).toEqual(['a', 'b'])
    expect(s.addRecentWallet(w('c')).map((x) => x.id)).toEqual(['c', 'a'])
    expect(s.getRecentWallets()).toHaveLength(2)
  })

  it('ignores corrupt or foreign values', () => {
    const backend = new MemoryStorage()
    backend.setItem(StorageKeys.recentWallets, '{not json')
    backend.setItem(StorageKeys.activeNamespace, 'cardano')
    backend.setItem(StorageKeys.activeCaipNetworkId, 'nope')
    backend.setItem(StorageKeys.connectedNamespaces, '["eip155", 3, "mars"]')
    backend.setItem(StorageKeys.connectionStatus('eip155'), 'weird')
    const s = createSigilStorage(backend)
    expect(s.getRecentWallets()).toEqual([])
    expect(s.getActiveNamespace()).toBeUndefined()
    expect(s.getActiveCaipNetworkId()).toBeUndefined()
    expect(s.getConnectedNamespaces()).toEqual(['eip155'])
    expect(s.getConnectionStatus('eip155')).toBeUndefined()
  })

  it('survives a storage that throws', () => {
    const throwing = {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('quota')
      },
      removeItem: () => {
        throw new Error('x')
      },
    }
    const s = createSigilStorage(throwing)
    expect(() => s.setActiveNamespace('eip155')).not.toThrow()
    expect(s.getActiveNamespace()).toBeUndefined()
    expect(() => s.clearAddressCaches()).not.toThrow()
    expect(() => s.setItem('@appkit/preferred_account_types', '{}')).not.toThrow()
    expect(s.getItem('@appkit/preferred_account_types')).toBeUndefined()
  })

  it("keeps an on-demand feature's own entries (getItem, setItem)", () => {
    const backend = new MemoryStorage()
    const s = createSigilStorage(backend)
    expect(s.getItem('@appkit/preferred_account_types')).toBeUndefined()
    s.setItem('@appkit/preferred_account_types', '{"eip155":"eoa"}')
    expect(backend.getItem('@appkit/preferred_account_types')).toBe('{"eip155":"eoa"}')
    expect(s.getItem('@appkit/preferred_account_types')).toBe('{"eip155":"eoa"}')
  })

  it('native balance cache lasts 30 s and is cleared with the address caches', () => {
    const backend = new MemoryStorage()
    const s = createSigilStorage(backend)
    s.setNativeBalance('eip155:1:0xabc', { balance: '1.5', symbol: 'ETH' }, 1000)
    expect(s.getNativeBalance('eip155:1:0xabc', 30_999)).toEqual({ balance: '1.5', symbol: 'ETH', timestamp: 1000 })
    expect(s.getNativeBalance('eip155:1:0xabc', 31_000)).toBeUndefined()
    backend.setItem(StorageKeys.identityCache, '{}')
    s.clearAddressCaches()
    expect(backend.getItem(StorageKeys.nativeBalanceCache)).toBeNull()
    expect(backend.getItem(StorageKeys.identityCache)).toBeNull()
  })

  it('identity cache lasts 5 minutes, by lower-case address, and drops expired entries on write', () => {
    const backend = new MemoryStorage()
    const s = createSigilStorage(backend)
    s.setIdentity('0xABC', { name: 'alice.eth', avatar: null }, 1000)
    expect(s.getIdentity('0xabc', 1000 + IDENTITY_CACHE_MS - 1)).toEqual({ name: 'alice.eth', avatar: null, timestamp: 1000 })
    expect(s.getIdentity('0xabc', 1000 + IDENTITY_CACHE_MS)).toBeUndefined()
    s.setIdentity('0xdef', { name: null, avatar: null }, 1000 + IDENTITY_CACHE_MS)
    expect(Object.keys(JSON.parse(backend.getItem(StorageKeys.identityCache) ?? '{}'))).toEqual(['0xdef'])
    backend.setItem(StorageKeys.identityCache, '{"0xdef":{"name":3,"timestamp":1}}')
    expect(s.getIdentity('0xdef', 2)).toBeUndefined()
    s.clearAddressCaches()
    expect(backend.getItem(StorageKeys.identityCache)).toBeNull()
  })

  it('defaults to window.localStorage', () => {
    localStorage.clear()
    createSigilStorage().setActiveNamespace('solana')
    expect(localStorage.getItem('@appkit/active_namespace')).toBe('solana')
    localStorage.clear()
  })
})
