/** An EIP-1193 event listener: its arguments depend on the event (accounts, chain id, error). */
// biome-ignore lint/suspicious/noExplicitAny: listeners typed per event (`(accounts: string[]) => void`) must stay assignable
export type Eip1193Listener = (...args: any[]) => void

/** The EIP-1193 surface the adapter uses. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] | Record<string, unknown> }): Promise<unknown>
  on?(event: string, listener: Eip1193Listener): unknown
  removeListener?(event: string, listener: Eip1193Listener): unknown
}

/** EIP-6963 provider info. */
export interface ProviderInfo {
  uuid: string
  name: string
  icon: string
  rdns: string
}

/** `0x`-prefixed hex chain id, as wallet_* methods take it. */
export function toHexChainId(chainId: number | string): `0x${string}` {
  const n = typeof chainId === 'number' ? chainId : Number(chainId)
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`Invalid chainId: ${chainId}`)
  return `0x${n.toString(16)}`
}

/** Parses the chain id a wallet returns (hex string, decimal string or number). */
export function parseChainId(value: unknown): number {
  if (typeof value === 'number') return value
  if (typeof value === 'string') {
    const n = value.startsWith('0x') || value.startsWith('0X') ? parseInt(value, 16) : Number(value)
    if (Number.isSafeInteger(n)) return n
  }
  throw new Error(`Invalid chainId: ${String(value)}`)
}

/** UTF-8 text as 0x-hex, the form personal_sign expects. */
export function utf8ToHex(text: string): `0x${string}` {
  let hex = ''
  for (const byte of new TextEncoder().encode(text)) hex += byte.toString(16).padStart(2, '0')
  return `0x${hex}`
}
