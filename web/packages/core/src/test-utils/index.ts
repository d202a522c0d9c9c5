import { vi } from 'vitest'
import type { ChainAdapter, FamilySession } from '../adapter.js'
import { AUTH_CONNECTOR_ID, type AuthConnector, type DeviceAction, type EmbeddedRequestEvent } from '../connectors/auth.js'
import type { AnalyticsEvent } from '../analytics.js'
import type { BlockchainClient, Identity } from '../features/account/blockchain.js'
import { createSigil, type SigilDependencies } from '../client.js'
import type { SessionFamilies, SessionNamespace, SessionTransport } from '../connectors/transport.js'
import type { Connection, ConnectorEvent, ConnectorSource, ConnectParams, WalletConnector } from '../connectors/types.js'
import { detectMobile, type SigilContext } from '../context.js'
import { arbitrum, ethereum, polygon, sigilDev, solana } from '../networks.js'
import { resolveOptions, type SigilOptions } from '../options.js'
import { createSigilStorage, type KeyValueStorage } from '../storage.js'
import { createSigilStore } from '../store.js'
import { watchUnsupportedChain } from '../watchers.js'
import type { AccountType, CaipNetwork, ChainNamespace, ConnectorType, TokenBalance } from '../types.js'

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
    connectors: new Map(),
    connected: new Map(),
    accountData: { refresh: async () => {}, reset: () => {}, clear: () => {} },
    eventListeners: new Set(),
    lastEvent: undefined,
  }
  // As the client does: the views that open in answer to state.
  watchUnsupportedChain(ctx)
  return { ctx, events, backend }
}

/** A scriptable chain adapter: it switches the wallet's chain in `onSwitch`, signs '0xsigned', names accounts through the server. */
export function fakeAdapter(namespace: ChainNamespace = 'eip155', onSwitch: (network: CaipNetwork) => void = () => {}) {
  const adapter = {
    namespace,
    switchNetwork: vi.fn(async (_provider: unknown, network: CaipNetwork) => onSwitch(network)),
    signMessage: vi.fn(async (_provider: unknown, _message: string, _address: string) => '0xsigned'),
    getIdentity: vi.fn((address: string, api: BlockchainClient) => api.getIdentity(address, { sender: address })),
    signInAccount: vi.fn(async (address: string) => ({ label: namespace === 'eip155' ? 'Ethereum' : namespace, address })),
  } satisfies ChainAdapter
  return { adapter }
}

export interface FakeWalletSide {
  accounts: string[]
  chainId: number | string
  type?: AccountType
}

/**
 * A scriptable connector for one wallet, connecting the namespaces in `wallets` (one eip155
 * account on chain 1 by default). `emit` plays the wallet's events; each namespace's provider
 * is a plain marker object.
 */
export function fakeConnector(
  init: { id?: string; name?: string; type?: ConnectorType; imageUrl?: string; wallets?: Partial<Record<ChainNamespace, FakeWalletSide>> } = {},
) {
  const id = init.id ?? 'com.test'
  const name = init.name ?? 'Test Wallet'
  const wallets: Partial<Record<ChainNamespace, FakeWalletSide>> = init.wallets ?? {
    eip155: { accounts: ['0x1111111111111111111111111111111111111111'], chainId: 1 },
  }
  const namespaces = Object.keys(wallets) as ChainNamespace[]
  const providers = new Map(namespaces.map((ns) => [ns, { wallet: id, namespace: ns }]))
  const listeners = new Set<(event: ConnectorEvent) => void>()
  let connected = false
  const connection = (): Connection => ({
    connectorId: id,
    accounts: namespaces.flatMap((namespace) => {
      const side = wallets[namespace] as FakeWalletSide
      return side.accounts.map((address) => ({ namespace, address, type: side.type ?? 'eoa', chainId: side.chainId }))
    }),
    walletInfo: { name },
  })
  const hasAccounts = () => namespaces.some((ns) => (wallets[ns]?.accounts.length ?? 0) > 0)
  const connector = {
    info: {
      id,
      name,
      chain: namespaces[0] as ChainNamespace,
      namespaces,
      type: init.type ?? 'ANNOUNCED',
      rdns: id,
      ...(init.imageUrl ? { imageUrl: init.imageUrl } : {}),
    },
    connect: vi.fn(async (_params: ConnectParams) => {
      connected = true
      return connection()
    }),
    reconnect: vi.fn(async (_params: ConnectParams): Promise<Connection | undefined> => {
      if (!hasAccounts()) return undefined
      connected = true
      return connection()
    }),
    disconnect: vi.fn(async (_namespace?: ChainNamespace) => {
      connected = false
    }),
    getProvider: (namespace: ChainNamespace) => (connected ? providers.get(namespace) : undefined),
    subscribe(listener: (event: ConnectorEvent) => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  } satisfies WalletConnector
  const emit = (event: ConnectorEvent) => {
    for (const l of [...listeners]) l(event)
  }
  const source: ConnectorSource = {
    watch(onChange) {
      onChange([connector])
      return () => {}
    },
  }
  return { connector, wallets, providers, source, emit, listenerCount: () => listeners.size }
}

/** One eip155 wallet: its connector and adapter, scriptable together. */
export function fakeWallet(initial: { accounts?: string[]; chainId?: number; imageUrl?: string } = {}) {
  const state: FakeWalletSide = { accounts: initial.accounts ?? ['0x1111111111111111111111111111111111111111'], chainId: initial.chainId ?? 1 }
  const wallet = fakeConnector({ wallets: { eip155: state }, ...(initial.imageUrl ? { imageUrl: initial.imageUrl } : {}) })
  const { adapter } = fakeAdapter('eip155', (network) => {
    state.chainId = Number(network.id)
  })
  return {
    ...wallet,
    adapter,
    state,
    /** The wallet's events, as the connector reports them. */
    events: () => ({
      accountChanged: (address: string | undefined) => wallet.emit({ type: 'accountsChanged', namespace: 'eip155', accounts: address ? [address] : [] }),
      chainChanged: (chainId: number) => wallet.emit({ type: 'chainChanged', namespace: 'eip155', chainId }),
      disconnected: () => wallet.emit({ type: 'disconnect' }),
    }),
  }
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
  const fake = fakeWallet()
  const storage = deps.storage ?? new MemoryStorage()
  const { events, sink } = recordingSink()
  const api = fakeBlockchainApi()
  const client = createSigil(testOptions(overrides), {
    adapters: [fake.adapter],
    connectors: [fake.source],
    analytics: sink,
    isMobile: () => false,
    blockchainApi: api,
    reconnectTimeoutMs: 0,
    ...deps,
    storage,
  })
  return { client, fake, storage, events, api }
}

export { detectMobile }

/**
 * A session transport over WalletConnect-shaped namespaces (keys may be a namespace or one of
 * its chains): `request(chainId, method, params)` answers the wallet's part, `read` the chain's.
 */
export function fakeTransport(
  namespaces: () => Record<string, { chains?: string[]; accounts: string[]; methods: string[]; events?: string[] }>,
  request: (chainId: string, method: string, params: unknown) => Promise<unknown>,
  options: { read?: SessionTransport['read']; switchChain?: SessionTransport['switchChain']; peer?: Partial<SessionTransport['peer']> } = {},
): SessionTransport & { kept: Map<string, unknown> } {
  const kept = new Map<string, unknown>()
  return {
    peer: { connectorId: 'walletConnect', type: 'WALLET_CONNECT', name: 'Phone Wallet', ...options.peer },
    namespace(namespace): SessionNamespace | undefined {
      const parts = Object.entries(namespaces()).filter(([key]) => key === namespace || key.startsWith(`${namespace}:`))
      if (!parts.length) return undefined
      const accounts = parts.flatMap(([, ns]) => ns.accounts).filter((a) => a.startsWith(`${namespace}:`))
      const chains = [...parts.flatMap(([, ns]) => ns.chains ?? []), ...accounts.map((a) => a.split(':').slice(0, 2).join(':'))]
      return { chains: [...new Set(chains)], accounts, methods: [...new Set(parts.flatMap(([, ns]) => ns.methods))] }
    },
    request,
    read: options.read ?? (async () => undefined),
    ...(options.switchChain ? { switchChain: options.switchChain } : {}),
    recall: (name) => kept.get(name),
    remember: (name, value) => void kept.set(name, value),
    kept,
  }
}

/** Session capabilities for eip155, solana and bip122 whose families read nothing and bind no provider. */
export function fakeSessionFamilies(): SessionFamilies {
  const family: FamilySession = { methods: [], events: [], accounts: () => [], open: () => ({ provider: {} }) }
  const capability = { load: async () => family }
  return { eip155: capability, solana: capability, bip122: capability }
}

/**
 * An embedded-wallet connector whose steps a test scripts (each a vi.fn; `overrides` replace
 * them), connecting ADDRESS on chain 31337; `source` lists it, `emitRequest` plays its requests.
 */
export function fakeAuthConnector(overrides: Partial<AuthConnector> = {}, address = '0x1111111111111111111111111111111111111111') {
  const requests = new Set<(event: EmbeddedRequestEvent) => void>()
  const base = {
    info: { id: AUTH_CONNECTOR_ID, name: 'Email', chain: 'eip155', namespaces: ['eip155', 'solana'], type: 'AUTH' },
    connect: vi.fn(
      async (_params: ConnectParams): Promise<Connection> => ({
        connectorId: AUTH_CONNECTOR_ID,
        accounts: [{ namespace: 'eip155', address, type: 'eoa', chainId: 31337 }],
      }),
    ),
    reconnect: vi.fn(async (_params: ConnectParams): Promise<Connection | undefined> => undefined),
    disconnect: vi.fn(async () => undefined),
    getProvider: () => ({ request: async () => null }),
    subscribe: () => () => undefined,
    connectEmail: vi.fn(async (_email: string) => 'VERIFY_OTP' as const),
    connectDevice: vi.fn(async (): Promise<DeviceAction> => 'VERIFY_OTP'),
    connectOtp: vi.fn(async (_otp: string) => undefined),
    updateEmail: vi.fn(async (_email: string): Promise<'VERIFY_PRIMARY_OTP' | 'VERIFY_SECONDARY_OTP'> => 'VERIFY_PRIMARY_OTP'),
    updateEmailPrimaryOtp: vi.fn(async (_otp: string) => undefined),
    updateEmailSecondaryOtp: vi.fn(async (_otp: string) => 'new@b.co'),
    exportKeys: vi.fn(async (_options?: { signal?: AbortSignal }) => undefined),
    getSocialRedirectUri: vi.fn(async (_provider: string, _options?: { returnUrl?: string }) => 'https://idp.example/auth?state=s1'),
    connectSocial: vi.fn(async (_uri: string, _options?: { signal?: AbortSignal }) => ({ provider: 'google', userName: 'alice' })),
    getFarcasterUri: vi.fn(async () => 'https://farcaster.xyz/~/siwf?channelToken=c1'),
    connectFarcaster: vi.fn(async (_options?: { signal?: AbortSignal; onRefused?: (reason: string) => void }) => ({
      provider: 'farcaster',
      userName: 'alice',
    })),
    getEmail: () => undefined as string | undefined,
    getSocialLogin: () => undefined,
    emailCooldownMs: () => 0,
    showFrame: vi.fn(),
    subscribeRequests: (listener: (event: EmbeddedRequestEvent) => void) => {
      requests.add(listener)
      return () => requests.delete(listener)
    },
  } satisfies AuthConnector
  const auth = { ...base, ...overrides } as typeof base
  const source: ConnectorSource = {
    watch(onChange) {
      onChange([auth])
      return () => undefined
    },
  }
  const emitRequest = (event: EmbeddedRequestEvent) => {
    for (const l of [...requests]) l(event)
  }
  return { auth, source, emitRequest }
}

/** A fetch double answering every request with `body` as JSON and `status`; its calls are inspectable. */
export function fakeFetch(status: number, body: unknown) {
  return vi.fn(
    async (_url: string | URL | Request, _init?: RequestInit) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  )
}

/** The URL of a fetch double's `i`-th call. */
export const calledUrl = (fetch: ReturnType<typeof fakeFetch>, i = 0) => new URL(String(fetch.mock.calls[i]?.[0]))

/** A Sigil server API client's options against https://api.test/ for project p1, fetching with `fetch`. */
export function apiClientOptions(fetch: ReturnType<typeof fakeFetch>) {
  return { baseUrl: 'https://api.test/', projectId: 'p1', sdkType: 'sigil', sdkVersion: '0.1.0', fetch: fetch as unknown as typeof globalThis.fetch }
}
