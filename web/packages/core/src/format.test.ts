import { describe, expect, it } from 'vitest'
import { floorDecimals, formatBalance, formatFiat, formatUnits, shortenAddress } from './format.js'

describe('display helpers', () => {
  it('shortens addresses to 4 leading and 6 trailing characters', () => {
    expect(shortenAddress('0x52908400098527886E0F7030069857D2E4169EE7')).toBe('0x52…169EE7')
    expect(shortenAddress('short')).toBe('short')
  })

  it('floors balances to 3 decimals, never rounding up', () => {
    expect(formatBalance('1.23999')).toBe('1.239')
    expect(formatBalance('0.0009')).toBe('0.000')
    expect(formatBalance('10000')).toBe('10000.000')
    expect(formatBalance('9999.9999999999999999', 'ETH')).toBe('9999.999 ETH')
    expect(formatBalance(1e-7)).toBe('0.000')
    expect(formatBalance(undefined, 'ETH')).toBe('0.000 ETH')
    expect(floorDecimals('-1.2349', 3)).toBe('-1.234')
    expect(floorDecimals('abc', 3)).toBe('0.000')
  })

  it('formats fiat with 2 decimals', () => {
    expect(formatFiat(12.345)).toBe('12.35')
    expect(formatFiat('3')).toBe('3.00')
    expect(formatFiat(1.005, 'USD')).toBe('$1.01')
    expect(formatFiat(2, 'EUR')).toBe('2.00 EUR')
    expect(formatFiat(Number.NaN)).toBe('0.00')
  })
})

describe('formatUnits', () => {
  it('smallest units to an exact decimal string, trailing zeros dropped', () => {
    expect(formatUnits(1500000n, 6)).toBe('1.5')
    expect(formatUnits(10n ** 22n, 18)).toBe('10000')
    expect(formatUnits(1n, 18)).toBe('0.000000000000000001')
    expect(formatUnits(123456789012345678901234567890n, 18)).toBe('123456789012.34567890123456789')
    expect(formatUnits(0n, 18)).toBe('0')
    expect(formatUnits(42n, 0)).toBe('42')
    expect(formatUnits(-2500n, 3)).toBe('-2.5')
  })
})
