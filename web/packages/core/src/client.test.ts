import { describe, expect, it, vi } from 'vitest'
import { currentView } from './router.js'
import { StorageKeys } from './storage.js'
import { MemoryStorage, testClient } from './test-utils/index.js'
import { polygon, solana } from './networks.js'

const ADDRESS = '0x1111111111111111111111111111111111111111'

/** Storage as a previous page load would have left it after connecting. */
function storedConnection(status: 'connected' | 'disconnected' = 'connected') {
  const storage = new MemoryStorage()
  storage.setItem(StorageKeys.activeNamespace, 'eip155')
  storage.setItem(StorageKeys.activeCaipNetworkId, 'eip155:137')
  storage.setItem(StorageKeys.connectedConnectorId('eip155'), 'com.test')
  storage.setItem(StorageKeys.connectionStatus('eip155'), status)
  storage.setItem(StorageKeys.connectedNamespaces, '["eip155"]')
  storage.setItem(StorageKeys.nativeBalanceCache, JSON.stringify({ x: { balance: '1', symbol: 'ETH', timestamp: Date.now() } }))
  return storage
}

describe('createSigil', () => {
  it('throws without a project id', async () => {
    const { createSigil } = await import('./client.js')
    expect(() => createSigil({ projectId: '', networks: [polygon] })).toThrow('Project ID Not Configured')
  })

  it('registers the adapter connectors', () => {
    const { client } = testClient({}, { restore: false })
    expect(client.store.getState().connectors).toEqual([
      { id: 'com.test', name: 'Test Wallet', chain: 'eip155', namespaces: ['eip155'], type: 'ANNOUNCED', rdns: 'com.test' },
    ])
  })
})

describe('restore on start', () => {
  it('stored connected: connecting during the resync, then connected, without prompting', async () => {
    const { client, fake } = testClient({}, { storage: storedConnection() })
    expect(client.store.getState().chains.eip155?.connectionStatus).toBe('connecting')
    await client.ready
    const chain = client.store.getState().chains.eip155
    expect(chain?.connectionStatus).toBe('connected')
    expect(chain?.account.caipAddress).toBe(`eip155:1:${ADDRESS}`)
    expect(chain?.connectorId).toBe('com.test')
    expect(fake.connector.reconnect).toHaveBeenCalledWith({ namespaces: ['eip155'], networks: client.options.networks })
    expect(fake.connector.connect).not.toHaveBeenCalled()
    // the wallet's chain wins over the stored active network
    expect(client.store.getState().activeCaipNetwork.caipNetworkId).toBe('eip155:1')
    expect(chain?.account.balance).toBe('1.5')
  })

  it('stored connected but the wallet no longer exposes the account: disconnected and forgotten', async () => {
    const storage = storedConnection()
    const { client, fake } = testClient({}, { storage, restore: false })
    fake.state.accounts = []
    const { createSigil } = await import('./client.js')
    const again = createSigil(client.options, { adapters: [fake.adapter], connectors: [fake.source], storage })
    await again.ready
    expect(again.store.getState().chains.eip155?.connectionStatus).toBe('disconnected')
    expect(storage.getItem(StorageKeys.connectedConnectorId('eip155'))).toBeNull()
    expect(storage.getItem(StorageKeys.connectionStatus('eip155'))).toBe('disconnected')
    expect(storage.getItem(StorageKeys.connectedNamespaces)).toBe('[]')
  })

  it('stored disconnected clears the address caches and restores the active network', async () => {
    const storage = storedConnection('disconnected')
    const { client, fake } = testClient({}, { storage })
    await client.ready
    expect(fake.connector.reconnect).not.toHaveBeenCalled()
    expect(storage.getItem(StorageKeys.nativeBalanceCache)).toBeNull()
    expect(client.store.getState().activeCaipNetwork).toBe(polygon)
    expect(client.store.getState().chains.eip155?.connectionStatus).toBe('disconnected')
  })

  it('restores recent wallets', async () => {
    const storage = new MemoryStorage()
    storage.setItem(StorageKeys.recentWallets, JSON.stringify([{ id: 'a', name: 'A', image_id: 'i' }]))
    const { client } = testClient({}, { storage })
    await client.ready
    expect(client.store.getState().recentWallets.map((w) => w.id)).toEqual(['a'])
  })
})

describe('connect and disconnect', () => {
  it('connect: connecting, then connected; stores connector, status, namespace and recent wallet; closes the modal', async () => {
    const { client, storage, events } = testClient({}, { restore: false })
    client.open()
    const pending = client.connect('com.test', { wallet: { id: 'w1', name: 'Test', image_id: 'i' } })
    expect(client.store.getState().chains.eip155?.connectionStatus).toBe('connecting')
    await pending
    const s = client.store.getState()
    expect(s.chains.eip155?.connectionStatus).toBe('connected')
    expect(s.chains.eip155?.account.address).toBe(ADDRESS)
    expect(s.chains.eip155?.account.connectedWalletInfo).toEqual({ name: 'Test Wallet' })
    expect(s.modal.open).toBe(false)
    expect(s.recentWallets.map((w) => w.id)).toEqual(['w1'])
    expect(storage.getItem(StorageKeys.connectedConnectorId('eip155'))).toBe('com.test')
    expect(storage.getItem(StorageKeys.connectionStatus('eip155'))).toBe('connected')
    expect(storage.getItem(StorageKeys.connectedNamespaces)).toBe('["eip155"]')
    expect(events.map((e) => e.event)).toEqual(['MODAL_OPEN', 'CONNECT_SUCCESS', 'MODAL_CLOSE'])
    await vi.waitFor(() => expect(client.store.getState().chains.eip155?.account.balance).toBe('1.5'))
  })

  it('a rejected connect maps to the catalogue and leaves the namespace disconnected', async () => {
    const { client, fake } = testClient({}, { restore: false })
    fake.connector.connect.mockRejectedValueOnce({ code: 4001, message: 'denied' })
    await expect(client.connect('com.test')).rejects.toMatchObject({ message: 'User rejected the request.', code: 4001 })
    expect(client.store.getState().chains.eip155?.connectionStatus).toBe('disconnected')
  })

  it('connecting on an unconfigured chain keeps the modal on UnsupportedChain', async () => {
    const { client, fake } = testClient({}, { restore: false })
    fake.state.chainId = 10
    client.open()
    await client.connect('com.test')
    expect(client.store.getState().modal.open).toBe(true)
    expect(currentView(client.store.getState())).toBe('UnsupportedChain')
  })

  it('unknown connector', async () => {
    const { client } = testClient({}, { restore: false })
    await expect(client.connect('nope')).rejects.toThrow('Adapter not found')
  })

  it('disconnect resets account and network, forgets storage, tracks success', async () => {
    const { client, storage, events, fake } = testClient({}, { restore: false })
    await client.connect('com.test')
    client.store.setState({})
    await client.disconnect()
    const chain = client.store.getState().chains.eip155
    expect(fake.connector.disconnect).toHaveBeenCalledTimes(1)
    expect(chain?.connectionStatus).toBe('disconnected')
    expect(chain?.account.address).toBeUndefined()
    expect(chain?.account.balance).toBeUndefined()
    expect(storage.getItem(StorageKeys.connectedConnectorId('eip155'))).toBeNull()
    expect(storage.getItem(StorageKeys.connectionStatus('eip155'))).toBe('disconnected')
    expect(events.at(-1)).toEqual({ type: 'track', event: 'DISCONNECT_SUCCESS', properties: { namespace: 'eip155' } })
  })

  it('a failing wallet disconnect still clears state, then throws one combined error', async () => {
    const { client, fake, events } = testClient({}, { restore: false })
    await client.connect('com.test')
    fake.connector.disconnect.mockRejectedValueOnce(new Error('wallet gone'))
    await expect(client.disconnect('eip155')).rejects.toThrow('Failed to disconnect: Failed to disconnect chain eip155: wallet gone')
    expect(client.store.getState().chains.eip155?.connectionStatus).toBe('disconnected')
    expect(events.at(-1)?.event).toBe('DISCONNECT_ERROR')
  })
})

describe('wallet events', () => {
  it('accountsChanged updates the address; an empty list disconnects', async () => {
    const { client, fake } = testClient({}, { restore: false })
    await client.connect('com.test')
    const other = '0x2222222222222222222222222222222222222222'
    fake.events().accountChanged(other)
    expect(client.store.getState().chains.eip155?.account.caipAddress).toBe(`eip155:1:${other}`)
    fake.events().accountChanged(undefined)
    expect(client.store.getState().chains.eip155?.connectionStatus).toBe('disconnected')
    expect(client.store.getState().chains.eip155?.account.address).toBeUndefined()
  })

  it('chainChanged moves the active network and re-keys the address', async () => {
    const { client, fake } = testClient({}, { restore: false })
    await client.connect('com.test')
    fake.events().chainChanged(137)
    expect(client.store.getState().activeCaipNetwork).toBe(polygon)
    expect(client.store.getState().chains.eip155?.account.caipAddress).toBe(`eip155:137:${ADDRESS}`)
    fake.events().chainChanged(10)
    expect(currentView(client.store.getState())).toBe('UnsupportedChain')
  })

  it('disconnect event clears the namespace', async () => {
    const { client, fake, storage } = testClient({}, { restore: false })
    await client.connect('com.test')
    fake.events().disconnected()
    expect(client.store.getState().chains.eip155?.connectionStatus).toBe('disconnected')
    expect(storage.getItem(StorageKeys.connectedNamespaces)).toBe('[]')
  })

  it('events are ignored while not connected', () => {
    const { client, fake } = testClient({}, { restore: false })
    fake.events().chainChanged(137)
    fake.events().accountChanged(ADDRESS)
    expect(client.store.getState().activeCaipNetwork.caipNetworkId).toBe('eip155:1')
    expect(client.store.getState().chains.eip155?.account.address).toBeUndefined()
  })
})

describe('switching network and signing', () => {
  it('connected: asks the wallet, then updates the network', async () => {
    const { client, fake } = testClient({}, { restore: false })
    await client.connect('com.test')
    await client.switchNetwork(polygon)
    expect(fake.adapter.switchNetwork).toHaveBeenCalledWith(fake.providers.get('eip155'), polygon)
    expect(client.store.getState().activeCaipNetwork).toBe(polygon)
    expect(client.store.getState().chains.eip155?.account.caipAddress).toBe(`eip155:137:${ADDRESS}`)
  })

  it('a rejected switch keeps the network and throws the catalogue error', async () => {
    const { client, fake } = testClient({}, { restore: false })
    await client.connect('com.test')
    fake.adapter.switchNetwork.mockRejectedValueOnce({ code: 4001 })
    await expect(client.switchNetwork(polygon)).rejects.toThrow('User rejected the request.')
    expect(client.store.getState().activeCaipNetwork.caipNetworkId).toBe('eip155:1')
  })

  it('not connected: only the active network changes, across namespaces too', async () => {
    const { client, fake } = testClient({}, { restore: false })
    await client.switchNetwork(solana)
    expect(fake.adapter.switchNetwork).not.toHaveBeenCalled()
    expect(client.store.getState().activeNamespace).toBe('solana')
    expect(client.store.getState().isSwitchingNamespace).toBe(false)
  })

  it('signMessage signs with the active address', async () => {
    const { client, fake } = testClient({}, { restore: false })
    await expect(client.signMessage('hi')).rejects.toThrow('CaipNetwork or CaipAddress is undefined')
    await client.connect('com.test')
    expect(await client.signMessage('hi')).toBe('0xsigned')
    expect(fake.adapter.signMessage).toHaveBeenCalledWith(fake.providers.get('eip155'), 'hi', ADDRESS)
  })

  it('destroy stops listening to the wallet', async () => {
    const { client, fake } = testClient({}, { restore: false })
    await client.connect('com.test')
    expect(fake.listenerCount()).toBe(1)
    client.destroy()
    expect(fake.listenerCount()).toBe(0)
  })
})
