export { parseChainId, type Eip1193Listener, type Eip1193Provider } from '@sigil/core'

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
