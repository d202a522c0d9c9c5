/** An EIP-1193 event listener: its arguments depend on the event (accounts, chain id, error). */
// biome-ignore lint/suspicious/noExplicitAny: listeners typed per event (`(accounts: string[]) => void`) must stay assignable
export type Eip1193Listener = (...args: any[]) => void

/** The EIP-1193 surface of an EVM wallet's provider, as `useAppKitProvider('eip155')` gives it. */
export interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] | Record<string, unknown> }): Promise<unknown>
  on?(event: string, listener: Eip1193Listener): unknown
  removeListener?(event: string, listener: Eip1193Listener): unknown
}

export function isEip1193Provider(value: unknown): value is Eip1193Provider {
  return typeof value === 'object' && value !== null && typeof (value as Eip1193Provider).request === 'function'
}
