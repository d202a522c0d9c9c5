import type { BlockchainClient, Identity } from './api/blockchain.js'
import type { SigilClient } from './client.js'
import type { ConnectionAccount } from './connectors/types.js'
import type { CaipNetwork, ChainNamespace, WalletAsset } from './types.js'

/** A transfer the Account view asks an adapter to send. */
export interface Transfer {
  from: string
  to: string
  /** In the smallest unit. */
  amount: bigint
  /** The token; the network's own currency when absent. */
  token?: { address: string; decimals: number }
  network: CaipNetwork
}

/**
 * What one namespace does with a connected wallet's provider (the connector hands it over):
 * its address rules, switching networks, signing, balances and names. Every ability is
 * optional; core asks whether an adapter has it instead of checking namespaces, so a new
 * namespace is a new adapter and nothing else.
 */
export interface ChainAdapter<Provider = unknown> {
  readonly namespace: ChainNamespace
  /**
   * The namespace's provider made from what a connector handed over, for connectors that reach
   * many kinds of wallet through one protocol and hand a chain-neutral form (WalletConnect: a
   * Wallet Standard wallet for Solana, a Bitcoin backend for bip122). Undefined when the value
   * already is the namespace's provider; without this ability it always is.
   */
  wrapProvider?(handed: unknown, connection: { network: CaipNetwork | undefined; accounts: readonly ConnectionAccount[] }): Provider | undefined
  /** Whether `address` is well-formed here; accounts failing it are not taken from a wallet. */
  isAddress?(address: string): boolean
  /** Moves the wallet to `network`. Without it, switching only changes the modal's active network. */
  switchNetwork?(provider: Provider, network: CaipNetwork): Promise<void>
  /** Signs plain text with `address` (sign-in messages). */
  signMessage?(provider: Provider, message: string, address: string): Promise<string>
  /**
   * The account's assets on `network` as the wallet reports them; undefined when the wallet
   * offers no asset discovery there (balances then come from the Sigil server).
   */
  getAssets?(provider: Provider, address: string, network: CaipNetwork): Promise<WalletAsset[] | undefined>
  /** The account's name and avatar. Without it the account shows its address only. */
  getIdentity?(address: string, api: BlockchainClient): Promise<Identity>
  /** The address as the namespace writes it for people (EIP-55 mixed case for EVM); shown as given without it. */
  displayAddress?(address: string): Promise<string>
  /** How sign-in messages state an account of this namespace: the chain's name and the address's canonical form. */
  signInAccount?(address: string): Promise<{ label: string; address: string }>
  /**
   * Sends `amount` (smallest units) of the network's own currency, or of `token`, from `from` to
   * `to`, and resolves once the chain has it, to the transaction's id. Without it the Account
   * view offers no send.
   */
  sendTransfer?(provider: Provider, transfer: Transfer): Promise<string>
  /** Called once the modal exists, e.g. to keep another library in step with it. Returns a teardown. */
  attach?(client: SigilClient): () => void
}
