import { describe, expect, it, vi } from 'vitest'
import { createSigil } from '../client.js'
import { ethereum, solana, solanaDevnet } from '../networks.js'
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

describe("an adapter's wrapProvider", () => {
  it("wraps what a connector hands over: the store, signing and network switches get the adapter's provider", async () => {
    const sol = fakeConnector({ id: 'sol', wallets: { solana: { accounts: [SOL], chainId: solana.id } } })
    const adapter = fakeAdapter('solana').adapter
    const wrapped = { wrapped: true }
    const wrapProvider = vi.fn((handed: unknown) => ((handed as { namespace?: string }).namespace === 'solana' ? wrapped : undefined))
    const c = createSigil(testOptions({ networks: [ethereum, solana, solanaDevnet] }), {
      adapters: [fakeAdapter('eip155').adapter, { ...adapter, wrapProvider }],
      connectors: [sol.source],
      storage: new MemoryStorage(),
      isMobile: () => false,
      blockchainApi: fakeBlockchainApi(),
      reconnectTimeoutMs: 0,
    })
    await c.connect('sol')
    expect(wrapProvider).toHaveBeenCalledWith(sol.providers.get('solana'), {
      network: expect.objectContaining({ caipNetworkId: solana.caipNetworkId }),
      accounts: [{ namespace: 'solana', address: SOL, type: 'eoa', chainId: solana.id }],
    })
    expect(c.getProvider('solana')).toBe(wrapped)
    await c.signMessage('hi')
    expect(adapter.signMessage).toHaveBeenCalledWith(wrapped, 'hi', SOL)
    await c.switchNetwork(solanaDevnet)
    expect(adapter.switchNetwork).toHaveBeenCalledWith(wrapped, solanaDevnet)
    c.destroy()
  })
})
