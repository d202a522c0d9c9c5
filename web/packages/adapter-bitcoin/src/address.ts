/** Bitcoin networks by CAIP-2 reference (the genesis block hash's first 32 hex digits). */
export const BITCOIN_MAINNET = '000000000019d6689c085ae165831e93'
export const BITCOIN_TESTNET = '000000000933ea01ad0ee984209779ba'
export const BITCOIN_REGTEST = '0f9188f13cb7b2c71f2a335e3a4fc328'

export type BitcoinNetworkName = 'mainnet' | 'testnet' | 'regtest'

const BECH32 = /^(bc|tb|bcrt)1[02-9ac-hj-np-z]{8,87}$/
const BASE58 = /^[123mn][1-9A-HJ-NP-Za-km-z]{25,34}$/

/**
 * Whether `address` is a Bitcoin address (spec section 3, bip122 accounts): bech32/bech32m
 * (bc1, tb1, bcrt1, lower case) or base58 P2PKH/P2SH (1, 3, m, n, 2). The wallet that gave it
 * and the server's verification check the rest (checksums).
 */
export function isBitcoinAddress(address: string): boolean {
  return BECH32.test(address) || BASE58.test(address)
}

/** Which network an address belongs to, by its prefix. */
export function addressNetwork(address: string): BitcoinNetworkName | undefined {
  if (!isBitcoinAddress(address)) return undefined
  if (address.startsWith('bcrt1')) return 'regtest'
  if (address.startsWith('bc1') || /^[13]/.test(address)) return 'mainnet'
  return 'testnet'
}

/** The CAIP-2 reference of a network name. */
export const referenceOf = (name: BitcoinNetworkName): string => (name === 'mainnet' ? BITCOIN_MAINNET : name === 'regtest' ? BITCOIN_REGTEST : BITCOIN_TESTNET)

/** The kind of address, as wallets report it. */
export function addressType(address: string): 'p2wpkh' | 'p2tr' | 'p2wsh' | 'p2sh' | 'p2pkh' | undefined {
  const bech = /^(bc|tb|bcrt)1([02-9ac-hj-np-z]+)$/.exec(address)
  if (bech) {
    const body = bech[2] as string
    if (body.startsWith('p')) return 'p2tr'
    if (body.startsWith('q')) return body.length === 39 ? 'p2wpkh' : 'p2wsh'
    return undefined
  }
  if (/^[13mn2]/.test(address)) return /^[1mn]/.test(address) ? 'p2pkh' : 'p2sh'
  return undefined
}
