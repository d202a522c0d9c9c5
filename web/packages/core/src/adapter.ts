import type { CaipNetwork, ChainNamespace, ConnectedWalletInfo, Connector, WalletAsset } from './types.js'

/** What an adapter reports after connecting or reconnecting. */
export interface ConnectResult {
  connectorId: string
  address: string
  /** Chain reference as the wallet reports it (a number for EVM chains). */
  chainId: number | string
  walletInfo?: ConnectedWalletInfo
}

/** Wallet-side happenings an adapter feeds back into the controllers. */
export interface AdapterEvents {
  connectorsChanged(connectors: Connector[]): void
  /** The wallet's selected account changed; undefined means it exposes none any more. */
  accountChanged(address: string | undefined): void
  chainChanged(chainId: number | string): void
  disconnected(): void
}

/**
 * One namespace's wallet integration (EVM extensions, Solana, …). Balances come from the wallet
 * where it can list its assets (getAssets), else from the Sigil server; names from the server.
 */
export interface ChainAdapter {
  readonly namespace: ChainNamespace
  /** Starts connector discovery and wallet event listening. Returns a teardown. */
  setup(events: AdapterEvents): () => void
  /** Asks the wallet to connect (prompts the user). */
  connect(connectorId: string, options?: { network?: CaipNetwork }): Promise<ConnectResult>
  /** Restores a previous connection without prompting; undefined when the wallet won't. */
  reconnect(connectorId: string): Promise<ConnectResult | undefined>
  disconnect(): Promise<void>
  switchNetwork(network: CaipNetwork): Promise<void>
  signMessage(message: string, address: string): Promise<string>
  /**
   * The account's assets on `network` as the connected wallet reports them (ERC-7811
   * wallet_getAssets); undefined when the wallet offers no asset discovery there.
   */
  getAssets?(address: string, network: CaipNetwork): Promise<WalletAsset[] | undefined>
}
