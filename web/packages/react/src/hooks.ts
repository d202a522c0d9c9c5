import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react'
import {
  toSigilError,
  type CaipNetwork,
  type CaipNetworkId,
  type CallsStatus,
  type ChainNamespace,
  type ConnectedWalletInfo,
  type ConnectorType,
  type SigilError,
  type SigilEvent,
  type SigilState,
  type SIWXSession,
  type SiwxStatus,
  type ThemeMode,
  type ThemeVariables,
  type WalletCapabilities,
} from '@sigil/core'
import type { CallsChainId, SendCallsParameters } from '@sigil/core/calls'
import { getAppKit, peekAppKit, subscribeAppKit, type AppKit, type OpenAppKitOptions } from './appkit.js'
import { useStoreSelector } from './selector.js'
import { accountOf, publicStateOf, type AppKitAccount, type AppKitState } from './state.js'

export type { AppKitAccount, AppKitState } from './state.js'

/** The current instance, re-read when a new one is created. */
function useInstance(): AppKit {
  const appKit = useSyncExternalStore(subscribeAppKit, peekAppKit, peekAppKit)
  return appKit ?? getAppKit()
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

/** The EIP-5792 actions: loaded with the first hook that uses them, never with the page. */
const callsActions = () => import('@sigil/core/calls')

export interface UseSendCalls {
  /** Sends the calls (see `sendCalls` of `@sigil/core/calls`); resolves to the bundle's id, or undefined when it failed (`error` says why). */
  sendCalls(params: SendCallsParameters): Promise<string | undefined>
  /** The same, rejecting with the error (EIP-5792's 57xx classes, 4001 when declined, …). */
  sendCallsAsync(params: SendCallsParameters): Promise<string>
  /** The id of the last bundle sent: for useCallsStatus. */
  data: string | undefined
  error: SigilError | undefined
  isPending: boolean
  reset(): void
}

interface Query<T> {
  data: T | undefined
  error: SigilError | undefined
  isPending: boolean
}

const idle = { data: undefined, error: undefined, isPending: false }

/**
 * Sends EIP-5792 calls from the connected eip155 account (wagmi's `useSendCalls` shape): one
 * atomic `wallet_sendCalls` where the wallet can, else one transaction after the other under an
 * id of Sigil's, unless `atomicRequired`.
 */
export function useSendCalls(): UseSendCalls {
  const appKit = useInstance()
  const [state, setState] = useState<Query<string>>(idle)
  const sendCallsAsync = useCallback(
    async (params: SendCallsParameters) => {
      setState({ data: undefined, error: undefined, isPending: true })
      try {
        const { id } = await (await callsActions()).sendCalls(appKit.client.context, params)
        setState({ data: id, error: undefined, isPending: false })
        return id
      } catch (cause) {
        const error = toSigilError(cause)
        setState({ data: undefined, error, isPending: false })
        throw error
      }
    },
    [appKit],
  )
  const sendCalls = useCallback((params: SendCallsParameters) => sendCallsAsync(params).catch(() => undefined), [sendCallsAsync])
  const reset = useCallback(() => setState(idle), [])
  return useMemo(() => ({ ...state, sendCalls, sendCallsAsync, reset }), [state, sendCalls, sendCallsAsync, reset])
}

export interface UseCallsStatusOptions {
  /** Asks again every `intervalMs` until the status is final (200 and above). */
  pollUntilFinal?: boolean
  /** Default 1000. */
  intervalMs?: number
}

export interface UseCallsStatus extends Query<CallsStatus> {
  refetch(): void
}

/** A bundle's EIP-5792 status (wagmi's `useCallsStatus` shape); nothing is asked without an id. */
export function useCallsStatus(id: string | undefined, options: UseCallsStatusOptions = {}): UseCallsStatus {
  const appKit = useInstance()
  const { pollUntilFinal = false, intervalMs = 1000 } = options
  const [state, setState] = useState<Query<CallsStatus>>(idle)
  const [round, setRound] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` is how refetch asks again
  useEffect(() => {
    if (!id) {
      setState(idle)
      return
    }
    let stopped = false
    let timer: ReturnType<typeof setTimeout> | undefined
    setState((s) => ({ ...s, isPending: s.data === undefined }))
    const read = async () => {
      try {
        const status = await (await callsActions()).getCallsStatus(appKit.client.context, { id })
        if (stopped) return
        setState({ data: status, error: undefined, isPending: false })
        if (pollUntilFinal && status.status < 200) timer = setTimeout(() => void read(), intervalMs)
      } catch (error) {
        if (!stopped) setState({ data: undefined, error: toSigilError(error), isPending: false })
      }
    }
    void read()
    return () => {
      stopped = true
      clearTimeout(timer)
    }
  }, [appKit, id, pollUntilFinal, intervalMs, round])
  const refetch = useCallback(() => setRound((n) => n + 1), [])
  return useMemo(() => ({ ...state, refetch }), [state, refetch])
}

export interface UseCapabilitiesParameters {
  /** The account; the connected one by default. */
  address?: string
  /** The chains to ask about; every chain the wallet knows by default. */
  chainIds?: readonly CallsChainId[]
}

export interface UseCapabilities extends Query<WalletCapabilities> {
  refetch(): void
}

const selectEvmAccount = (s: SigilState) => s.chains.eip155?.account.address

/**
 * What the connected wallet can do (EIP-5792 `wallet_getCapabilities`, wagmi's
 * `useCapabilities` shape): `{}` when it cannot say; asked again when the account changes.
 */
export function useCapabilities(params: UseCapabilitiesParameters = {}): UseCapabilities {
  const appKit = useInstance()
  const connected = useAppKitSelector(selectEvmAccount)
  const { address } = params
  const chains = params.chainIds?.join(',')
  const [state, setState] = useState<Query<WalletCapabilities>>(idle)
  const [round, setRound] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` is how refetch asks again
  useEffect(() => {
    if (!connected) {
      setState(idle)
      return
    }
    let stopped = false
    setState((s) => ({ ...s, isPending: true }))
    const chainIds = chains ? (chains.split(',') as CallsChainId[]) : undefined
    callsActions()
      .then((m) => m.getCapabilities(appKit.client.context, { ...(address ? { address } : {}), ...(chainIds ? { chainIds } : {}) }))
      .then(
        (data) => !stopped && setState({ data, error: undefined, isPending: false }),
        (error: unknown) => !stopped && setState({ data: undefined, error: toSigilError(error), isPending: false }),
      )
    return () => {
      stopped = true
    }
  }, [appKit, connected, address, chains, round])
  const refetch = useCallback(() => setRound((n) => n + 1), [])
  return useMemo(() => ({ ...state, refetch }), [state, refetch])
}
