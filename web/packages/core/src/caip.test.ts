import { describe, expect, it } from 'vitest'
import { formatCaipAddress, formatCaipNetworkId, isCaipAddress, isCaipNetworkId, parseCaipAddress, parseCaipNetworkId } from './caip.js'

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'

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
