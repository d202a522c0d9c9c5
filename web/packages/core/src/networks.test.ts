import { describe, expect, it } from 'vitest'
import { isCaipNetworkId } from './caip.js'
import * as networks from './networks.js'

const all = [
  networks.ethereum,
  networks.arbitrum,
  networks.polygon,
  networks.solana,
  networks.solanaDevnet,
  networks.solanaTestnet,
  networks.bitcoin,
  networks.bitcoinTestnet,
  networks.sigilDev(),
]

describe('networks', () => {
  it('have the CAIP-2 ids of the spec', () => {
    expect(all.map((n) => n.caipNetworkId)).toEqual([
      'eip155:1',
      'eip155:42161',
      'eip155:137',
      'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
      'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
      'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
      'bip122:000000000019d6689c085ae165831e93',
      'bip122:000000000933ea01ad0ee984209779ba',
      'eip155:31337',
    ])
  })

  it('are consistent: id and namespace match the CAIP id, fields are present', () => {
    for (const n of all) {
      expect(isCaipNetworkId(n.caipNetworkId)).toBe(true)
      expect(n.caipNetworkId).toBe(`${n.chainNamespace}:${n.id}`)
      expect(n.nativeCurrency.symbol).not.toBe('')
      expect(n.assets?.imageId).toBeTruthy()
      expect(typeof n.testnet).toBe('boolean')
    }
    expect(networks.ethereum.nativeCurrency).toEqual({ name: 'Ether', symbol: 'ETH', decimals: 18 })
    expect(networks.solanaDevnet.testnet).toBe(true)
    expect(networks.bitcoin.nativeCurrency.decimals).toBe(8)
  })

  it('the dev chain uses the local RPC unless told otherwise', () => {
    expect(networks.sigilDev().rpcUrls.default.http).toEqual(['http://127.0.0.1:8545'])
    expect(networks.sigilDev({ rpcUrl: 'http://127.0.0.1:9999' }).rpcUrls.default.http).toEqual(['http://127.0.0.1:9999'])
    expect(networks.sigilDev().name).toBe('Sigil Dev')
    expect(networks.rpcUrlOf(networks.sigilDev())).toBe('http://127.0.0.1:8545')
    // Its own icon on the server's asset route, not Ethereum's.
    expect(networks.sigilDev().assets?.imageId).toBe('sigil-dev')
    expect(networks.sigilDev().assets?.imageId).not.toBe(networks.ethereum.assets?.imageId)
  })

  it('the unsupported placeholder has empty native currency and no RPC URLs', () => {
    const p = networks.unsupportedNetwork('eip155:999', 999)
    expect(p).toMatchObject({ id: 999, caipNetworkId: 'eip155:999', chainNamespace: 'eip155' })
    expect(p.nativeCurrency).toEqual({ name: '', symbol: '', decimals: 0 })
    expect(p.rpcUrls.default.http).toEqual([])
    expect(networks.rpcUrlOf(p)).toBeUndefined()
    expect(networks.isUnsupportedNetwork(p)).toBe(true)
    expect(networks.isUnsupportedNetwork(networks.ethereum)).toBe(false)
    // without the wallet's own id, the CAIP-2 reference
    expect(networks.unsupportedNetwork('solana:abc').id).toBe('abc')
  })
})
