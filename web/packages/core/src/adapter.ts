import type { BlockchainClient, Identity } from './features/account/blockchain.js'
import type { SigilClient } from './client.js'
import type { SessionTransport } from './connectors/transport.js'
import type { ConnectionAccount, ConnectorSource } from './connectors/types.js'
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
  /** EVM: the gas terms of the fee the send was checked against (its quote); the transaction carries them. */
  gas?: GasTerms
  /** Called with the hash once the wallet has sent the transaction, before its receipt (the Activity tab's pending entry). */
  onSubmitted?: ((hash: string) => void) | undefined
}

/** An NFT the Account view asks an adapter to send: an ERC-721 token, or an amount of an ERC-1155 one. */
export interface NftTransfer {
  from: string
  to: string
  /** The token's contract. */
  contract: string
  tokenId: bigint
  standard: 'erc721' | 'erc1155'
  /** How many: 1 for an ERC-721. */
  amount: bigint
  network: CaipNetwork
  /** The gas terms of the fee the send was checked against (its quote); the transaction carries them. */
  gas?: GasTerms
  /** As Transfer's: called with the hash before the receipt. */
  onSubmitted?: ((hash: string) => void) | undefined
}

/** An EVM transaction's gas: its limit, and its fee caps (EIP-1559) or its price (legacy). */
export interface GasTerms {
  limit: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
  gasPrice?: bigint
}

/** What a transfer's fee may come to, in the network's own currency (smallest units), and the gas terms that bound it. */
export interface TransferFee {
  /** The most the fee can be: what the native balance keeps back. */
  fee: bigint
  gas?: GasTerms
}

/** One contract call of a batch (a swap's approve, then the swap): sent from the batch's account. */
export interface Call {
  to: string
  /** Hex call data. */
  data: string
  /** The network's own currency sent with it, in the smallest unit; none when absent. */
  value?: bigint
  /**
   * Its gas limit, when known (a swap's, from the server): sent as its own transaction, it
   * carries it rather than the wallet's estimate, which a first swap through a pool can exceed.
   */
  gas?: bigint
}

/** Calls sent in order from `from` on `network`. */
export interface CallBatch {
  from: string
  network: CaipNetwork
  calls: readonly Call[]
  /**
   * One atomic batch (EIP-5792 `wallet_sendCalls`, one confirmation) rather than one
   * transaction after the other: only when `atomic` said the wallet can.
   */
  atomic: boolean
  /** Called with the hash of the last call's transaction once the wallet has sent it, before its receipt. */
  onSubmitted?: ((hash: string) => void) | undefined
}

/** The calls capability: what contract calls from the connected account need (a swap's), loaded on first use. */
export interface CallsCapability<Provider = unknown> {
  load(): Promise<FamilyCalls<Provider>>
}

/** A call as a host app gives it (EIP-5792): the contract, hex call data and the native value sent with it. */
export interface HostCall {
  to: string
  data?: string
  /** In the smallest unit; none when absent. */
  value?: bigint
}

/** A `wallet_sendCalls` request (EIP-5792 2.0.0) as a family sends it to the wallet. */
export interface CallsRequest {
  from: string
  /** The chain, hex (EIP-5792's form: 0x1). */
  chainId: string
  calls: readonly HostCall[]
  atomicRequired: boolean
  /** The host's own bundle id, when it gave one. */
  id?: string
  capabilities?: Record<string, unknown>
}

/** One receipt of a bundle's status (EIP-5792), hex quantities. */
export interface CallsReceipt {
  logs: { address: string; data: string; topics: string[] }[]
  /** '0x1' success, '0x0' reverted. */
  status: string
  blockHash: string
  blockNumber: string
  gasUsed: string
  transactionHash: string
}

/** A bundle's status as `wallet_getCallsStatus` answers (EIP-5792 2.0.0). */
export interface CallsStatus {
  version: string
  id: string
  chainId: string
  /** 100 pending, 200 confirmed, 400 refused off chain, 500 reverted, 600 partly reverted. */
  status: number
  atomic: boolean
  receipts?: CallsReceipt[]
  capabilities?: Record<string, unknown>
}

/** What a wallet says it can do, by hex chain id ('0x0': on every chain), by capability (EIP-5792). */
export type WalletCapabilities = Record<string, Record<string, unknown>>

/** A family's way of sending contract calls (see CallsCapability). */
export interface FamilyCalls<Provider = unknown> {
  /** Whether the wallet can send calls on `network` as one atomic batch (EIP-5792 capabilities: atomic `supported` or `ready`). */
  atomic(provider: Provider, from: string, network: CaipNetwork): Promise<boolean>
  /**
   * Sends the batch's calls in order, as one atomic batch when `batch.atomic`, else each as its
   * own transaction once the one before it is on chain; resolves once the chain has the last,
   * to its transaction's hash. A reverted call rejects as a revert (code 3).
   */
  send(provider: Provider, batch: CallBatch): Promise<string>
  /** The wallet's capabilities (`wallet_getCapabilities`) for `address` on `chainIds` (hex), as it answers; rejects when it cannot. */
  capabilities?(provider: Provider, address: string, chainIds?: readonly string[]): Promise<WalletCapabilities>
  /** Hands the bundle to the wallet (`wallet_sendCalls`); resolves to the wallet's answer: the bundle's id and capabilities. */
  sendBundle?(provider: Provider, request: CallsRequest): Promise<{ id: string; capabilities?: Record<string, unknown> }>
  /** The status of a bundle the wallet sent (`wallet_getCallsStatus`). */
  bundleStatus?(provider: Provider, id: string): Promise<CallsStatus>
  /**
   * Sends one call from `from` as its own transaction, its hash to `onSubmitted` once the wallet
   * accepted it; resolves once the chain has it (rejects as a revert, code 3).
   */
  sendCall?(provider: Provider, from: string, call: HostCall, options?: { onSubmitted?: (hash: string) => void }): Promise<string>
  /** A transaction's receipt, undefined while the chain does not have it. */
  receipt?(provider: Provider, hash: string): Promise<CallsReceipt | undefined>
}

/**
 * A chain family (one CAIP namespace): the one place that knows what the family's wallets are
 * and do. Every ability is optional and callers ask whether it is there (wagmi's connectors are
 * the model), so a new family is a new adapter and nothing else. Two kinds:
 *   - abilities over a connected wallet's provider (the connector hands it over): address rules,
 *     switching networks, signing, balances, names, sending;
 *   - capability groups of the family as a whole: `connectors` (where the page's wallets of the
 *     family are found) and `session` (how a chain-neutral transport, a WalletConnect session or
 *     the embedded wallet's frame, reaches the family's wallet: the family's provider over it).
 */
export interface ChainAdapter<Provider = unknown> {
  readonly namespace: ChainNamespace

  // --- abilities over a connected wallet's provider ----------------------------------------

  /**
   * The namespace's provider made from the family's standard wallet object a connector handed
   * over (a Wallet Standard wallet for Solana, a backend for Bitcoin). Undefined when the value
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
  /**
   * Sends an NFT from `from` to `to` (ERC-721 `safeTransferFrom`, ERC-1155 `safeTransferFrom`
   * with an amount) and resolves once the chain has it, to the transaction's id. Without it the
   * Account view lists no NFTs.
   */
  sendNft?(provider: Provider, transfer: NftTransfer): Promise<string>
  /** About what sending the NFT costs in the network's own currency (as `transferFee`); undefined when it cannot say. */
  nftTransferFee?(provider: Provider, transfer: NftTransfer): Promise<TransferFee | undefined>
  /** Whether the connected wallet can send (some of a family's wallets cannot; none is connected: undefined); taken as yes without it. */
  sendsWith?(provider: Provider | undefined): boolean
  /**
   * About what sending `transfer` costs in the network's own currency (smallest units), kept
   * back when the balance is checked before signing; undefined when it cannot say.
   */
  transferFee?(provider: Provider, transfer: Transfer): Promise<TransferFee | undefined>
  /**
   * The address `name` (an ENS-style name) gives `network`, for that network's coin type only;
   * undefined when it gives none. Without it a send's receiver must be an address.
   */
  resolveName?(name: string, network: CaipNetwork, api: BlockchainClient): Promise<string | undefined>
  /**
   * Contract calls from the connected account (the swap feature's approve and swap), loaded
   * with the first swap. Without it the Account view offers no swap.
   */
  calls?: CallsCapability<Provider>
  /** Called once the modal exists, e.g. to keep another library in step with it. Returns a teardown. */
  attach?(client: SigilClient): () => void

  // --- capability groups of the family -----------------------------------------------------

  /**
   * Where the page's wallets of this family are found (EVM: EIP-6963 announcements and
   * `window.ethereum`). The modal gathers these from its adapters when the host gives no
   * `connectors` of its own.
   */
  connectors?(): ConnectorSource
  /** How a chain-neutral transport (WalletConnect, the embedded wallet's frame) reaches this family. */
  session?: SessionCapability<Provider>
}

/** The session capability: what a chain-neutral transport needs of a family, loaded with the transport. */
export interface SessionCapability<Provider = unknown> {
  /** The family's session code: loaded with the transport's own, never with the page. */
  load(): Promise<FamilySession<Provider>>
}

/** A family's part of a session (see SessionCapability). */
export interface FamilySession<Provider = unknown> {
  /** The methods and events a WalletConnect proposal asks the wallet to allow in this namespace. */
  readonly methods: readonly string[]
  readonly events: readonly string[]
  /**
   * The session's accounts in this namespace, read from its CAIP-10 accounts, in the order the
   * modal should take them (the first is the active one); account types are the family's.
   */
  accounts(transport: SessionTransport): ConnectionAccount[]
  /** Asked once when a new session is approved, before its accounts are read (what each address is for). */
  prepare?(transport: SessionTransport): Promise<void>
  /** The family's provider over the transport, starting on `network` with the connection's accounts. */
  open(transport: SessionTransport, start: { network: CaipNetwork | undefined; accounts: readonly ConnectionAccount[] }): SessionBinding<Provider>
}

/** What a wallet event moved a namespace to: other accounts, or another chain. */
export type FamilyEvent = { accounts: string[] } | { chainId: number | string }

/** A family's provider over a live session, and how the family reads the session's events. */
export interface SessionBinding<Provider = unknown> {
  readonly provider: Provider
  /**
   * A wallet event (WalletConnect's session_event; `chainId` the CAIP-2 chain it names, if any):
   * what it moves this namespace to, or undefined when it is not this family's event.
   */
  event?(name: string, data: unknown, chainId: string | undefined): FamilyEvent | undefined
  /** The session's accounts changed (WalletConnect's session_update): the addresses this namespace now has. */
  update?(): string[]
  /** Changes made through the provider itself (a chain switched through it). Returns an unsubscribe. */
  subscribe?(listener: (event: FamilyEvent) => void): () => void
  /** The session ended: by the wallet (`reason` given), or by signing out. */
  end?(reason?: { code: number; message: string }): void
}
