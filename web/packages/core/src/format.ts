/** Address shortened to its 4 leading and 6 trailing characters: `0x12…abcdef`. */
export function shortenAddress(address: string, leading = 4, trailing = 6): string {
  if (address.length <= leading + trailing + 1) return address
  return `${address.slice(0, leading)}…${address.slice(-trailing)}`
}

/**
 * Splits a decimal string into integer and fraction digits. Strings, not numbers, so that
 * balances of 18-decimal tokens are not rounded by floating point.
 */
function splitDecimal(value: string): { negative: boolean; integer: string; fraction: string } | undefined {
  const match = /^(-)?(\d*)(?:\.(\d*))?$/.exec(value.trim())
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return undefined
  return { negative: match[1] === '-', integer: (match[2] || '0').replace(/^0+(?=\d)/, ''), fraction: match[3] ?? '' }
}

/** An integer amount in the smallest unit as a decimal string: (1500000n, 6) -> '1.5'. */
export function formatUnits(value: bigint, decimals: number): string {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(decimals + 1, '0')
  const integer = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${integer}${fraction ? `.${fraction}` : ''}`
}

/** Decimal string floored (towards zero) to `decimals` places, trailing zeros kept: '1.23456' -> '1.234'. */
export function floorDecimals(value: string | number, decimals: number): string {
  const text = typeof value === 'number' ? toPlainString(value) : value
  const parts = splitDecimal(text)
  if (!parts) return (0).toFixed(decimals)
  const fraction = parts.fraction.slice(0, decimals).padEnd(decimals, '0')
  const isZero = /^0*$/.test(parts.integer + fraction)
  const sign = parts.negative && !isZero ? '-' : ''
  return decimals > 0 ? `${sign}${parts.integer}.${fraction}` : `${sign}${parts.integer}`
}

/** Numbers printed without exponent notation, so 1e-7 floors to 0.000 rather than failing to parse (text to compute on, not to show: always en-US). */
function toPlainString(value: number): string {
  if (!Number.isFinite(value)) return '0'
  return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 })
}

/** Balance as displayed: floored to 3 decimals (spec section 5), with the symbol when given. */
export function formatBalance(value: string | number | undefined, symbol?: string): string {
  const amount = floorDecimals(value ?? '0', 3)
  return symbol ? `${amount} ${symbol}` : amount
}

/** A fiat amount as decimal text with 2 decimals, rounded half up: 12.345 -> '12.35'. */
export function roundFiat(value: number | string): string {
  const amount = typeof value === 'string' ? Number(value) : value
  // Shifting the decimal point in text avoids 1.005 * 100 === 100.49999….
  return Number.isFinite(amount) ? (Math.round(Number(`${toPlainString(amount)}e2`)) / 100).toFixed(2) : '0.00'
}

/** Fiat amount with 2 decimals, rounded half up: 12.345 -> '12.35' (English; the modal writes it for its locale with `formatMoney` of ./i18n.ts). */
export function formatFiat(value: number | string, currency?: string): string {
  const text = roundFiat(value)
  return currency === 'USD' ? `$${text}` : currency ? `${text} ${currency}` : text
}
