import { getBase58Decoder, getBase58Encoder } from '@solana/codecs-strings'

/** Base58 text of `bytes`, as Solana writes addresses and signatures. */
export function encodeBase58(bytes: Uint8Array): string {
  return getBase58Decoder().decode(bytes)
}

/** The bytes of a base58 string; undefined when it has a character outside the alphabet. */
export function decodeBase58(text: string): Uint8Array | undefined {
  try {
    return new Uint8Array(getBase58Encoder().encode(text))
  } catch {
    return undefined
  }
}
