import {
  createSigil,
  deferredAnalyticsSink,
  type CaipNetwork,
  type ChainAdapter,
  type ChainNamespace,
  type ConnectedWalletInfo,
  type ConnectorSource,
  type ConnectorType,
  type KeyValueStorage,
  type OpenOptions,
  type SigilClient,
  type SigilEvent,
  type SigilOptions,
  type SigilState,
  type ThemeMode,
  type ThemeVariables,
} from '@sigil/core'
import { accountOf, networkOf, providersOf, publicStateOf, type AppKitAccount, type AppKitNetworkState, type AppKitState } from './state.js'

/** What a host passes to `createAppKit`: the core options plus the chain adapters to use. */
export interface AppKitOptions extends SigilOptions {
  /** Chain adapters, e.g. `[evmAdapter()]` from `@sigil/adapter-evm` or `[wagmiAdapter]` from `@sigil/wagmi`. */
  adapters?: ChainAdapter[]
  /** Where wallets are found; the page's injected wallets (EIP-6963, window.ethereum) by default. */
  connectors?: ConnectorSource[]
  /**
   * Load the modal code and the directory's first wallet page while the page is idle, and
   * render the Connect view ahead (hidden), so the first open shows the wallet list at once.
   * Default true.
   */
  prefetch?: boolean
  /** Where the modal keeps its state between visits; localStorage by default. */
  storage?: KeyValueStorage
}

/** `open()`'s options: a view and its parameters (`{ view: 'Networks' }`). */
export type OpenAppKitOptions = OpenOptions

/** The modal instance `createAppKit` returns. Hooks read the one of `<SigilProvider>`, else the most recently created one. */
export interface AppKit {
  readonly client: SigilClient
  /** Settles once a stored connection was restored (or found gone). */
  readonly ready: Promise<void>
  open(options?: OpenAppKitOptions): Promise<void>
  /** Returns false when closing is blocked. */
  close(): boolean
  /** Modal open/loading, the selected network and the active namespace. */
  getState(): AppKitState
  subscribeState(listener: (state: AppKitState) => void): () => void
  /** Every change of the whole store (low level). */
  subscribe(listener: (state: SigilState, previous: SigilState) => void): () => void
  /** The connected wallet's provider for `namespace` (EIP-1193 for eip155), undefined while not connected. */
  getProvider<T = unknown>(namespace: ChainNamespace): T | undefined
  /** The kind of connector giving that provider ('ANNOUNCED', 'INJECTED', 'WALLET_CONNECT', 'AUTH', …). */
  getWalletProviderType(namespace: ChainNamespace): ConnectorType | undefined
  /** Called with every namespace's provider whenever one is added or removed. */
  subscribeProviders(listener: (providers: Partial<Record<ChainNamespace, unknown>>) => void): () => void
  /** The account of `namespace`, the active one by default. */
  getAccount(namespace?: ChainNamespace): AppKitAccount
  subscribeAccount(listener: (account: AppKitAccount) => void, namespace?: ChainNamespace): () => void
  getCaipNetwork(): CaipNetwork
  getChainId(): number | string
  subscribeNetwork(listener: (network: AppKitNetworkState) => void): () => void
  getIsConnectedState(): boolean
  getWalletInfo(namespace?: ChainNamespace): ConnectedWalletInfo | undefined
  subscribeWalletInfo(listener: (walletInfo: ConnectedWalletInfo | undefined) => void, namespace?: ChainNamespace): () => void
  /** The modal's events (MODAL_OPEN, CONNECT_SUCCESS, SWITCH_NETWORK, …), whether analytics is on or not. */
  subscribeEvents(listener: (event: SigilEvent) => void): () => void
  /** The last event ('MODAL_CREATED' before any other). */
  getEvent(): SigilEvent
  setThemeMode(mode: ThemeMode): void
  setThemeVariables(variables: ThemeVariables): void
  /**
   * Switches the modal's language at run time ('de', 'ar', or the visitor's list, best first),
   * negotiated against the shipped locales; settles once its words have loaded and the open modal
   * re-rendered in it (`useAppKitLocale()` then says its tag).
   */
  setLocale(locale: string | readonly string[]): Promise<void>
  switchNetwork(network: CaipNetwork): Promise<void>
  disconnect(namespace?: ChainNamespace): Promise<void>
  /** Loads the modal code and warms the wallet list; called on idle unless `prefetch: false`. */
  prefetch(): Promise<void>
  destroy(): void
}

/** What the lazily loaded modal chunk exports (see ./modal/index.tsx). */
export interface ModalModule {
  mountModal(appKit: AppKit): ModalHandle
}

export interface ModalHandle {
  /**
   * Fetches the directory's first page (and featured wallets), preloads their images and the
   * views likely next, then renders the Connect view ahead, hidden, so that opening only has to
   * reveal it.
   */
  prefetchWallets(): Promise<void>
  /** Loads `locale`'s words (its chunk) and shows the modal in it. */
  setLocale(locale: string | readonly string[]): Promise<void>
  unmount(): void
}

let current: AppKit | undefined
const listeners = new Set<() => void>()

/** The instance hooks and `<ConnectButton/>` use. */
export function getAppKit(): AppKit {
  if (!current) throw new Error('Sigil: call createAppKit({ projectId, networks }) before using its hooks')
  return current
}

/** @internal Lets hooks notice a new instance (hot reload, tests). */
export function subscribeAppKit(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function peekAppKit(): AppKit | undefined {
  return current
}

function whenIdle(run: () => void): void {
  const idle = (globalThis as { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number }).requestIdleCallback
  if (typeof idle === 'function') idle(run, { timeout: 1500 })
  else setTimeout(run, 200)
}

/**
 * Creates the modal: checks the options (a project id is required), restores a stored
 * connection and, once the page is idle, loads the modal UI and the first wallet page ahead of
 * the first open. The UI itself is a separate chunk: the host page pays for it only then.
 */
export function createAppKit(options: AppKitOptions): AppKit {
  const { adapters, connectors, prefetch: prefetchOnIdle = true, storage, ...sigilOptions } = options
  let client: SigilClient | undefined
  // Events wait in the deferred sink; the sink (and its config request) loads when the page is
  // idle, never inside the click that opened the modal.
  const analytics = deferredAnalyticsSink(async () => {
    await new Promise<void>((resolve) => whenIdle(resolve))
    const api = await import('@sigil/core/api')
    return api.createDirectoryAnalyticsSink(api.directoryClientFor((client as SigilClient).options))
  })
  client = createSigil(sigilOptions, {
    ...(adapters ? { adapters } : {}),
    ...(connectors ? { connectors } : {}),
    ...(storage ? { storage } : {}),
    analytics,
    restore: typeof window !== 'undefined',
  })
  const sigil = client
  const { store } = sigil
  const created: SigilEvent = { timestamp: Date.now(), data: { type: 'track', event: 'MODAL_CREATED' } }
  let modal: Promise<ModalHandle> | undefined
  let destroyed = false

  const loadModal = (): Promise<ModalHandle> => {
    modal ??= import('./modal/index.js').then((m: ModalModule) => {
      if (destroyed) throw new Error('Sigil: modal destroyed')
      return m.mountModal(appKit)
    })
    modal.catch(() => {
      // A failed chunk load can be retried on the next open.
      modal = undefined
      store.setState((s) => ({ modal: { ...s.modal, loading: false } }))
    })
    return modal
  }

  // Whatever opens the modal (a hook, the core's UnsupportedChain rule), the UI follows.
  const unsubscribe = store.subscribe((state, previous) => {
    if (state.modal.open && !previous.modal.open) void loadModal().catch(() => undefined)
  })

  /** Calls `listener` with `select(state)` whenever that value changes (by identity). */
  const watch = <T>(select: (state: SigilState) => T, listener: (value: T) => void) =>
    store.subscribe((state, previous) => {
      const value = select(state)
      if (value !== select(previous)) listener(value)
    })

  const appKit: AppKit = {
    client: sigil,
    ready: sigil.ready,
    async open(openOptions = {}) {
      sigil.open(openOptions)
      await loadModal()
    },
    close: () => sigil.close(),
    getState: () => publicStateOf(store.getState()),
    subscribeState: (listener) => watch(publicStateOf, listener),
    subscribe: (listener) => store.subscribe(listener),
    getProvider: <T>(namespace: ChainNamespace) => sigil.getProvider(namespace) as T | undefined,
    getWalletProviderType: (namespace) => store.getState().providers[namespace]?.type,
    subscribeProviders: (listener) => watch(providersOf, listener),
    getAccount: (namespace) => accountOf(store.getState(), namespace),
    subscribeAccount: (listener, namespace) => watch((s) => accountOf(s, namespace), listener),
    getCaipNetwork: () => store.getState().activeCaipNetwork,
    getChainId: () => store.getState().activeCaipNetwork.id,
    subscribeNetwork: (listener) => watch(networkOf, listener),
    getIsConnectedState: () => accountOf(store.getState()).isConnected,
    getWalletInfo: (namespace) => accountOf(store.getState(), namespace).connectedWalletInfo,
    subscribeWalletInfo: (listener, namespace) => watch((s) => accountOf(s, namespace).connectedWalletInfo, listener),
    subscribeEvents: (listener) => sigil.subscribeEvents(listener),
    getEvent: () => sigil.getEvent() ?? created,
    setThemeMode: (mode) => sigil.setThemeMode(mode),
    setThemeVariables: (variables) => store.setState({ themeVariables: { ...variables } }),
    setLocale: (locale) => loadModal().then((m) => m.setLocale(locale)),
    switchNetwork: (network) => sigil.switchNetwork(network),
    disconnect: (namespace) => sigil.disconnect(namespace),
    async prefetch() {
      const handle = await loadModal()
      await handle.prefetchWallets()
    },
    destroy() {
      destroyed = true
      unsubscribe()
      sigil.destroy()
      void modal?.then(
        (m) => m.unmount(),
        () => undefined,
      )
      modal = undefined
      if (current === appKit) current = undefined
      for (const l of listeners) l()
    },
  }

  // On a server every render makes its own instance, given to hooks by <SigilProvider>: none is
  // the module's, which concurrent requests would share (and replace under each other).
  if (typeof window !== 'undefined') {
    current?.destroy()
    current = appKit
    for (const l of listeners) l()
    if (prefetchOnIdle) whenIdle(() => void appKit.prefetch().catch(() => undefined))
  }
  return appKit
}
