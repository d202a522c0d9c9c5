/** Chain namespaces the modal knows (CAIP-2 namespace part). */
export type ChainNamespace = 'eip155' | 'solana' | 'polkadot' | 'bip122' | 'cosmos'

/** CAIP-2 chain id, e.g. `eip155:1`. */
export type CaipNetworkId = `${ChainNamespace}:${string}`

/** CAIP-10 account id, e.g. `eip155:1:0xabc…`. */
export type CaipAddress = `${ChainNamespace}:${string}:${string}`

export interface NativeCurrency {
  name: string
  symbol: string
  decimals: number
}

export interface RpcUrls {
  http: readonly string[]
  webSocket?: readonly string[]
}

export interface BlockExplorer {
  name: string
  url: string
}

/** A network as the modal sees it (spec section 3). */
export interface CaipNetwork {
  /** Chain reference: a number for EVM chains, the genesis-hash prefix otherwise. */
  id: number | string
  caipNetworkId: CaipNetworkId
  chainNamespace: ChainNamespace
  name: string
  nativeCurrency: NativeCurrency
  rpcUrls: { default: RpcUrls; chainDefault?: RpcUrls }
  blockExplorers?: { default: BlockExplorer; [name: string]: BlockExplorer }
  testnet: boolean
  assets?: { imageId?: string; imageUrl?: string }
}

export type ConnectionStatus = 'disconnected' | 'connecting' | 'connected'

/** Account kinds (spec section 3); Bitcoin wallets also give an 'ordinal' address for inscriptions. */
export type AccountType = 'eoa' | 'smartAccount' | 'payment' | 'ordinal'

export interface TokenBalance {
  name: string
  symbol: string
  chainId: string
  address?: string
  value?: number
  price: number
  quantity: { decimals: string; numeric: string }
  iconUrl: string
}

/** An asset as a wallet lists it (ERC-7811): the chain's own currency has no address. */
export interface WalletAsset {
  address?: string
  /** In the smallest unit. */
  balance: bigint
  decimals: number
  name: string
  symbol: string
}

export interface ConnectedWalletInfo {
  name: string
  icon?: string
  rdns?: string
  [key: string]: unknown
}

/** Account state of one namespace (spec section 3). */
export interface AccountState {
  caipAddress: CaipAddress | undefined
  address: string | undefined
  status: ConnectionStatus
  balance: string | undefined
  balanceSymbol: string | undefined
  profileName: string | undefined
  profileImage: string | undefined
  addressExplorerUrl: string | undefined
  user: { email?: string; username?: string } | undefined
  tokenBalance: TokenBalance[]
  smartAccountDeployed: boolean
  /** Every account of this namespace the connection yielded; the first is `address`. */
  allAccounts: { address: string; type: AccountType }[]
  addressLabels: Record<string, string>
  connectedWalletInfo: ConnectedWalletInfo | undefined
  preferredAccountTypes: Partial<Record<ChainNamespace, AccountType>>
  socialProvider: string | undefined
  farcasterUrl: string | undefined
  publicKey: string | undefined
  path: string | undefined
}

/** Network state of one namespace (spec section 3). */
export interface NetworkState {
  caipNetwork: CaipNetwork | undefined
  requestedCaipNetworkIds: CaipNetworkId[]
  approvedCaipNetworkIds: CaipNetworkId[]
  supportsAllNetworks: boolean
  smartAccountEnabledNetworks: number[]
}

export type ConnectorType = 'ANNOUNCED' | 'INJECTED' | 'WALLET_CONNECT' | 'AUTH' | 'EXTERNAL' | 'MULTI_CHAIN'

/** A way to connect that is present in this page (spec section 3), as the views list it. */
export interface Connector {
  id: string
  name: string
  /** The connector's main namespace. */
  chain: ChainNamespace
  /** Every namespace one connection through it can yield accounts in (`chain` among them). */
  namespaces: readonly ChainNamespace[]
  type: ConnectorType
  imageUrl?: string
  /** Directory wallet id, when known. */
  explorerId?: string
  /** EIP-6963 reverse-DNS name. */
  rdns?: string
}

/** How a wallet is injected into pages, as the directory describes it. */
export interface WalletInjection {
  namespace: string
  injected_id: string
}

/** A wallet record of the directory API. */
export interface Wallet {
  id: string
  name: string
  image_id: string
  image_url?: string
  rdns?: string | null
  homepage?: string | null
  mobile_link?: string | null
  desktop_link?: string | null
  webapp_link?: string | null
  app_store?: string | null
  play_store?: string | null
  chrome_store?: string | null
  injected?: WalletInjection[]
  chains?: string[]
  order?: number | null
}
