import type { CaipNetwork } from '@sigil/core'

/** Wallet Standard chain names of the public clusters, by CAIP-2 reference (the genesis-hash prefix). */
const CLUSTERS: Record<string, SolanaChain> = {
  '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'solana:mainnet',
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1: 'solana:devnet',
  '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': 'solana:testnet',
}

/** A Wallet Standard Solana chain ('solana:mainnet', 'solana:devnet', 'solana:testnet', 'solana:localnet'). */
export type SolanaChain = `solana:${string}`

/** The Wallet Standard chain a network is known by in wallets: any cluster not public is 'solana:localnet'. */
export function standardChain(network: Pick<CaipNetwork, 'id'>): SolanaChain {
  return CLUSTERS[String(network.id)] ?? 'solana:localnet'
}

export const isSolanaChain = (chain: string): chain is SolanaChain => chain.startsWith('solana:')
