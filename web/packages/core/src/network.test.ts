import { describe, expect, it } from 'vitest'
import { arbitrum, ethereum, polygon, sigilDev, solana } from './networks.js'
import {
  addNetwork,
  isNetworkAllowed,
  removeNetwork,
  resetNetwork,
  setActiveNetwork,
  setApprovedNetworks,
  setSupportsAllNetworks,
  shouldShowUnsupportedChain,
  syncWalletNetwork,
} from './network.js'
import { StorageKeys } from './storage.js'
import { currentView } from './router.js'
import { testContext } from './test-utils/index.js'
import { openModal } from './modal.js'

describe('network state', () => {
  it('starts on the default network with requested ids per namespace', () => {
    const { ctx } = testContext()
    const s = ctx.store.getState()
    expect(s.activeCaipNetwork).toBe(ethereum)
    expect(s.activeNamespace).toBe('eip155')
    expect(s.chains.eip155?.network).toEqual({
      caipNetwork: ethereum,
      requestedCaipNetworkIds: ['eip155:1', 'eip155:42161', 'eip155:137', 'eip155:31337'],
      approvedCaipNetworkIds: [],
      supportsAllNetworks: true,
      smartAccountEnabledNetworks: [],
    })
    expect(s.chains.solana?.network.requestedCaipNetworkIds).toEqual([solana.caipNetworkId])
  })

  it('setting the active network stores it; another namespace flags a namespace switch', () => {
    const { ctx, backend } = testContext()
    setActiveNetwork(ctx, polygon)
    expect(ctx.store.getState().isSwitchingNamespace).toBe(false)
    expect(ctx.store.getState().chains.eip155?.network.caipNetwork).toBe(polygon)
    expect(backend.getItem(StorageKeys.activeCaipNetworkId)).toBe('eip155:137')
    setActiveNetwork(ctx, solana)
    const s = ctx.store.getState()
    expect(s.isSwitchingNamespace).toBe(true)
    expect(s.activeNamespace).toBe('solana')
    expect(s.activeCaipNetwork).toBe(solana)
    expect(backend.getItem(StorageKeys.activeNamespace)).toBe('solana')
    expect(backend.getItem(StorageKeys.activeCaipNetworkId)).toBe(solana.caipNetworkId)
  })

  it('a wallet on a configured chain makes it active', () => {
    const { ctx } = testContext()
    expect(syncWalletNetwork(ctx, 'eip155', 42161)).toBe(arbitrum)
    expect(ctx.store.getState().activeCaipNetwork).toBe(arbitrum)
    expect(ctx.store.getState().modal.open).toBe(false)
  })

  it('a wallet on an unconfigured chain: placeholder network and UnsupportedChain opens', () => {
    const { ctx } = testContext()
    const network = syncWalletNetwork(ctx, 'eip155', 10)
    expect(network.caipNetworkId).toBe('eip155:10')
    expect(network.rpcUrls.default.http).toEqual([])
    expect(ctx.store.getState().activeCaipNetwork.nativeCurrency.symbol).toBe('')
    expect(ctx.store.getState().modal.open).toBe(true)
    expect(currentView(ctx.store.getState())).toBe('UnsupportedChain')
  })

  it('back on an allowed chain, the UnsupportedChain warning closes', () => {
    const { ctx } = testContext()
    syncWalletNetwork(ctx, 'eip155', 10)
    syncWalletNetwork(ctx, 'eip155', 1)
    expect(ctx.store.getState().modal.open).toBe(false)
  })

  it('UnsupportedChain stays shut when unsupported chains are allowed or switching is off', () => {
    for (const overrides of [{ allowUnsupportedChain: true }, { enableNetworkSwitch: false }]) {
      const { ctx } = testContext(overrides)
      syncWalletNetwork(ctx, 'eip155', 10)
      expect(ctx.store.getState().activeCaipNetwork.caipNetworkId).toBe('eip155:10')
      expect(shouldShowUnsupportedChain(ctx)).toBe(false)
      expect(ctx.store.getState().modal.open).toBe(false)
    }
  })

  it('UnsupportedChain is stacked when the modal is already open', () => {
    const { ctx } = testContext()
    openModal(ctx, { view: 'Account' })
    syncWalletNetwork(ctx, 'eip155', 10)
    expect(ctx.store.getState().router.history.map((e) => e.view)).toEqual(['Account', 'UnsupportedChain'])
  })

  it('removing the active network falls back to the namespace first network', () => {
    const { ctx } = testContext()
    removeNetwork(ctx, 'eip155:1')
    expect(ctx.store.getState().activeCaipNetwork).toBe(arbitrum)
    expect(ctx.store.getState().chains.eip155?.network.requestedCaipNetworkIds).toEqual(['eip155:42161', 'eip155:137', 'eip155:31337'])
    expect(ctx.store.getState().networks.map((n) => n.caipNetworkId)).not.toContain('eip155:1')
    // removing a non-active network leaves the active one alone
    removeNetwork(ctx, 'eip155:137')
    expect(ctx.store.getState().activeCaipNetwork).toBe(arbitrum)
  })

  it('adding a network makes it requested', () => {
    const { ctx } = testContext({ networks: [ethereum] })
    addNetwork(ctx.store, sigilDev())
    expect(ctx.store.getState().chains.eip155?.network.requestedCaipNetworkIds).toEqual(['eip155:1', 'eip155:31337'])
  })

  it('approved networks limit switching unless the wallet supports all', () => {
    const { ctx } = testContext()
    expect(isNetworkAllowed(ctx.store.getState(), polygon)).toBe(true)
    setSupportsAllNetworks(ctx.store, 'eip155', false)
    setApprovedNetworks(ctx.store, 'eip155', ['eip155:1'])
    expect(isNetworkAllowed(ctx.store.getState(), polygon)).toBe(false)
    expect(isNetworkAllowed(ctx.store.getState(), ethereum)).toBe(true)
  })

  it('reset clears approved ids and smart-account networks, supportsAllNetworks true', () => {
    const { ctx } = testContext()
    setSupportsAllNetworks(ctx.store, 'eip155', false)
    setApprovedNetworks(ctx.store, 'eip155', ['eip155:1'])
    resetNetwork(ctx.store, 'eip155')
    expect(ctx.store.getState().chains.eip155?.network).toMatchObject({
      approvedCaipNetworkIds: [],
      supportsAllNetworks: true,
      smartAccountEnabledNetworks: [],
      caipNetwork: ethereum,
    })
  })
})
