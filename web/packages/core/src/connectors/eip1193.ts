/** An EIP-1193 event listener: its arguments depend on the event (accounts, chain id, error). */
// biome-ignore lint/suspicious/noExplicitAny: listeners typed per event (`(accounts: string[]) => void`) must stay assignable
export type Eip1193Listener = (...args: any[]) => void

/** The EIP-1193 surface Sigil uses of a wallet's provider. */
export interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] | Record<string, unknown> }): Promise<unknown>
  on?(event: string, listener: Eip1193Listener): unknown
  removeListener?(event: string, listener: Eip1193Listener): unknown
}

export function isEip1193Provider(value: unknown): value is Eip1193Provider {
  return typeof value === 'object' && value !== null && typeof (value as Eip1193Provider).request === 'function'
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
