import { decodeBase58 } from './base58.js'

/** Spec section 5: a Solana address is base58, 32 to 44 characters (and here: 32 bytes once decoded). */
export function isSolanaAddress(address: string): boolean {
  if (address.length < 32 || address.length > 44) return false
  return decodeBase58(address)?.length === 32
}
