import { describe, expect, it } from 'vitest'
import { createAssetDiscovery } from './assets.js'
import { ACCOUNT, FakeProvider } from '../../core/src/test-utils/fake-provider.js'

const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'

/** A wallet that offers ERC-7811 asset discovery on mainnet only. */
function discoveringWallet() {
  const wallet = new FakeProvider()
  wallet.handlers.set('wallet_getCapabilities', () => ({ '0x1': { assetDiscovery: { supported: true } }, '0x89': { assetDiscovery: { supported: false } } }))
  wallet.handlers.set('wallet_getAssets', () => ({
    '0x1': [
      { address: 'native', balance: '0xde0b6b3a7640000', type: 'native', metadata: { decimals: 18, name: 'Ether', symbol: 'ETH' } },
      { address: USDC, balance: '0xbebc20', type: 'erc20', metadata: { decimals: 6, name: 'USD Coin', symbol: 'USDC' } },
      { address: '0x9999999999999999999999999999999999999999', balance: '0x1', type: 'erc721', metadata: { name: 'Punks', symbol: 'PUNK' } },
      { address: 'not-an-address', balance: '0x1', type: 'erc20', metadata: { decimals: 6, symbol: 'BAD' } },
      { address: USDC, balance: 'lots', type: 'erc20', metadata: { decimals: 6, symbol: 'USDC' } },
    ],
  }))
  return wallet
}

describe('asset discovery (EIP-5792 capabilities, ERC-7811 wallet_getAssets)', () => {
  it('lists the native and ERC-20 assets of the chain, leaving out NFTs and malformed entries', async () => {
    const wallet = discoveringWallet()
    const assets = await createAssetDiscovery().getAssets(wallet, ACCOUNT, 1)
    expect(assets).toEqual([
      { balance: 10n ** 18n, decimals: 18, name: 'Ether', symbol: 'ETH' },
      { address: USDC, balance: 12_500_000n, decimals: 6, name: 'USD Coin', symbol: 'USDC' },
    ])
    expect(wallet.calls).toEqual([
      { method: 'wallet_getCapabilities', params: [ACCOUNT, ['0x1']] },
      { method: 'wallet_getAssets', params: [{ account: ACCOUNT, chainFilter: ['0x1'] }] },
    ])
  })

  it('asks the capabilities once per account and chain', async () => {
    const wallet = discoveringWallet()
    const discovery = createAssetDiscovery()
    await discovery.getAssets(wallet, ACCOUNT, 1)
    await discovery.getAssets(wallet, ACCOUNT, 1)
    expect(wallet.methods()).toEqual(['wallet_getCapabilities', 'wallet_getAssets', 'wallet_getAssets'])
    discovery.clear()
    await discovery.getAssets(wallet, ACCOUNT, 1)
    expect(wallet.methods().filter((m) => m === 'wallet_getCapabilities')).toHaveLength(2)
  })

  it('undefined (ask the balance service) when the chain lacks the capability, the wallet lacks the methods, or getAssets fails', async () => {
    const wallet = discoveringWallet()
    expect(await createAssetDiscovery().getAssets(wallet, ACCOUNT, 137)).toBeUndefined()
    expect(wallet.methods()).toEqual(['wallet_getCapabilities'])

    expect(await createAssetDiscovery().getAssets(new FakeProvider(), ACCOUNT, 1)).toBeUndefined()

    const failing = discoveringWallet()
    failing.handlers.set('wallet_getAssets', () => {
      throw Object.assign(new Error('locked'), { code: 4100 })
    })
    expect(await createAssetDiscovery().getAssets(failing, ACCOUNT, 1)).toBeUndefined()
  })
})
