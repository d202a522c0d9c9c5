import { useCallback, useMemo, useSyncExternalStore } from 'react'
import type {
  AccountState,
  CaipAddress,
  CaipNetwork,
  CaipNetworkId,
  ChainNamespace,
  ConnectedWalletInfo,
  ConnectionStatus,
  SigilState,
  SIWXSession,
  SiwxStatus,
  ThemeMode,
  ThemeVariables,
} from '@sigil/core'
import { getAppKit, peekAppKit, subscribeAppKit, type AppKit, type OpenAppKitOptions } from './appkit.js'

/** The current instance, re-read when a new one is created. */
function useInstance(): AppKit {
  const appKit = useSyncExternalStore(subscribeAppKit, peekAppKit, peekAppKit)
  return appKit ?? getAppKit()
}

/** Subscribes to one slice of the store; `select` must return a stable value (a state part or a primitive). */
export function useAppKitSelector<T>(select: (state: SigilState) => T): T {
  const appKit = useInstance()
  const store = appKit.client.store
  const snapshot = useCallback(() => select(store.getState()), [store, select])
  return useSyncExternalStore(store.subscribe, snapshot, snapshot)
}

export interface UseAppKit {
  open(options?: OpenAppKitOptions): Promise<void>
  close(): boolean
}

/** Opens and closes the modal. */
export function useAppKit(): UseAppKit {
  const appKit = useInstance()
  return useMemo(() => ({ open: (o?: OpenAppKitOptions) => appKit.open(o), close: () => appKit.close() }), [appKit])
}

export interface AppKitAccount {
  address: string | undefined
  caipAddress: CaipAddress | undefined
  isConnected: boolean
  status: ConnectionStatus
  balance: string | undefined
  balanceSymbol: string | undefined
  connectedWalletInfo: ConnectedWalletInfo | undefined
  allAccounts: AccountState['allAccounts']
}

const selectActiveNamespace = (s: SigilState) => s.activeNamespace

/** The connected account of the active namespace (or of `namespace`). */
export function useAppKitAccount(options: { namespace?: ChainNamespace } = {}): AppKitAccount {
  const active = useAppKitSelector(selectActiveNamespace)
  const namespace = options.namespace ?? active
  const select = useCallback((s: SigilState) => s.chains[namespace], [namespace])
  const chain = useAppKitSelector(select)
  return useMemo(() => {
    const account = chain?.account
    return {
      address: account?.address,
      caipAddress: account?.caipAddress,
      isConnected: account?.caipAddress !== undefined && chain?.connectionStatus === 'connected',
      status: chain?.connectionStatus ?? 'disconnected',
      balance: account?.balance,
      balanceSymbol: account?.balanceSymbol,
      connectedWalletInfo: account?.connectedWalletInfo,
      allAccounts: account?.allAccounts ?? [],
    }
  }, [chain])
}

export interface AppKitNetwork {
  caipNetwork: CaipNetwork
  caipNetworkId: CaipNetworkId
  chainId: number | string
  /** The networks the host configured. */
  networks: CaipNetwork[]
  switchNetwork(network: CaipNetwork): Promise<void>
}

const selectActiveNetwork = (s: SigilState) => s.activeCaipNetwork
const selectNetworks = (s: SigilState) => s.networks

/** The active network and a way to switch it. */
export function useAppKitNetwork(): AppKitNetwork {
  const appKit = useInstance()
  const caipNetwork = useAppKitSelector(selectActiveNetwork)
  const networks = useAppKitSelector(selectNetworks)
  return useMemo(
    () => ({
      caipNetwork,
      caipNetworkId: caipNetwork.caipNetworkId,
      chainId: caipNetwork.id,
      networks,
      switchNetwork: (network: CaipNetwork) => appKit.switchNetwork(network),
    }),
    [appKit, caipNetwork, networks],
  )
}

export interface AppKitState {
  open: boolean
  loading: boolean
  selectedNetworkId: CaipNetworkId
  activeChain: ChainNamespace
}

const selectModal = (s: SigilState) => s.modal

/** Modal open/loading, the selected network and the active namespace. */
export function useAppKitState(): AppKitState {
  const modal = useAppKitSelector(selectModal)
  const network = useAppKitSelector(selectActiveNetwork)
  const activeChain = useAppKitSelector(selectActiveNamespace)
  return useMemo(() => ({ open: modal.open, loading: modal.loading, selectedNetworkId: network.caipNetworkId, activeChain }), [modal, network, activeChain])
}

/** Disconnects every connected namespace, or the one given. */
export function useDisconnect(): { disconnect(options?: { namespace?: ChainNamespace }): Promise<void> } {
  const appKit = useInstance()
  return useMemo(() => ({ disconnect: (o: { namespace?: ChainNamespace } = {}) => appKit.disconnect(o.namespace) }), [appKit])
}

const selectThemeMode = (s: SigilState) => s.themeMode
const selectThemeVariables = (s: SigilState) => s.themeVariables

/** The modal's theme and setters. */
export function useAppKitTheme(): {
  themeMode: ThemeMode
  themeVariables: ThemeVariables
  setThemeMode(mode: ThemeMode): void
  setThemeVariables(variables: ThemeVariables): void
} {
  const appKit = useInstance()
  const themeMode = useAppKitSelector(selectThemeMode)
  const themeVariables = useAppKitSelector(selectThemeVariables)
  return useMemo(
    () => ({
      themeMode,
      themeVariables,
      setThemeMode: (mode: ThemeMode) => appKit.setThemeMode(mode),
      setThemeVariables: (v: ThemeVariables) => appKit.setThemeVariables(v),
    }),
    [appKit, themeMode, themeVariables],
  )
}

export interface AppKitSiwx {
  /** The signed-in session (read back from where it is kept), if any. */
  session: SIWXSession | undefined
  status: SiwxStatus
  /** The last sign-in failure shown in the modal. */
  error: string | undefined
  /** Revokes the session; when sign-in is required the wallet is disconnected too. */
  signOut(): Promise<void>
}

const selectSiwx = (s: SigilState) => s.siwx

/** Sign-in (SIWX) state for the host page: the session, 'signed-out' | 'signing' | 'signed-in', and sign-out. */
export function useAppKitSiwx(): AppKitSiwx {
  const appKit = useInstance()
  const siwx = useAppKitSelector(selectSiwx)
  return useMemo(() => ({ session: siwx.session, status: siwx.status, error: siwx.error, signOut: () => appKit.client.siwx.signOut() }), [appKit, siwx])
}
