import { rpcUrlOf, type ChainAdapter } from '@sigil/core'
import { isSolanaAddress } from './address.js'
import { encodeBase58 } from './base58.js'
import type { SolanaProvider } from './provider.js'

/** The solana chain adapter: what Sigil does with a Solana wallet's provider. */
export interface SolanaAdapter extends ChainAdapter<SolanaProvider> {
  readonly namespace: 'solana'
}

/**
 * Solana (solana namespace): base58 address rule, following the modal's network (wallets sign
 * for whichever cluster they are asked), ed25519 message signatures in base58 for sign-in.
 * Balances come from the Sigil server (SOL and SPL tokens); Solana has no names here. Sends SOL
 * and SPL tokens (@solana/kit, loaded on the first send).
 */
export function solanaAdapter(): SolanaAdapter {
  return {
    namespace: 'solana',
    isAddress: isSolanaAddress,
    async switchNetwork(provider, network) {
      provider.useNetwork(network)
    },
    async signMessage(provider, message) {
      return encodeBase58(await provider.signMessage(message))
    },
    async signInAccount(address) {
      return { label: 'Solana', address }
    },
    async sendTransfer(provider, { to, amount, token, network }) {
      const rpcUrl = rpcUrlOf(network)
      if (!rpcUrl) throw new Error(`${network.name} has no RPC URL`)
      const { sendSolanaTransfer } = await import('./send.js')
      return sendSolanaTransfer(provider, { to, amount, rpcUrl, ...(token ? { token } : {}) })
    },
  }
}
