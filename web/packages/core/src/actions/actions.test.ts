/**
 * The actions against connectors and chain adapters kept apart: a connection yielding accounts
 * in several namespaces, and the spec section 4 rules for switching namespaces and
 * disconnecting.
 */
import { describe, expect, it, vi } from 'vitest'
import { activeAccount } from '../account.js'
import type { ChainAdapter } from '../adapter.js'
import { bitcoin, ethereum, polygon, solana } from '../networks.js'
import { removeNetwork } from '../network.js'
import { StorageKeys } from '../storage.js'
import { fakeAdapter, fakeConnector, MemoryStorage, testClient, testContext, testNetworks } from '../test-utils/index.js'
import { disconnectTargets } from './disconnect.js'

const EVM = '0x1111111111111111111111111111111111111111'
const EVM_SMART = '0x3333333333333333333333333333333333333333'
const SOL = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'
const BTC = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'
const networks = [...testNetworks, bitcoin]

/** A wallet reached through one WalletConnect-like session with eip155, solana and bip122 accounts. */
function multiChainWallet(type: 'WALLET_CONNECT' | 'AUTH' | 'ANNOUNCED' = 'WALLET_CONNECT') {
  return fakeConnector({
    id: 'wc',
    name: 'Multi Wallet',
    type,
    wallets: {
      eip155: { accounts: [EVM, EVM_SMART], chainId: 137, type: 'eoa' },
      solana: { accounts: [SOL], chainId: solana.id },
      bip122: { accounts: [BTC], chainId: bitcoin.id, type: 'payment' },
    },
  })
}

function client(
  connectors = [multiChainWallet()],
  adapters: ChainAdapter[] = [fakeAdapter('eip155').adapter, fakeAdapter('solana').adapter, fakeAdapter('bip122').adapter],
) {
  return testClient({ networks }, { restore: false, connectors: connectors.map((c) => c.source), adapters })
}

describe('one connection, several namespaces', () => {
  it('connects every namespace the wallet has accounts in: addresses, allAccounts with types, providers, one stored connector', async () => {
    const wallet = multiChainWallet()
    const { client: sigil, storage } = client([wallet])
    expect(sigil.store.getState().connectors).toEqual([
      { id: 'wc', name: 'Multi Wallet', chain: 'eip155', namespaces: ['eip155', 'solana', 'bip122'], type: 'WALLET_CONNECT', rdns: 'wc' },
    ])
    const connection = await sigil.connect('wc')
    expect(connection.accounts.map((a) => a.namespace)).toEqual(['eip155', 'eip155', 'solana', 'bip122'])
    expect(wallet.connector.connect).toHaveBeenCalledWith({ namespaces: ['eip155', 'solana', 'bip122'], networks })
    const { chains, providers, activeNamespace, activeCaipNetwork } = sigil.store.getState()
    expect(chains.eip155?.account).toMatchObject({
      address: EVM,
      caipAddress: `eip155:137:${EVM}`,
      allAccounts: [
        { address: EVM, type: 'eoa' },
        { address: EVM_SMART, type: 'eoa' },
      ],
    })
    expect(chains.solana?.account).toMatchObject({ caipAddress: `${solana.caipNetworkId}:${SOL}`, allAccounts: [{ address: SOL, type: 'eoa' }] })
    expect(chains.bip122?.account).toMatchObject({ caipAddress: `${bitcoin.caipNetworkId}:${BTC}`, allAccounts: [{ address: BTC, type: 'payment' }] })
    for (const ns of ['eip155', 'solana', 'bip122'] as const) {
      expect(chains[ns]?.connectionStatus).toBe('connected')
      expect(chains[ns]?.connectorId).toBe('wc')
      expect(providers[ns]).toEqual({ provider: wallet.providers.get(ns), type: 'WALLET_CONNECT', connectorId: 'wc' })
      expect(sigil.getProvider(ns)).toBe(wallet.providers.get(ns))
      expect(storage.getItem(StorageKeys.connectedConnectorId(ns))).toBe('wc')
    }
    // the namespace that was active stays active, on the wallet's chain
    expect(activeNamespace).toBe('eip155')
    expect(activeCaipNetwork).toBe(polygon)
    expect(JSON.parse(storage.getItem(StorageKeys.connectedNamespaces) ?? '[]')).toEqual(['solana', 'bip122', 'eip155'])
    expect(sigil.store.getState().isSwitchingNamespace).toBe(false)
  })

  it("takes only namespaces with an adapter, and only addresses the adapter's rules accept", async () => {
    const wallet = multiChainWallet()
    const evm = { ...fakeAdapter('eip155').adapter, isAddress: (a: string) => a !== EVM }
    const { client: sigil } = client([wallet], [evm])
    await sigil.connect('wc')
    expect(wallet.connector.connect).toHaveBeenCalledWith({ namespaces: ['eip155'], networks })
    const state = sigil.store.getState()
    expect(state.chains.eip155?.account.allAccounts).toEqual([{ address: EVM_SMART, type: 'eoa' }])
    expect(state.chains.solana?.connectionStatus).toBe('disconnected')
    expect(state.providers.solana).toBeUndefined()
  })

  it('wallet events are per namespace; a disconnect event without a namespace ends all of them', async () => {
    const wallet = multiChainWallet()
    const { client: sigil } = client([wallet])
    await sigil.connect('wc')
    wallet.emit({ type: 'accountsChanged', namespace: 'solana', accounts: ['9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin'] })
    expect(sigil.store.getState().chains.solana?.account.address).toBe('9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin')
    expect(sigil.store.getState().chains.eip155?.account.address).toBe(EVM)
    wallet.emit({ type: 'chainChanged', namespace: 'eip155', chainId: 1 })
    expect(sigil.store.getState().chains.eip155?.account.caipAddress).toBe(`eip155:1:${EVM}`)
    wallet.emit({ type: 'disconnect', namespace: 'bip122' })
    expect(sigil.store.getState().chains.bip122?.connectionStatus).toBe('disconnected')
    expect(sigil.store.getState().chains.solana?.connectionStatus).toBe('connected')
    wallet.emit({ type: 'disconnect' })
    expect(['eip155', 'solana', 'bip122'].map((ns) => sigil.store.getState().chains[ns as 'eip155']?.connectionStatus)).toEqual([
      'disconnected',
      'disconnected',
      'disconnected',
    ])
    expect(wallet.listenerCount()).toBe(0)
  })

  it('a namespace connected through another connector no longer hears the first one', async () => {
    const first = fakeConnector({ id: 'a' })
    const second = fakeConnector({ id: 'b', wallets: { eip155: { accounts: [EVM_SMART], chainId: 1 } } })
    const { client: sigil } = client([first, second])
    await sigil.connect('a')
    await sigil.connect('b')
    expect(first.listenerCount()).toBe(0)
    first.emit({ type: 'accountsChanged', namespace: 'eip155', accounts: [] })
    expect(sigil.store.getState().chains.eip155).toMatchObject({ connectionStatus: 'connected', connectorId: 'b', account: { address: EVM_SMART } })
  })

  it('restores all namespaces of a stored connector with one reconnect', async () => {
    const storage = new MemoryStorage()
    const wallet = multiChainWallet()
    const one = testClient(
      { networks },
      { restore: false, storage, connectors: [wallet.source], adapters: [fakeAdapter('eip155').adapter, fakeAdapter('solana').adapter] },
    )
    await one.client.connect('wc')
    const again = multiChainWallet()
    const two = testClient({ networks }, { storage, connectors: [again.source], adapters: [fakeAdapter('eip155').adapter, fakeAdapter('solana').adapter] })
    await two.client.ready
    expect(again.connector.reconnect).toHaveBeenCalledTimes(1)
    expect(again.connector.reconnect.mock.calls[0]?.[0].namespaces).toEqual(expect.arrayContaining(['eip155', 'solana']))
    expect(two.client.store.getState().chains.solana?.connectionStatus).toBe('connected')
    expect(two.client.store.getState().chains.eip155?.connectionStatus).toBe('connected')
  })
})

describe('abilities come from the adapter, not from namespace checks', () => {
  it('without switchNetwork the wallet is not asked: only the active network changes', async () => {
    const wallet = fakeConnector()
    const { client: sigil } = client([wallet], [{ namespace: 'eip155' }])
    await sigil.connect('com.test')
    await sigil.switchNetwork(polygon)
    expect(sigil.store.getState().activeCaipNetwork).toBe(polygon)
    expect(sigil.store.getState().chains.eip155?.account.caipAddress).toBe(`eip155:137:${EVM}`)
  })

  it('without signMessage, signing fails with UnsupportedChainError', async () => {
    const { client: sigil } = client([fakeConnector()], [{ namespace: 'eip155' }])
    await sigil.connect('com.test')
    await expect(sigil.signMessage('hi')).rejects.toMatchObject({ name: 'UnsupportedChainError', code: 'UNSUPPORTED_CHAIN', message: 'Unsupported chain' })
  })

  it('names are looked up only through an adapter that has getIdentity', async () => {
    const { client: sigil, api } = client([fakeConnector()], [{ namespace: 'eip155' }])
    await sigil.connect('com.test')
    await sigil.refreshBalance()
    expect(api.getIdentity).not.toHaveBeenCalled()
    const named = client([fakeConnector()])
    await named.client.connect('com.test')
    await vi.waitFor(() => expect(named.api.getIdentity).toHaveBeenCalledWith(EVM, { sender: EVM }))
  })
})

describe('spec section 4: switching network to another namespace', () => {
  it('flags the namespace switch while the wallet switches, then updates the active address and network and stores the network id', async () => {
    const wallet = multiChainWallet()
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    const sol = { ...fakeAdapter('solana').adapter, switchNetwork: vi.fn(() => held) }
    const { client: sigil, storage } = client([wallet], [fakeAdapter('eip155').adapter, sol])
    await sigil.connect('wc')
    expect(activeAccount(sigil.store.getState()).address).toBe(EVM)
    // solana is connected on mainnet: switching to devnet asks the wallet
    const { solanaDevnet } = await import('../networks.js')
    sigil.store.setState({ networks: [...sigil.store.getState().networks, solanaDevnet] })
    const switching = sigil.switchNetwork(solanaDevnet)
    expect(sigil.store.getState().isSwitchingNamespace).toBe(true)
    expect(sol.switchNetwork).toHaveBeenCalledWith(wallet.providers.get('solana'), solanaDevnet)
    release()
    await switching
    const state = sigil.store.getState()
    expect(state.isSwitchingNamespace).toBe(false)
    expect(state.activeNamespace).toBe('solana')
    expect(state.activeCaipNetwork).toBe(solanaDevnet)
    expect(activeAccount(state).caipAddress).toBe(`${solanaDevnet.caipNetworkId}:${SOL}`)
    expect(storage.getItem(StorageKeys.activeCaipNetworkId)).toBe(solanaDevnet.caipNetworkId)
    expect(storage.getItem(StorageKeys.activeNamespace)).toBe('solana')
  })

  it("to the namespace's current network: no wallet request, the active address becomes that namespace's", async () => {
    const wallet = multiChainWallet()
    const { client: sigil, storage } = client([wallet])
    await sigil.connect('wc')
    await sigil.switchNetwork(bitcoin)
    const state = sigil.store.getState()
    expect(state.activeNamespace).toBe('bip122')
    expect(activeAccount(state).address).toBe(BTC)
    expect(state.isSwitchingNamespace).toBe(false)
    expect(storage.getItem(StorageKeys.activeCaipNetworkId)).toBe(bitcoin.caipNetworkId)
    // and back: eip155's account is the active one again
    await sigil.switchNetwork(polygon)
    expect(activeAccount(sigil.store.getState()).address).toBe(EVM)
  })

  it('a failed switch clears the flag and keeps the active network', async () => {
    const sol = { ...fakeAdapter('solana').adapter, switchNetwork: vi.fn(async () => Promise.reject({ code: 4001 })) }
    const { client: sigil } = client([multiChainWallet()], [fakeAdapter('eip155').adapter, sol])
    await sigil.connect('wc')
    const { solanaDevnet } = await import('../networks.js')
    sigil.store.setState({ networks: [...sigil.store.getState().networks, solanaDevnet] })
    await expect(sigil.switchNetwork(solanaDevnet)).rejects.toMatchObject({ name: 'UserRejectedRequestError', code: 4001 })
    expect(sigil.store.getState()).toMatchObject({ isSwitchingNamespace: false, activeNamespace: 'eip155', activeCaipNetwork: polygon })
  })

  it("removing the active network falls back to the namespace's first network", () => {
    const { ctx } = testContext({ networks })
    removeNetwork(ctx, ethereum.caipNetworkId)
    expect(ctx.store.getState().activeCaipNetwork.caipNetworkId).toBe('eip155:42161')
    expect(ctx.store.getState().activeNamespace).toBe('eip155')
  })
})

describe('a further family', () => {
  it('switching to an unconnected family keeps the modal on Account (to connect one); connecting it there closes the modal', async () => {
    const evm = fakeConnector({ id: 'evm', name: 'EVM Wallet', wallets: { eip155: { accounts: [EVM], chainId: 137 } } })
    const sol = fakeConnector({ id: 'sol', name: 'Solana Wallet', wallets: { solana: { accounts: [SOL], chainId: solana.id } } })
    const { client: sigil } = client([evm, sol])
    sigil.open()
    await sigil.connect('evm')
    expect(sigil.store.getState().modal.open).toBe(false)
    // Account, Networks, then back to Account on Solana, which offers to connect a wallet.
    sigil.open()
    sigil.push('Networks')
    await sigil.switchNetwork(solana)
    sigil.goBack()
    expect(sigil.store.getState().router.history.map((r) => r.view)).toEqual(['Account'])
    expect(sigil.store.getState().modal.open).toBe(true)
    sigil.push('Connect')
    sigil.push('ConnectingExternal', { connector: sol.connector.info })
    await sigil.connect('sol')
    const state = sigil.store.getState()
    expect(state.modal.open).toBe(false)
    expect(state.activeNamespace).toBe('solana')
    expect(activeAccount(state).address).toBe(SOL)
    expect(state.chains.eip155?.account.address).toBe(EVM)
  })
})

describe('spec section 4: disconnect', () => {
  it('targets: the namespace asked for, every connected one by default, and a WalletConnect or Auth connection takes its other namespaces', () => {
    const { ctx } = testContext({ networks })
    for (const ns of ['eip155', 'solana', 'bip122'] as const)
      ctx.store.setState((s) => ({ chains: { ...s.chains, [ns]: { ...s.chains[ns], connectionStatus: 'connected' } } }))
    const types = (map: Record<string, 'ANNOUNCED' | 'WALLET_CONNECT' | 'AUTH'>) => (ns: string) => map[ns]
    const state = ctx.store.getState()
    // eip155 injected, solana and bip122 through WalletConnect
    const mixed = types({ eip155: 'ANNOUNCED', solana: 'WALLET_CONNECT', bip122: 'WALLET_CONNECT' })
    expect(disconnectTargets(state, mixed, 'eip155')).toEqual(['eip155'])
    expect(disconnectTargets(state, mixed, 'solana')).toEqual(['solana', 'bip122'])
    expect(disconnectTargets(state, mixed)).toEqual(['eip155', 'solana', 'bip122'])
    const auth = types({ eip155: 'AUTH', solana: 'AUTH', bip122: 'ANNOUNCED' })
    expect(disconnectTargets(state, auth, 'eip155')).toEqual(['eip155', 'solana'])
    expect(disconnectTargets(state, auth, 'bip122')).toEqual(['bip122'])
  })

  it('disconnecting a WalletConnect namespace disconnects the other chains of that connection, not the injected one', async () => {
    const injected = fakeConnector({ id: 'io.injected', wallets: { eip155: { accounts: [EVM], chainId: 1 } } })
    const wc = fakeConnector({
      id: 'wc',
      type: 'WALLET_CONNECT',
      wallets: { solana: { accounts: [SOL], chainId: solana.id }, bip122: { accounts: [BTC], chainId: bitcoin.id } },
    })
    const { client: sigil, events } = client([injected, wc])
    await sigil.connect('io.injected')
    await sigil.connect('wc')
    await sigil.disconnect('solana')
    const chains = sigil.store.getState().chains
    expect([chains.eip155?.connectionStatus, chains.solana?.connectionStatus, chains.bip122?.connectionStatus]).toEqual([
      'connected',
      'disconnected',
      'disconnected',
    ])
    expect(wc.connector.disconnect.mock.calls.map((c) => c[0])).toEqual(['solana', 'bip122'])
    expect(injected.connector.disconnect).not.toHaveBeenCalled()
    expect(events.filter((e) => e.event === 'DISCONNECT_SUCCESS').map((e) => e.properties?.namespace)).toEqual(['solana', 'bip122'])
  })

  it('an injected namespace alone, or all chains when none is named; each settled on its own, failures combined in one error', async () => {
    const injected = fakeConnector({ id: 'io.injected', wallets: { eip155: { accounts: [EVM], chainId: 1 } } })
    const wc = fakeConnector({
      id: 'wc',
      type: 'WALLET_CONNECT',
      wallets: { solana: { accounts: [SOL], chainId: solana.id }, bip122: { accounts: [BTC], chainId: bitcoin.id } },
    })
    const { client: sigil, events } = client([injected, wc])
    await sigil.connect('io.injected')
    await sigil.connect('wc')
    injected.connector.disconnect.mockRejectedValueOnce(new Error('extension locked'))
    wc.connector.disconnect.mockImplementation(async (ns?: string) => {
      if (ns === 'bip122') throw { code: 4900, message: 'relay closed' }
    })
    const error = await sigil.disconnect().catch((e: unknown) => e)
    expect(error).toMatchObject({
      name: 'DisconnectError',
      code: 'DISCONNECT_FAILED',
      message:
        'Failed to disconnect: Failed to disconnect chain eip155: extension locked; Failed to disconnect chain bip122: The Provider is disconnected from all chains.',
    })
    // every chain is cleared whatever its wallet answered
    const chains = sigil.store.getState().chains
    expect([chains.eip155, chains.solana, chains.bip122].map((c) => c?.connectionStatus)).toEqual(['disconnected', 'disconnected', 'disconnected'])
    expect(sigil.store.getState().providers).toEqual({})
    expect(events.filter((e) => e.event.startsWith('DISCONNECT_')).map((e) => `${e.event}:${e.properties?.namespace}`)).toEqual([
      'DISCONNECT_ERROR:eip155',
      'DISCONNECT_SUCCESS:solana',
      'DISCONNECT_ERROR:bip122',
    ])
  })
})

describe('events for the host', () => {
  it('listeners hear every event, also with analytics off; the last one is kept', async () => {
    const { client: sigil, events: analytics } = testClient({ features: { analytics: false } }, { restore: false })
    const heard: string[] = []
    const unsubscribe = sigil.subscribeEvents((e) => heard.push(e.data.event))
    sigil.open()
    await sigil.connect('com.test')
    expect(heard).toEqual(['MODAL_OPEN', 'CONNECT_SUCCESS', 'MODAL_CLOSE'])
    expect(sigil.getEvent()).toMatchObject({ data: { type: 'track', event: 'MODAL_CLOSE' }, timestamp: expect.any(Number) })
    expect(analytics).toEqual([])
    unsubscribe()
    sigil.open()
    expect(heard).toHaveLength(3)
  })
})
