/**
 * The wagmi config following the Sigil connection both ways, with a real (fake-wallet backed)
 * injected connector, the real eip155 adapter and wagmi's own actions.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { injectedConnector } from '@sigil/adapter-evm'
import { createSigil, StorageKeys, type ConnectorSource, type SigilClient } from '@sigil/core'
import { arbitrum, ethereum, polygon, sigilDev } from '@sigil/core/networks'
import { getAddress } from 'viem'
import { connect, disconnect, getBlockNumber, getCallsStatus, getCapabilities, getConnectorClient, reconnect, sendCalls, switchChain } from 'wagmi/actions'
import { callsWallet } from '../../core/src/test-utils/calls-wallet.js'
import { ACCOUNT, announce, FakeProvider } from '../../core/src/test-utils/fake-provider.js'
import { MemoryStorage } from '../../core/src/test-utils/index.js'
import { WagmiAdapter } from './adapter.js'
import { SIGIL_CONNECTOR_ID } from './connector.js'

const networks = [ethereum, polygon, arbitrum, sigilDev()]
const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
})

/** The page's one injected wallet, 'com.test', over `wallet`. */
function injectedSource(wallet: FakeProvider): ConnectorSource {
  const connector = injectedConnector(
    { id: 'com.test', name: 'Test Wallet', chain: 'eip155', namespaces: ['eip155'], type: 'ANNOUNCED', rdns: 'com.test' },
    wallet,
  )
  return {
    watch(onChange) {
      onChange([connector])
      return () => {}
    },
  }
}

function setup(opts: { wallet?: FakeProvider; storage?: MemoryStorage } = {}) {
  const wallet = opts.wallet ?? new FakeProvider()
  const source = injectedSource(wallet)
  const adapter = new WagmiAdapter({ networks, projectId: 'p1', apiUrl: 'https://api.test', storage: null })
  const blockchainApi = { getBalances: vi.fn(async () => []), getIdentity: vi.fn(async () => ({ name: null, avatar: null })), getPrices: vi.fn(async () => []) }
  const client: SigilClient = createSigil(
    { projectId: 'p1', networks, apiUrl: 'https://api.test' },
    { adapters: [adapter], connectors: [source], storage: opts.storage ?? new MemoryStorage(), isMobile: () => false, blockchainApi, reconnectTimeoutMs: 0 },
  )
  cleanups.push(() => client.destroy())
  const config = adapter.wagmiConfig
  return { wallet, adapter, client, config }
}

/** Waits until wagmi's state says so (the sync is driven by subscriptions, not timers). */
const wagmiState = (config: WagmiAdapter['wagmiConfig']) => {
  const current = config.state.current ? config.state.connections.get(config.state.current) : undefined
  return { status: config.state.status, chainId: config.state.chainId, accounts: current?.accounts, connector: current?.connector.id }
}

describe('WagmiAdapter', () => {
  it("makes a wagmi config of the host's eip155 networks, with only the Sigil connector (no EIP-6963 discovery)", () => {
    cleanups.push(announce(new FakeProvider(), { name: 'Other Wallet', rdns: 'com.other' }))
    const { config, adapter } = setup()
    expect(config.chains.map((c) => c.id)).toEqual([1, 137, 42161, 31337])
    expect(config.chains[0]).toMatchObject({
      name: 'Ethereum',
      nativeCurrency: { symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: ['https://eth.merkle.io'] } },
    })
    expect(config.connectors.map((c) => c.id)).toEqual([SIGIL_CONNECTOR_ID])
    expect(adapter.networks).toEqual(networks)
  })

  it("reads chains through the Sigil server's RPC proxy by default", async () => {
    const { config } = setup()
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => new Response(JSON.stringify({ jsonrpc: '2.0', id: 0, result: '0x10' })))
    vi.stubGlobal('fetch', fetch)
    expect(await getBlockNumber(config, { chainId: 31337 })).toBe(16n)
    expect(String(fetch.mock.calls[0]?.[0])).toBe('https://api.test/v1?chainId=eip155%3A31337&projectId=p1')
  })

  it('a connection made in the modal shows in wagmi: checksummed account and chain', async () => {
    const { client, config } = setup()
    await client.connect('com.test')
    await vi.waitFor(() => expect(wagmiState(config)).toEqual({ status: 'connected', chainId: 1, accounts: [getAddress(ACCOUNT)], connector: 'sigil' }))
  })

  it('a network switched in the modal, or in the wallet, shows in wagmi', async () => {
    const { client, config, wallet } = setup()
    await client.connect('com.test')
    await vi.waitFor(() => expect(config.state.status).toBe('connected'))
    await client.switchNetwork(polygon)
    await vi.waitFor(() => expect(wagmiState(config).chainId).toBe(137))
    expect(wagmiState(config).accounts).toEqual([getAddress(ACCOUNT)])
    wallet.setChain(42161)
    await vi.waitFor(() => expect(wagmiState(config).chainId).toBe(42161))
  })

  it("wagmi's switchChain goes through Sigil: the wallet is asked and the modal's network follows", async () => {
    const { client, config, wallet } = setup()
    await client.connect('com.test')
    await vi.waitFor(() => expect(config.state.status).toBe('connected'))
    wallet.calls.length = 0
    const chain = await switchChain(config, { chainId: 137 })
    expect(chain.id).toBe(137)
    expect(wallet.calls).toContainEqual({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x89' }] })
    expect(client.store.getState().activeCaipNetwork).toBe(polygon)
    expect(wagmiState(config).chainId).toBe(137)
    // a refusal in the wallet is viem's UserRejectedRequestError for wagmi's hooks
    wallet.handlers.set('wallet_switchEthereumChain', () => {
      throw { code: 4001, message: 'no' }
    })
    await expect(switchChain(config, { chainId: 1 })).rejects.toMatchObject({ name: 'UserRejectedRequestError', code: 4001 })
    expect(client.store.getState().activeCaipNetwork).toBe(polygon)
  })

  it('an account changed in the wallet shows in wagmi; no account left disconnects both', async () => {
    const { client, config, wallet } = setup()
    await client.connect('com.test')
    await vi.waitFor(() => expect(config.state.status).toBe('connected'))
    const other = '0x2222222222222222222222222222222222222222'
    wallet.emit('accountsChanged', [other])
    await vi.waitFor(() => expect(wagmiState(config).accounts).toEqual([getAddress(other)]))
    wallet.emit('accountsChanged', [])
    await vi.waitFor(() => expect(config.state.status).toBe('disconnected'))
    expect(client.store.getState().chains.eip155?.connectionStatus).toBe('disconnected')
  })

  it("wagmi's sendCalls, getCallsStatus and getCapabilities reach the connected wallet through the Sigil connector (EIP-5792)", async () => {
    const { provider, bundles } = callsWallet({ atomic: 'supported' })
    const { client, config } = setup({ wallet: provider })
    await client.connect('com.test')
    await vi.waitFor(() => expect(config.state.status).toBe('connected'))
    const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const { id } = await sendCalls(config, { calls: [{ to, data: '0x7ff36ab5', value: 16n }] })
    expect(id).toBe('wallet-bundle-1')
    expect(bundles).toEqual([
      expect.objectContaining({ version: '2.0.0', chainId: '0x1', from: getAddress(ACCOUNT), calls: [{ to, data: '0x7ff36ab5', value: '0x10' }] }),
    ])
    expect(await getCallsStatus(config, { id })).toMatchObject({ id, status: 'success', statusCode: 200, atomic: true })
    expect(await getCapabilities(config)).toMatchObject({ 1: { atomic: { status: 'supported' } } })
    expect(provider.methods()).toEqual(expect.arrayContaining(['wallet_sendCalls', 'wallet_getCallsStatus', 'wallet_getCapabilities']))
  })

  it('a disconnect in the modal disconnects wagmi', async () => {
    const { client, config } = setup()
    await client.connect('com.test')
    await vi.waitFor(() => expect(config.state.status).toBe('connected'))
    await client.disconnect()
    await vi.waitFor(() => expect(wagmiState(config)).toMatchObject({ status: 'disconnected', accounts: undefined }))
  })

  it("wagmi's disconnect disconnects the modal (and the wallet forgets the site)", async () => {
    const { client, config, wallet } = setup()
    await client.connect('com.test')
    await vi.waitFor(() => expect(config.state.status).toBe('connected'))
    await disconnect(config)
    expect(client.store.getState().chains.eip155?.connectionStatus).toBe('disconnected')
    expect(wallet.methods()).toContain('wallet_revokePermissions')
    expect(config.state.status).toBe('disconnected')
    // and connecting again in the modal shows in wagmi again
    await client.connect('com.test')
    await vi.waitFor(() => expect(config.state.status).toBe('connected'))
  })

  it("wagmi's connect opens the modal and resolves once the modal connected; closing the modal rejects it", async () => {
    const { client, config, adapter } = setup()
    const pending = connect(config, { connector: adapter.connector })
    await vi.waitFor(() => expect(client.store.getState().modal.open).toBe(true))
    await client.connect('com.test')
    expect(await pending).toEqual({ accounts: [getAddress(ACCOUNT)], chainId: 1 })
    expect(config.state.status).toBe('connected')

    await disconnect(config)
    const refused = connect(config, { connector: adapter.connector })
    await vi.waitFor(() => expect(client.store.getState().modal.open).toBe(true))
    client.close()
    await expect(refused).rejects.toMatchObject({ name: 'UserRejectedRequestError', code: 4001 })
    expect(config.state.status).toBe('disconnected')
  })

  it("hands wagmi the connected wallet's own EIP-1193 provider", async () => {
    const { client, config, wallet } = setup()
    expect(await config.connectors[0]?.getProvider()).toBeUndefined()
    await client.connect('com.test')
    await vi.waitFor(() => expect(config.state.status).toBe('connected'))
    expect(await config.connectors[0]?.getProvider()).toBe(wallet)
    const walletClient = await getConnectorClient(config)
    expect(walletClient.account.address).toBe(getAddress(ACCOUNT))
    expect(await walletClient.request({ method: 'eth_chainId' })).toBe('0x1')
  })

  it("on reload wagmi's reconnect finds the connection Sigil restored, without prompting", async () => {
    const storage = new MemoryStorage()
    const wallet = new FakeProvider()
    const first = setup({ wallet, storage })
    await first.client.connect('com.test')
    expect(storage.getItem(StorageKeys.connectionStatus('eip155'))).toBe('connected')
    first.client.destroy()
    wallet.calls.length = 0
    const again = setup({ wallet, storage })
    const connections = await reconnect(again.config)
    expect(connections.map((c) => c.connector.id)).toEqual([SIGIL_CONNECTOR_ID])
    expect(wagmiState(again.config)).toMatchObject({ status: 'connected', chainId: 1, accounts: [getAddress(ACCOUNT)] })
    expect(wallet.methods()).not.toContain('eth_requestAccounts')
  })

  it('follows the newest modal when createAppKit runs again (hot reload), and waits for one before any', async () => {
    const wallet = new FakeProvider()
    const source = injectedSource(wallet)
    const adapter = new WagmiAdapter({ networks, projectId: 'p1', apiUrl: 'https://api.test', storage: null })
    // wagmi asks before any modal exists: the answer waits for one
    const authorized = adapter.connector.isAuthorized()
    const make = () => {
      const client = createSigil(
        { projectId: 'p1', networks, apiUrl: 'https://api.test' },
        { adapters: [adapter], connectors: [source], storage: new MemoryStorage(), isMobile: () => false, restore: false },
      )
      cleanups.push(() => client.destroy())
      return client
    }
    const first = make()
    expect(await authorized).toBe(false)
    first.destroy()
    const second = make()
    await second.connect('com.test')
    await vi.waitFor(() => expect(adapter.wagmiConfig.state.status).toBe('connected'))
    expect(await adapter.connector.getProvider()).toBe(wallet)
  })
})
