import { UnsupportedChainError, type CaipNetwork, type ChainAdapter, type ConnectionAccount } from '@sigil/core'
import { isBitcoinAddress } from './address.js'
import { bitcoinProvider, orderedAccounts, type BitcoinBackend } from './connector.js'
import type { BitcoinAccount, BitcoinProvider } from './provider.js'

/** Whether a connector handed over a Bitcoin backend (WalletConnect does) rather than a provider. */
const isBackend = (value: unknown): value is BitcoinBackend => {
  const v = value as Partial<BitcoinBackend & BitcoinProvider> | null
  return typeof v === 'object' && v !== null && typeof v.signPsbt === 'function' && typeof v.accounts === 'function' && typeof v.info === 'object'
}

/**
 * A provider over a Bitcoin backend a connector handed over, over the connection's accounts and
 * following the backend's account changes; undefined for anything else.
 */
export function backendProvider(handed: unknown, network: CaipNetwork | undefined, connected: readonly ConnectionAccount[]): BitcoinProvider | undefined {
  if (!isBackend(handed)) return undefined
  let accounts = orderedAccounts(connected.map((a): BitcoinAccount => ({ address: a.address, purpose: a.type === 'ordinal' ? 'ordinals' : 'payment' })))
  // The backend's account changes (the connector reports them to the modal itself).
  handed.watch?.((next) => {
    accounts = orderedAccounts(next)
  })
  return bitcoinProvider(handed, () => accounts, network)
}

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
 * from the Sigil server (Esplora); Bitcoin has no names here. A connector that hands over a
 * Bitcoin backend rather than a provider gets it wrapped in one; over WalletConnect, a backend
 * over the session (loaded with it) is.
 */
export function bitcoinAdapter(options: BitcoinAdapterOptions = {}): BitcoinAdapter {
  return {
    namespace: 'bip122',
    isAddress: isBitcoinAddress,
    wrapProvider: (handed, { network, accounts }) => backendProvider(handed, network, accounts),
    async switchNetwork(provider, network) {
      provider.useNetwork(network)
    },
    signMessage: (provider, message, address) => provider.signMessage({ address, message, protocol: options.signInProtocol ?? 'bip322' }),
    // A payment in bitcoin where the wallet can make one itself (it picks the inputs and the fee).
    sendsWith: (provider) => typeof provider?.sendTransfer === 'function',
    sendTransfer(provider, { to, amount, token }) {
      if (token || !provider.sendTransfer) throw new UnsupportedChainError('bip122')
      return provider.sendTransfer({ to, amount })
    },
    async signInAccount(address) {
      return { label: 'Bitcoin', address }
    },
    session: { load: () => import('./session.js').then((m) => m.bitcoinSession) },
  }
}
