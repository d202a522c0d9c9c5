/*
 * EIP-55 checksums, for sign-in messages. Loaded on demand (the adapter imports it with
 * import()), so the keccak code stays out of the host page's first load.
 */
import { keccak_256 } from '@noble/hashes/sha3'

/** The EIP-55 mixed-case form of an EVM address (input with or without 0x, any case). */
export function toChecksumAddress(address: string): string {
  const hex = address.replace(/^0x/i, '').toLowerCase()
  if (!/^[0-9a-f]{40}$/.test(hex)) throw new Error(`Invalid EVM address: ${address}`)
  const hash = keccak_256(new TextEncoder().encode(hex))
  let out = '0x'
  for (let i = 0; i < 40; i++) {
    const byte = hash[i >> 1] as number
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f
    const c = hex[i] as string
    out += nibble >= 8 ? c.toUpperCase() : c
  }
  return out
}
