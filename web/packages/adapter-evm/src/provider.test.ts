import { describe, expect, it } from 'vitest'
import { parseChainId, toHexChainId, utf8ToHex } from './provider.js'
import { addChainParameters } from './switch-chain.js'
import { polygon } from '@sigil/core/networks'

describe('provider helpers', () => {
  it('chain ids in and out', () => {
    expect(toHexChainId(31337)).toBe('0x7a69')
    expect(toHexChainId('137')).toBe('0x89')
    expect(() => toHexChainId('solana')).toThrow('Invalid chainId')
    expect(parseChainId('0x89')).toBe(137)
    expect(parseChainId('137')).toBe(137)
    expect(parseChainId(1)).toBe(1)
    expect(() => parseChainId('nope')).toThrow()
  })

  it('utf-8 messages as hex', () => {
    expect(utf8ToHex('')).toBe('0x')
    expect(utf8ToHex('hi')).toBe('0x6869')
  })

  it('add-chain parameters follow EIP-3085', () => {
    expect(addChainParameters(polygon)).toEqual({
      chainId: '0x89',
      chainName: 'Polygon',
      nativeCurrency: { name: 'POL', symbol: 'POL', decimals: 18 },
      rpcUrls: ['https://polygon-rpc.com'],
      blockExplorerUrls: ['https://polygonscan.com'],
    })
  })
})
