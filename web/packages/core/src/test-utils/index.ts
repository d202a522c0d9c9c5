import { vi } from 'vitest'
import type { ChainAdapter, AdapterEvents, ConnectResult } from '../adapter.js'
import type { AnalyticsEvent } from '../analytics.js'
import type { BlockchainClient, Identity } from '../api/blockchain.js'
import { createSigil, type SigilDependencies } from '../client.js'
import { detectMobile, type SigilContext } from '../context.js'
import { arbitrum, ethereum, polygon, sigilDev, solana } from '../networks.js'
import { resolveOptions, type SigilOptions } from '../options.js'
import { createSigilStorage, type KeyValueStorage } from '../storage.js'
import { createSigilStore } from '../store.js'
import type { TokenBalance } from '../types.js'

/** A Map-backed Web Storage stand-in whose contents tests can read. */
export class MemoryStorage implements KeyValueStorage {
  readonly data = new Map<string, string>()
  getItem(key: string) {
    return this.data.get(key) ?? null
  }
  setItem(key: string, value: string) {
    this.data.set(key, value)
  }
  removeItem(key: string) {
    this.data.delete(key)
  }
}

export const testNetworks = [ethereum, arbitrum, polygon, sigilDev(), solana]

export function testOptions(overrides: Partial<SigilOptions> = {}): SigilOptions {
  return { projectId: 'p1', networks: testNetworks, apiUrl: 'https://api.test', themeMode: 'dark', ...overrides }
}

export function recordingSink() {
  const events: AnalyticsEvent[] = []
  return { events, sink: { track: (e: AnalyticsEvent) => void events.push(e) } }
}

/** A bare context (no client) for controller tests. */
export function testContext(
  overrides: Partial<SigilOptions> = {},
  extra: { adapters?: SigilContext['adapters']; isMobile?: boolean; storage?: MemoryStorage } = {},
) {
  const options = resolveOptions(testOptions(overrides))
  const backend = extra.storage ?? new MemoryStorage()
  const { events, sink } = recordingSink()
  const ctx: SigilContext = {
    store: createSigilStore(options),
    options,
    storage: createSigilStorage(backend),
    analytics: sink,
    adapters: extra.adapters ?? { eip155: fakeAdapter().adapter },
    isMobile: () => extra.isMobile ?? false,
  }
  return { ctx, events, backend }
}

/** A scriptable ChainAdapter for eip155 that records calls and exposes its event callbacks. */
export function fakeAdapter(initial: { accounts?: string[]; chainId?: number } = {}) {
  const state = { accounts: initial.accounts ?? ['0x1111111111111111111111111111111111111111'], chainId: initial.chainId ?? 1 }
  let events: AdapterEvents | undefined
  const result = (connectorId: string): ConnectResult => ({
    connectorId,
    address: state.accounts[0] as string,
    chainId: state.chainId,
    walletInfo: { name: 'Test Wallet' },
  })
  const adapter = {
    namespace: 'eip155' as const,
    setup: vi.fn((e: AdapterEvents) => {
      events = e
      e.connectorsChanged([{ id: 'com.test', name: 'Test Wallet', chain: 'eip155', type: 'ANNOUNCED', rdns: 'com.test' }])
      return () => {
        events = undefined
      }
    }),
    connect: vi.fn(async (connectorId: string) => result(connectorId)),
    reconnect: vi.fn(async (connectorId: string): Promise<ConnectResult | undefined> => (state.accounts.length ? result(connectorId) : undefined)),
    disconnect: vi.fn(async () => {}),
    switchNetwork: vi.fn(async (network: { id: number | string }) => {
      state.chainId = Number(network.id)
    }),
    signMessage: vi.fn(async () => '0xsigned'),
  } satisfies ChainAdapter
  return { adapter, state, events: () => events as AdapterEvents }
}

/** A balance entry as the Sigil server sends it (native when no `address`). */
export function tokenBalance(overrides: Partial<TokenBalance> & { numeric?: string; decimals?: string } = {}): TokenBalance {
  const { numeric = '1.5', decimals = '18', ...rest } = overrides
  return { name: 'Ether', symbol: 'ETH', chainId: 'eip155:1', price: 0, value: 0, iconUrl: '', quantity: { decimals, numeric }, ...rest }
}

/** A scriptable blockchain data API: the native 1.5 ETH and no name by default. */
export function fakeBlockchainApi(balances: TokenBalance[] = [tokenBalance()], identity: Identity = { name: null, avatar: null }) {
  const api = {
    getBalances: vi.fn<BlockchainClient['getBalances']>(async () => balances),
    getIdentity: vi.fn<BlockchainClient['getIdentity']>(async () => identity),
    getPrices: vi.fn<BlockchainClient['getPrices']>(async () => []),
  } satisfies BlockchainClient
  return api
}

export function testClient(overrides: Partial<SigilOptions> = {}, deps: SigilDependencies & { storage?: MemoryStorage } = {}) {
  const fake = fakeAdapter()
  const storage = deps.storage ?? new MemoryStorage()
  const { events, sink } = recordingSink()
  const api = fakeBlockchainApi()
  const client = createSigil(testOptions(overrides), {
    adapters: [fake.adapter],
    analytics: sink,
    isMobile: () => false,
    blockchainApi: api,
    ...deps,
    storage,
  })
  return { client, fake, storage, events, api }
}

export { detectMobile }
