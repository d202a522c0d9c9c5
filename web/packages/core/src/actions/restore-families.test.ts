import { describe, expect, it } from 'vitest'
import { createSigil } from '../client.js'
import { ethereum, solana } from '../networks.js'
import { fakeAdapter, fakeBlockchainApi, fakeConnector, MemoryStorage, testOptions } from '../test-utils/index.js'

const SOL = 'So11111111111111111111111111111111111111112'

function client(storage: MemoryStorage, restore: boolean) {
  const evm = fakeConnector({ id: 'evm' })
  const sol = fakeConnector({ id: 'sol', wallets: { solana: { accounts: [SOL], chainId: solana.id } } })
  return createSigil(testOptions(), {
    adapters: [fakeAdapter('eip155').adapter, fakeAdapter('solana').adapter],
    connectors: [evm.source, sol.source],
    storage,
    restore,
    isMobile: () => false,
    blockchainApi: fakeBlockchainApi(),
    reconnectTimeoutMs: 0,
  })
}

describe('restoring several families', () => {
  it('brings back each connection and the namespace that was active, whatever order the wallets answer in', async () => {
    const storage = new MemoryStorage()
    const first = client(storage, false)
    await first.connect('evm')
    await first.connect('sol')
    await first.switchNetwork(ethereum)
    expect(first.store.getState().activeNamespace).toBe('eip155')
    first.destroy()

    const again = client(storage, true)
    await again.ready
    const state = again.store.getState()
    expect(state.chains.eip155?.connectionStatus).toBe('connected')
    expect(state.chains.solana?.account.address).toBe(SOL)
    expect(state.activeNamespace).toBe('eip155')
    expect(state.activeCaipNetwork.caipNetworkId).toBe(ethereum.caipNetworkId)
    again.destroy()
  })
})
