import { describe, expect, it } from 'vitest'
import {
  formatCaipAddress,
  formatCaipNetworkId,
  isAddressOf,
  isCaipAddress,
  isCaipNetworkId,
  isEvmAddress,
  isSolanaAddress,
  parseCaipAddress,
  parseCaipNetworkId,
} from './caip.js'

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'

describe('address validation', () => {
  it('accepts 40 hex characters with or without 0x', () => {
    expect(isEvmAddress(EVM)).toBe(true)
    expect(isEvmAddress(EVM.slice(2))).toBe(true)
    expect(isEvmAddress(EVM.slice(0, -1))).toBe(false)
    expect(isEvmAddress(`${EVM}0`)).toBe(false)
    expect(isEvmAddress(`0x${'g'.repeat(40)}`)).toBe(false)
  })

  it('accepts base58 Solana addresses of 32 to 44 characters', () => {
    expect(isSolanaAddress('7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV')).toBe(true)
    expect(isSolanaAddress('1'.repeat(32))).toBe(true)
    expect(isSolanaAddress('1'.repeat(31))).toBe(false)
    expect(isSolanaAddress('1'.repeat(45))).toBe(false)
    // 0, O, I and l are not in the base58 alphabet
    expect(isSolanaAddress('0'.repeat(32))).toBe(false)
    expect(isSolanaAddress('O'.repeat(32))).toBe(false)
    expect(isAddressOf('solana', EVM)).toBe(false)
    expect(isAddressOf('eip155', EVM)).toBe(true)
  })
})

describe('CAIP ids', () => {
  it('network ids have exactly 2 parts and a known namespace', () => {
    expect(isCaipNetworkId('eip155:1')).toBe(true)
    expect(isCaipNetworkId('eip155:1:0xabc')).toBe(false)
    expect(isCaipNetworkId('eip155')).toBe(false)
    expect(isCaipNetworkId('foo:1')).toBe(false)
    expect(isCaipNetworkId('eip155:')).toBe(false)
    expect(parseCaipNetworkId('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')).toEqual({
      chainNamespace: 'solana',
      chainId: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
    })
    expect(() => parseCaipNetworkId('eip155:1:2')).toThrow('Invalid CAIP network id: eip155:1:2')
  })

  it('addresses have exactly 3 parts and a known namespace', () => {
    expect(isCaipAddress(`eip155:1:${EVM}`)).toBe(true)
    expect(isCaipAddress('eip155:1')).toBe(false)
    expect(isCaipAddress(`cardano:1:${EVM}`)).toBe(false)
    expect(parseCaipAddress(`eip155:137:${EVM}`)).toEqual({
      chainNamespace: 'eip155',
      chainId: '137',
      caipNetworkId: 'eip155:137',
      address: EVM,
    })
    expect(() => parseCaipAddress('x:1:2')).toThrow('Invalid CAIP address: x:1:2')
  })

  it('formats ids and refuses malformed parts', () => {
    expect(formatCaipNetworkId('eip155', 31337)).toBe('eip155:31337')
    expect(formatCaipAddress('eip155:1', EVM)).toBe(`eip155:1:${EVM}`)
    expect(() => formatCaipNetworkId('eip155', '')).toThrow()
    expect(() => formatCaipAddress('eip155:1', '')).toThrow()
  })
})
