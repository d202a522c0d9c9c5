import { createContext, useCallback, useContext, useMemo, useSyncExternalStore } from 'react'
import type {
  CaipNetwork,
  CaipNetworkId,
  ChainNamespace,
  ConnectedWalletInfo,
  ConnectorType,
  SigilEvent,
  SigilState,
  SIWXSession,
  SiwxStatus,
  ThemeMode,
  ThemeVariables,
} from '@sigil/core'
import { getAppKit, peekAppKit, subscribeAppKit, type AppKit, type OpenAppKitOptions } from './appkit.js'
import { useStoreSelector } from './selector.js'
import { accountOf, publicStateOf, type AppKitAccount, type AppKitState } from './state.js'

export type { AppKitAccount, AppKitState } from './state.js'

/**
 * The instance a `<SigilProvider appKit>` above gives (server rendering: one per request), else
 * the one `createAppKit` made last in the page.
 */
export const AppKitContext = createContext<AppKit | undefined>(undefined)

/** The instance hooks use: the provider's, else the page's current one, re-read when a new one is created. */
export function useInstance(): AppKit {
  const provided = useContext(AppKitContext)
  const appKit = useSyncExternalStore(subscribeAppKit, peekAppKit, peekAppKit)
  return provided ?? appKit ?? getAppKit()
}

/** Subscribes to one slice of the store; `select` must return a stable value (a state part or a primitive). */
export function useAppKitSelector<T>(select: (state: SigilState) => T): T {
  return useStoreSelector(useInstance().client.store, select)
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

/** The connected account of the active namespace (or of `namespace`). */
export function useAppKitAccount(options: { namespace?: ChainNamespace } = {}): AppKitAccount {
  const { namespace } = options
  return useAppKitSelector(useCallback((s: SigilState) => accountOf(s, namespace), [namespace]))
}

export interface AppKitProvider<T> {
  /** The connected wallet's provider for the namespace: EIP-1193 for eip155 (viem `custom()`, ethers `BrowserProvider`). */
  walletProvider: T | undefined
  /** The kind of connector it comes through ('ANNOUNCED', 'INJECTED', 'WALLET_CONNECT', 'AUTH', …). */
  walletProviderType: ConnectorType | undefined
}

/** The connected wallet's provider for `namespace`; undefined until a wallet is connected there. */
export function useAppKitProvider<T = unknown>(namespace: ChainNamespace): AppKitProvider<T> {
  const entry = useAppKitSelector(useCallback((s: SigilState) => s.providers[namespace], [namespace]))
  return useMemo(() => ({ walletProvider: entry?.provider as T | undefined, walletProviderType: entry?.type }), [entry])
}

/** The connected wallet's name and icon (of the active namespace, or of `namespace`). */
export function useWalletInfo(options: { namespace?: ChainNamespace } = {}): { walletInfo: ConnectedWalletInfo | undefined } {
  const { connectedWalletInfo } = useAppKitAccount(options)
  return useMemo(() => ({ walletInfo: connectedWalletInfo }), [connectedWalletInfo])
}

/** The modal's latest event ('MODAL_CREATED' first; MODAL_OPEN, CONNECT_SUCCESS, SWITCH_NETWORK, …). */
export function useAppKitEvents(): SigilEvent {
  const appKit = useInstance()
  return useSyncExternalStore(appKit.subscribeEvents, appKit.getEvent, appKit.getEvent)
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

/** Modal open/loading, the selected network and the active namespace. */
export function useAppKitState(): AppKitState {
  return useAppKitSelector(publicStateOf)
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

const selectLocale = (s: SigilState) => s.locale

export interface AppKitLocale {
  /** The shipped locale the modal speaks ('en' until its words have loaded). */
  locale: string
  dir: 'ltr' | 'rtl'
  /** Switches it at run time: see `AppKit.setLocale`. */
  setLocale(locale: string | readonly string[]): Promise<void>
}

/** The modal's language, and a switch that re-renders the open modal in another. */
export function useAppKitLocale(): AppKitLocale {
  const appKit = useInstance()
  const state = useAppKitSelector(selectLocale)
  return useMemo(
    () => ({ locale: state?.tag ?? 'en', dir: state?.dir ?? 'ltr', setLocale: (l: string | readonly string[]) => appKit.setLocale(l) }),
    [appKit, state],
  )
}
