/** EVM address: 40 hex characters, optional 0x prefix (spec section 5). */
export function isEvmAddress(value: string): boolean {
  return /^(0x)?[0-9a-fA-F]{40}$/.test(value)
}
