/*
 * Connectors: how a wallet is reached (a family's own wallets in the page, found by its adapter;
 * WalletConnect and the embedded wallet's frame, transports serving several families). A
 * connector knows nothing of what a namespace does with its provider: that is the chain
 * adapters' part.
 */
import type { AccountType, CaipNetwork, ChainNamespace, ConnectedWalletInfo, Connector } from '../types.js'
import type { SessionFamilies } from './transport.js'

/** One account a connection yielded. */
export interface ConnectionAccount {
  namespace: ChainNamespace
  address: string
  type: AccountType
  /** Chain reference as the wallet reports it (a number for EVM chains). */
  chainId: number | string
}

/** What connecting yields (spec section 3 "Connection"): accounts in one or more namespaces. */
export interface Connection {
  connectorId: string
  /** In the wallet's order; the first account of each namespace is that namespace's active one. */
  accounts: ConnectionAccount[]
  walletInfo?: ConnectedWalletInfo
  /** An embedded wallet's login: its email, and the social provider and username it came through. */
  user?: { email?: string; username?: string }
  socialProvider?: string
  /** The embedded wallet's chains (numeric ids) where it offers a smart account (the frame's GET_SMART_ACCOUNT_ENABLED_NETWORKS). */
  smartAccountEnabledNetworks?: number[]
}

export interface ConnectParams {
  /** The namespaces to connect: those the host configured networks and an adapter for. */
  namespaces: readonly ChainNamespace[]
  /** The host's networks, for connectors that ask for their chains up front (a WalletConnect session). */
  networks: readonly CaipNetwork[]
}

/** What happens on the wallet's side, per namespace. */
export type ConnectorEvent =
  | { type: 'accountsChanged'; namespace: ChainNamespace; accounts: string[] }
  | { type: 'chainChanged'; namespace: ChainNamespace; chainId: number | string }
  /** The wallet ended the connection: for one namespace, or all when none is named. */
  | { type: 'disconnect'; namespace?: ChainNamespace }

/** A way to reach one wallet. */
export interface WalletConnector {
  /** How the views list it. */
  readonly info: Connector
  /** Asks the wallet to connect (prompts the user). */
  connect(params: ConnectParams): Promise<Connection>
  /** Restores a connection without prompting; undefined when the wallet no longer allows it. */
  reconnect(params: ConnectParams): Promise<Connection | undefined>
  /** Ends the connection (the namespace's part only, for connectors that can). */
  disconnect(namespace?: ChainNamespace): Promise<void>
  /** The provider for `namespace` while connected (EIP-1193 for eip155); undefined otherwise. */
  getProvider(namespace: ChainNamespace): unknown
  /** Wallet-side events. Returns an unsubscribe. */
  subscribe(listener: (event: ConnectorEvent) => void): () => void
}

/** What the modal tells a connector source when it starts watching. */
export interface ConnectorSourceContext {
  /** The session capabilities of the host's chain adapters, for transports that serve several families. */
  families: SessionFamilies
}

/** Finds connectors in the page (e.g. EIP-6963 announcements) as they appear. */
export interface ConnectorSource {
  /** Starts looking; `onChange` gets the source's full list on each change. Returns a stop. */
  watch(onChange: (connectors: WalletConnector[]) => void, context?: ConnectorSourceContext): () => void
}
