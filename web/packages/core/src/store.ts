import { createStore, type StoreApi } from 'zustand/vanilla'
import type { ResolvedOptions, ThemeMode, ThemeVariables } from './options.js'
import type { ActivityState } from './features/activity/state.js'
import type { LoginState } from './features/login/state.js'
import type { Nft, NftsState } from './features/nfts/state.js'
import type { SiwxState } from './features/siwx/types.js'
import type { SwapToken } from './features/swap/api.js'
import type { Money } from './features/onramp/api.js'
import type { AccountState, CaipNetwork, ChainNamespace, ConnectionStatus, Connector, ConnectorType, NetworkState, Wallet } from './types.js'

/**
 * Every view of the modal (spec section 2, plus the Networks list and the embedded wallet's
 * views) and what each carries: `pushView(store, 'ConnectingExternal', { connector })` is
 * checked against this. Grouped by the feature that declares the view in the modal's registry
 * (react/src/modal/features/<name>/views.ts); a view is named here when its feature exists.
 */
export interface ViewParams {
  // connect
  Connect: undefined
  AllWallets: undefined
  /** For a visitor without a wallet: wallets to install, each with its store link. */
  GetWallet: undefined
  ConnectingWalletConnectBasic: undefined
  /** A directory wallet the page has no connector for. */
  ConnectingWalletConnect: { wallet: Wallet }
  /**
   * The page connector to connect with, and the directory wallet it stands for when known;
   * `also`: the same wallet's connectors for other chain families, connected after `connector`.
   */
  ConnectingExternal: { connector: Connector; wallet?: Wallet; also?: Connector[] }
  // account
  Account: undefined
  Networks: undefined
  UnsupportedChain: undefined
  // receive
  /** The active account's address as a QR code and text, its network, and the host's networks of the same family. */
  WalletReceive: undefined
  // social (login)
  /**
   * A social login: `popup`, the window opened in the click (null when the browser blocked it;
   * absent on mobile, where the login takes the whole page); `returnUri`, the page URL a
   * full-page login came back to, to finish it.
   */
  ConnectingSocial: { provider: string; popup?: Window | null; returnUri?: string }
  /** Every social login the host turned on, when more than the Connect view shows. */
  ConnectSocials: undefined
  /** Sign In With Farcaster: a QR code and a link for the Farcaster app. */
  ConnectingFarcaster: undefined
  // email (login, the embedded wallet)
  /** The embedded wallet's email login: the emailed 6-digit code. */
  EmailVerifyOtp: { email: string }
  /** The embedded wallet's email login: approve this device from the email first. */
  EmailVerifyDevice: { email: string }
  /** The embedded wallet's email change: the new address, then a code to each address. */
  UpdateEmail: undefined
  /** The embedded wallet's private keys, shown by the frame itself after a fresh email code. */
  ExportKey: undefined
  /** The embedded wallet's approval of a request, shown by the frame itself. */
  ApproveTransaction: undefined
  // siwx
  SIWXSignMessage: undefined
  /** Sign-in for a host's older `siweConfig`: the SIWXSignMessage view under the spec's other name. */
  ConnectingSiwe: undefined
  // send
  /** The send form: a token (`token`, its key: address or 'native'), an amount and a receiver; kept when the user goes back from a later step. */
  WalletSend: { token?: string; amount?: string; to?: string }
  /** Choosing the token to send, for the form below it in the history. */
  WalletSendSelectToken: undefined
  /** What a send will do, before it is signed: the form's values; the Preview checks them again and quotes the fee. */
  WalletSendPreview: { token: string; amount: string; to: string }
  /** A send the chain has: what went, and its transaction. */
  WalletSendSent: { hash: string; amount: string; symbol: string; to: string; name?: string }
  // swap
  /**
   * The swap form: the token sold (`from`), the token bought (`to`), the amount sold and the
   * slippage (basis points: 100 is 1 %); kept when the user goes back from a later step.
   */
  Swap: { from?: SwapToken; to?: SwapToken; amount?: string; slippageBps?: number }
  /** Choosing the token sold or bought, for the form below it in the history: the account's tokens first, then popular ones, searchable. */
  SwapSelectToken: { side: 'from' | 'to' }
  /** What a swap will do, before it is signed: quoted (and quoted again before it expires), the minimum received, the price impact, the fee. */
  SwapPreview: { from: SwapToken; to: SwapToken; amount: string; slippageBps: number; unlimited?: boolean }
  /** A swap the chain has: what went, what came, and its transaction. */
  SwapDone: { hash: string; fromAmount: string; fromSymbol: string; toAmount: string; toSymbol: string }
  // onramp
  /** The buy form: the fiat currency, the amount, the asset bought (its id in the options) and the payment method; kept when the user goes back from a purchase. */
  OnRamp: { paymentCurrency?: string; amount?: string; asset?: string; paymentMethod?: string }
  /**
   * A purchase in the provider's window: what is paid and bought, the provider's page (offered as
   * a link when the window did not open), followed until it ends (`status`, the delivering `txHash`).
   */
  OnRampProgress: {
    sessionId: string
    provider: string
    label: string
    url: string
    opened: boolean
    paid: Money
    buying: Money
    network: string
    /** When it began (ms since the epoch): coins arriving after it end it. */
    since: number
    status?: 'pending' | 'completed' | 'failed'
    txHash?: string | undefined
  }
  // pay
  /** A deposit from an exchange (issue 27's `pay`): the asset (CAIP-19) and amount; kept when the user goes back from a deposit. */
  PayWithExchange: { asset?: string; amount?: string }
  /**
   * A deposit in the exchange's window: what is deposited, the exchange's page (offered as a link
   * when the window did not open), followed until the server says it arrived or failed.
   */
  PayProgress: {
    sessionId: string
    exchangeId: string
    exchange: string
    url: string
    opened: boolean
    amount: string
    symbol: string
    network: string
    status?: 'SUCCESS' | 'FAILED'
    txHash?: string | undefined
  }
  // names
  /** Choosing an account name: the label typed, and why the last registration failed (spec section 4: a failure comes back here). */
  RegisterAccountName: { label?: string; error?: string }
  /** The name is the account's. */
  RegisterAccountNameSuccess: { name: string }
  // nfts
  /** One NFT the account holds: its image, name, collection, token id, standard, amount and description; 'Send' where it can be sent. */
  NftItem: { nft: Nft }
  /** The NFT send form: the receiver and, for an ERC-1155, how many; kept when the user goes back from the Preview. */
  SendNft: { nft: Nft; to?: string; amount?: string }
  /** What an NFT send will do, before it is signed; the send feature's WalletSendSent follows. */
  SendNftPreview: { nft: Nft; to: string; amount: string }
  /**
   * A request the user approved in the embedded wallet failed (the chain refused a transaction:
   * insufficient funds, a revert): `message` says why; `transaction`, whether it was a send.
   */
  TransactionFailed: { message: string; transaction: boolean }
}

export type View = keyof ViewParams

/** A view with what it carries. */
export type RouteEntry = { [V in View]: ViewParams[V] extends undefined ? { view: V; data?: undefined } : { view: V; data: ViewParams[V] } }[View]

/** The history entry of one view. */
export type RouteOf<V extends View> = Extract<RouteEntry, { view: V }>

/** What follows the view's name in `pushView` and `push`: its parameters, when it has any. */
export type ViewArgs<V extends View> = ViewParams[V] extends undefined ? [] : [data: ViewParams[V]]

export type NotificationVariant = 'success' | 'loading' | 'error'

export interface NotificationState {
  open: boolean
  message: string
  variant: NotificationVariant
}

/**
 * Where the account's balances stand: not asked yet, being fetched, in the account state, or
 * the last fetch failed ('Token Balance Unavailable', retried no sooner than 30 s later).
 */
export type BalanceStatus = 'idle' | 'loading' | 'ready' | 'failed'

/** Everything known about one namespace. */
export interface ChainState {
  connectionStatus: ConnectionStatus
  connectorId: string | undefined
  account: AccountState
  network: NetworkState
  balanceStatus: BalanceStatus
}

/** The provider a connected namespace is reached through, and the kind of connector giving it. */
export interface ProviderEntry {
  provider: unknown
  type: ConnectorType
  connectorId: string
}

/** The modal's language once its words have loaded (see ./i18n.ts); absent until then (English). */
export interface LocaleState {
  /** A shipped locale tag: 'en', 'de', 'pt-BR', 'ar'… */
  tag: string
  dir: 'ltr' | 'rtl'
  /** The connect button's words in it (the button lives in the host page, which does not load the catalogue). */
  connectButton: { label: string; loading: string }
  /** Its decimal sign ('.', ',', '٫'…), for the balance the connect button shows. */
  decimal: string
}

/** The single store. The React layer subscribes to slices of it. */
export interface SigilState {
  modal: { open: boolean; loading: boolean }
  /** The view history; the last entry is shown. Never empty. */
  router: { history: RouteEntry[] }
  activeNamespace: ChainNamespace
  activeCaipNetwork: CaipNetwork
  /** Set while switching to another namespace's network, cleared once the switch settled. */
  isSwitchingNamespace: boolean
  /** Networks the host configured (requested), in order; can change at run time. */
  networks: CaipNetwork[]
  chains: Partial<Record<ChainNamespace, ChainState>>
  /** Connectors present in the page, all namespaces. */
  connectors: Connector[]
  /** Per connected namespace, its wallet's provider (EIP-1193 for eip155). */
  providers: Partial<Record<ChainNamespace, ProviderEntry>>
  /** Directory wallets used last, most recent first (at most 2). */
  recentWallets: Wallet[]
  notification: NotificationState
  themeMode: ThemeMode
  themeVariables: ThemeVariables
  /** Sign-in (SIWX) state; 'signed-out' when sign-in is not configured. */
  siwx: SiwxState
  /** A social or Farcaster login under way (the login feature's state); absent otherwise. */
  login?: LoginState | undefined
  /** The Activity tab's list and this session's pending sends (the activity feature's state); absent until either is wanted. */
  activity?: ActivityState | undefined
  /** The NFTs tab's list and this session's NFT sends (the nfts feature's state); absent until wanted. */
  nfts?: NftsState | undefined
  /** The modal's language, set by the modal chunk once the locale's words have loaded. */
  locale?: LocaleState | undefined
}

export type SigilStore = StoreApi<SigilState>

export function initialAccountState(): AccountState {
  return {
    caipAddress: undefined,
    address: undefined,
    status: 'disconnected',
    balance: undefined,
    balanceSymbol: undefined,
    profileName: undefined,
    profileImage: undefined,
    addressExplorerUrl: undefined,
    user: undefined,
    tokenBalance: [],
    smartAccountDeployed: false,
    allAccounts: [],
    addressLabels: {},
    connectedWalletInfo: undefined,
    preferredAccountTypes: {},
    socialProvider: undefined,
    farcasterUrl: undefined,
    publicKey: undefined,
    path: undefined,
  }
}

export function initialChainState(namespace: ChainNamespace, networks: readonly CaipNetwork[]): ChainState {
  const own = networks.filter((n) => n.chainNamespace === namespace)
  return {
    connectionStatus: 'disconnected',
    connectorId: undefined,
    account: initialAccountState(),
    balanceStatus: 'idle',
    network: {
      caipNetwork: own[0],
      requestedCaipNetworkIds: own.map((n) => n.caipNetworkId),
      approvedCaipNetworkIds: [],
      supportsAllNetworks: true,
      smartAccountEnabledNetworks: [],
    },
  }
}

export function createSigilStore(options: ResolvedOptions): SigilStore {
  const namespaces = [...new Set(options.networks.map((n) => n.chainNamespace))]
  const chains: Partial<Record<ChainNamespace, ChainState>> = {}
  for (const ns of namespaces) chains[ns] = initialChainState(ns, options.networks)
  const active = options.defaultNetwork
  const activeChain = chains[active.chainNamespace]
  if (activeChain) activeChain.network.caipNetwork = active
  return createStore<SigilState>()(() => ({
    modal: { open: false, loading: false },
    router: { history: [{ view: 'Connect' }] },
    activeNamespace: active.chainNamespace,
    activeCaipNetwork: active,
    isSwitchingNamespace: false,
    networks: [...options.networks],
    chains,
    connectors: [],
    providers: {},
    recentWallets: [],
    notification: { open: false, message: '', variant: 'success' },
    themeMode: options.themeMode,
    themeVariables: options.themeVariables,
    siwx: { status: 'signed-out', session: undefined, error: undefined },
  }))
}

/** Immutable update of one namespace's state (created on first use). */
export function updateChain(store: SigilStore, namespace: ChainNamespace, update: (chain: ChainState) => Partial<ChainState>): void {
  store.setState((state) => {
    const current = state.chains[namespace] ?? initialChainState(namespace, state.networks)
    return { chains: { ...state.chains, [namespace]: { ...current, ...update(current) } } }
  })
}

export function getChain(state: SigilState, namespace: ChainNamespace): ChainState | undefined {
  return state.chains[namespace]
}
