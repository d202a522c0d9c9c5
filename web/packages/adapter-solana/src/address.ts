import { isAddress } from '@solana/addresses'

/** Spec section 5: a Solana address is base58, 32 to 44 characters (and here: 32 bytes once decoded). */
export function isSolanaAddress(address: string): boolean {
  return isAddress(address)
}
