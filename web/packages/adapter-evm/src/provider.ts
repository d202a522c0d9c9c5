export type { Eip1193Listener, Eip1193Provider } from '@sigil/core'

/** Parses the chain id a wallet returns (hex string, decimal string or number). */
export function parseChainId(value: unknown): number {
  if (typeof value === 'number') return value
  if (typeof value === 'string') {
    const n = value.startsWith('0x') || value.startsWith('0X') ? parseInt(value, 16) : Number(value)
    if (Number.isSafeInteger(n)) return n
  }
  throw new Error(`Invalid chainId: ${String(value)}`)
}

/** `0x`-prefixed hex chain id, as wallet_* methods take it. */
export function toHexChainId(chainId: number | string): `0x${string}` {
  const n = typeof chainId === 'number' ? chainId : Number(chainId)
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`Invalid chainId: ${chainId}`)
  return `0x${n.toString(16)}`
}

/** UTF-8 text as 0x-hex, the form personal_sign expects. */
export function utf8ToHex(text: string): `0x${string}` {
  let hex = ''
  for (const byte of new TextEncoder().encode(text)) hex += byte.toString(16).padStart(2, '0')
  return `0x${hex}`
}
