import type { ChainAdapter } from '@sigil/core'
import { isBitcoinAddress } from './address.js'
import type { BitcoinProvider } from './provider.js'

/** The bip122 chain adapter: what Sigil does with a Bitcoin wallet's provider. */
export interface BitcoinAdapter extends ChainAdapter<BitcoinProvider> {
  readonly namespace: 'bip122'
}

export interface BitcoinAdapterOptions {
  /** How sign-in messages are signed: BIP-322 (default) or the legacy ECDSA message signature. */
  signInProtocol?: 'bip322' | 'ecdsa'
}

/**
 * Bitcoin (bip122): address rules (bech32 and base58), following the modal's network, and
 * message signatures (BIP-322 by default, legacy ECDSA on request) for sign-in. Balances come
 * from the Sigil server (Esplora); Bitcoin has no names here.
 */
export function bitcoinAdapter(options: BitcoinAdapterOptions = {}): BitcoinAdapter {
  return {
    namespace: 'bip122',
    isAddress: isBitcoinAddress,
    async switchNetwork(provider, network) {
      provider.useNetwork(network)
    },
    signMessage: (provider, message, address) => provider.signMessage({ address, message, protocol: options.signInProtocol ?? 'bip322' }),
    async signInAccount(address) {
      return { label: 'Bitcoin', address }
    },
  }
}
