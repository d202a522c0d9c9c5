import { rpcUrlOf, UnauthorizedProviderError, type CaipNetwork, type ChainAdapter } from '@sigil/core'
import type { Wallet } from '@wallet-standard/base'
import { isSolanaAddress } from './address.js'
import { encodeBase58 } from './base58.js'
import { createSolanaProvider, type SolanaProvider } from './provider.js'
import { isSolanaWallet, solanaAccounts } from './wallet-standard.js'

/** Whether a connector handed over a Wallet Standard wallet (features and accounts) rather than a provider. */
const isStandardWallet = (value: unknown): value is Wallet =>
  typeof value === 'object' && value !== null && typeof (value as Wallet).features === 'object' && Array.isArray((value as Wallet).accounts)

/** A provider over a Wallet Standard wallet a connector handed over; undefined for anything else. */
export function standardWalletProvider(handed: unknown, network: CaipNetwork | undefined): SolanaProvider | undefined {
  if (!isStandardWallet(handed) || !isSolanaWallet(handed)) return undefined
  const account = () => {
    const [first] = solanaAccounts(handed.accounts)
    // No Solana account shared (any more): the provider is not authorised (4100).
    if (!first) throw new UnauthorizedProviderError()
    return first
  }
  return createSolanaProvider(handed, account, network)
}

/** The solana chain adapter: what Sigil does with a Solana wallet's provider. */
export interface SolanaAdapter extends ChainAdapter<SolanaProvider> {
  readonly namespace: 'solana'
}

/**
 * Solana (solana namespace): base58 address rule, following the modal's network (wallets sign
 * for whichever cluster they are asked), ed25519 message signatures in base58 for sign-in.
 * Balances come from the Sigil server (SOL and SPL tokens); Solana has no names here. Sends SOL
 * and SPL tokens (@solana/kit, loaded on the first send). A connector that hands over a Wallet
 * Standard wallet rather than a provider gets it wrapped in one; over WalletConnect and the
 * embedded wallet's frame, a Wallet Standard wallet over the session (loaded with it) is.
 */
export function solanaAdapter(): SolanaAdapter {
  return {
    namespace: 'solana',
    isAddress: isSolanaAddress,
    wrapProvider: (handed, { network }) => standardWalletProvider(handed, network),
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
    // One signature's base fee; a receiver's new token account (rent) is the runtime's to refuse.
    transferFee: async () => ({ fee: LAMPORTS_PER_SIGNATURE }),
    session: { load: () => import('./session.js').then((m) => m.solanaSession) },
  }
}

/** Solana's base fee: 5000 lamports for each signature (a transfer has one, the sender's). */
export const LAMPORTS_PER_SIGNATURE = 5000n
