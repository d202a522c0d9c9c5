export { decodeBase58, encodeBase58 } from '@sigil/core/base58'
