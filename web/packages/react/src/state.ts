/*
 * The host-facing views of the store, as Reown AppKit hosts know them. Each is derived once per
 * store object it reads, so the same state gives the same object (stable hook snapshots, and
 * subscriptions that fire only on a real change).
 */
import type {
  AccountState,
  CaipAddress,
  CaipNetwork,
  CaipNetworkId,
  ChainNamespace,
  ChainState,
  ConnectedWalletInfo,
  ConnectionStatus,
  SigilState,
} from '@sigil/core'

export interface AppKitAccount {
  address: string | undefined
  caipAddress: CaipAddress | undefined
  isConnected: boolean
  status: ConnectionStatus
  balance: string | undefined
  balanceSymbol: string | undefined
  connectedWalletInfo: ConnectedWalletInfo | undefined
  /** Every account the connection gave in this namespace (address and type eoa, smartAccount or payment). */
  allAccounts: AccountState['allAccounts']
}

export interface AppKitState {
  open: boolean
  loading: boolean
  selectedNetworkId: CaipNetworkId
  activeChain: ChainNamespace
}

export interface AppKitNetworkState {
  caipNetwork: CaipNetwork
  caipNetworkId: CaipNetworkId
  chainId: number | string
}

const DISCONNECTED: AppKitAccount = Object.freeze({
  address: undefined,
  caipAddress: undefined,
  isConnected: false,
  status: 'disconnected',
  balance: undefined,
  balanceSymbol: undefined,
  connectedWalletInfo: undefined,
  allAccounts: [],
})

const accounts = new WeakMap<ChainState, AppKitAccount>()

/** The account of `namespace` (the active namespace by default). */
export function accountOf(state: SigilState, namespace: ChainNamespace = state.activeNamespace): AppKitAccount {
  const chain = state.chains[namespace]
  if (!chain) return DISCONNECTED
  let account = accounts.get(chain)
  if (!account) {
    const a = chain.account
    account = {
      address: a.address,
      caipAddress: a.caipAddress,
      isConnected: a.caipAddress !== undefined && chain.connectionStatus === 'connected',
      status: chain.connectionStatus,
      balance: a.balance,
      balanceSymbol: a.balanceSymbol,
      connectedWalletInfo: a.connectedWalletInfo,
      allAccounts: a.allAccounts,
    }
    accounts.set(chain, account)
  }
  return account
}

const publicStates = new WeakMap<SigilState['modal'], AppKitState>()

export function publicStateOf(state: SigilState): AppKitState {
  const known = publicStates.get(state.modal)
  if (known && known.selectedNetworkId === state.activeCaipNetwork.caipNetworkId && known.activeChain === state.activeNamespace) return known
  const value: AppKitState = {
    open: state.modal.open,
    loading: state.modal.loading,
    selectedNetworkId: state.activeCaipNetwork.caipNetworkId,
    activeChain: state.activeNamespace,
  }
  publicStates.set(state.modal, value)
  return value
}

const networks = new WeakMap<CaipNetwork, AppKitNetworkState>()

export function networkOf(state: SigilState): AppKitNetworkState {
  const caipNetwork = state.activeCaipNetwork
  const value = networks.get(caipNetwork) ?? { caipNetwork, caipNetworkId: caipNetwork.caipNetworkId, chainId: caipNetwork.id }
  networks.set(caipNetwork, value)
  return value
}

const providerMaps = new WeakMap<SigilState['providers'], Partial<Record<ChainNamespace, unknown>>>()

export function providersOf(state: SigilState): Partial<Record<ChainNamespace, unknown>> {
  let value = providerMaps.get(state.providers)
  if (!value) {
    value = Object.fromEntries(Object.entries(state.providers).map(([ns, entry]) => [ns, entry?.provider]))
    providerMaps.set(state.providers, value)
  }
  return value
}
