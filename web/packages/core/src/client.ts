import { connect } from './actions/connect.js'
import { disconnect } from './actions/disconnect.js'
import { restoreSession } from './actions/reconnect.js'
import type { SendParameters } from './features/send/send.js'
import { signMessage } from './actions/sign-message.js'
import { switchNetwork } from './actions/switch-network.js'
import { resetBalances } from './account.js'
import type { ChainAdapter } from './adapter.js'
import type { AnalyticsSink } from './analytics.js'
import type { BlockchainClient } from './features/account/blockchain.js'
import type { BalanceController, RefreshBalanceOptions } from './features/account/balance.js'
import { unwatchAll } from './connection.js'
import { embeddedWallet, isAuthConnector, AUTH_CONNECTOR_ID, LoginCacheKeys, type AuthConnector } from './connectors/auth.js'
import { sessionFamilies } from './connectors/transport.js'
import { walletConnectConnectors } from './connectors/walletconnect.js'
import type { Connection, ConnectorSource, WalletConnector } from './connectors/types.js'
import { detectMobile, track, type SigilContext, type SigilEvent } from './context.js'
import { ErrorMessages } from './errors.js'
import { createIdentityController } from './features/account/identity.js'
import { showError } from './notification.js'
import { onDemand } from './on-demand.js'
import { closeModal, goBack, openModal, selectWallet, type CloseOptions, type OpenOptions } from './modal.js'
import { resolveOptions, type ResolvedOptions, type SigilOptions } from './options.js'
import { currentView, pushView } from './router.js'
import { createSigilStorage, defaultBackend, type KeyValueStorage, type SigilStorage } from './storage.js'
import { createSigilStore, updateChain, type SigilStore, type View, type ViewArgs } from './store.js'
import type { SiwxController } from './features/siwx/controller.js'
import { siwxBlocksClose } from './features/siwx/guard.js'
import { lazySiwxController } from './features/siwx/lazy.js'
import { watchEmbeddedRequests, watchUnsupportedChain } from './watchers.js'
import type { CaipNetwork, ChainNamespace, Wallet } from './types.js'

export interface SigilDependencies {
  /** What each namespace does with a wallet, e.g. `[evmAdapter()]` from `@sigil/adapter-evm`. */
  adapters?: ChainAdapter[]
  /**
   * Where wallets are found; by default WalletConnect (unless the `walletConnect` option is
   * false) and the sources the adapters bring (`connectors()`: the EVM adapter's injected
   * wallets, EIP-6963 and window.ethereum).
   */
  connectors?: ConnectorSource[]
  /** Defaults to localStorage. */
  storage?: KeyValueStorage
  analytics?: AnalyticsSink
  isMobile?: () => boolean
  /** Skip restoring a stored connection at creation (tests, server rendering). */
  restore?: boolean
  /** How long restoring waits for the stored wallet to appear in the page (default 1000 ms). */
  reconnectTimeoutMs?: number
  /** The Sigil server's blockchain data API; by default built from the options, loaded on first use. */
  blockchainApi?: BlockchainClient
}

/** A modal instance: its store, options and the actions a UI calls. */
export interface SigilClient {
  readonly store: SigilStore
  readonly options: ResolvedOptions
  readonly storage: SigilStorage
  readonly context: SigilContext
  /** Settles once a stored connection has been resynced (or found gone). */
  readonly ready: Promise<void>
  open(options?: OpenOptions): void
  /** Returns false when closing is blocked (ApproveTransaction without force). */
  close(options?: CloseOptions): boolean
  goBack(): void
  /** Shows a view with its parameters: `push('ConnectingExternal', { connector })`. */
  push<V extends View>(view: V, ...args: ViewArgs<V>): void
  /** Routes to ConnectingExternal or ConnectingWalletConnect for a directory wallet. */
  selectWallet(wallet: Wallet): View
  /** Connects with a page connector; rejects with a SigilError (code 4001 when the user declined). */
  connect(connectorId: string, options?: { wallet?: Wallet; closeOnSuccess?: boolean }): Promise<Connection>
  /** Disconnects one namespace (and those sharing its WalletConnect/Auth connection), or every connected one. */
  disconnect(namespace?: ChainNamespace): Promise<void>
  switchNetwork(network: CaipNetwork): Promise<void>
  signMessage(message: string): Promise<string>
  /**
   * Sends a token (or the network's currency) from the active account, then reads its balances
   * again past every cache. Resolves to the transaction id.
   */
  send(params: SendParameters): Promise<string>
  /** The connected wallet's provider for `namespace` (EIP-1193 for eip155), if connected. */
  getProvider(namespace: ChainNamespace): unknown
  /** The connector a namespace is connected through. */
  getConnector(namespace: ChainNamespace): WalletConnector | undefined
  /** The embedded wallet's connector, when the host set `frameUrl` and email or socials are on. */
  getAuthConnector(): AuthConnector | undefined
  /** The modal's events (MODAL_OPEN, CONNECT_SUCCESS, …), whether analytics is on or not. Returns an unsubscribe. */
  subscribeEvents(listener: (event: SigilEvent) => void): () => void
  /** The last event, if any. */
  getEvent(): SigilEvent | undefined
  /** Sign-in (SIWX) actions; they do nothing when the `siwx` option is not set. */
  readonly siwx: SiwxController
  /** Whether closing the modal is currently blocked (ApproveTransaction, or required sign-in). */
  canClose(): boolean
  /**
   * Fetches the account's balances from the Sigil server (reused for 30 s unless `force`; none
   * for 30 s after a failure). `force` also skips the server's cache: use it after a send.
   */
  refreshBalance(namespace?: ChainNamespace, options?: RefreshBalanceOptions): Promise<void>
  setThemeMode(mode: ResolvedOptions['themeMode']): void
  destroy(): void
}

const DEFAULT_RECONNECT_TIMEOUT_MS = 1000

/**
 * Creates a modal instance: resolves options (throws 'Project ID Not Configured' without a
 * project id), builds the store, starts the connector sources and the adapters, and restores a
 * stored connection.
 */
export function createSigil(input: SigilOptions, deps: SigilDependencies = {}): SigilClient {
  const options = resolveOptions(input)
  const store = createSigilStore(options)
  const adapters: Partial<Record<ChainNamespace, ChainAdapter>> = {}
  for (const adapter of deps.adapters ?? []) adapters[adapter.namespace] = adapter
  const ctx: SigilContext = {
    store,
    options,
    storage: createSigilStorage(deps.storage),
    analytics: deps.analytics,
    adapters,
    isMobile: deps.isMobile ?? detectMobile,
    connectors: new Map(),
    connected: new Map(),
    accountData: { refresh: async () => {}, reset: () => {}, clear: () => {} },
    eventListeners: new Set(),
    lastEvent: undefined,
  }

  // The blockchain data client loads with the first balance wanted, not with the page.
  const blockchainApi = onDemand(() => import('./api/from-options.js').then((m) => m.blockchainClientFor(options)))
  const loadBlockchainApi = (): Promise<BlockchainClient> => (deps.blockchainApi ? Promise.resolve(deps.blockchainApi) : blockchainApi.get())
  ctx.blockchainApi = loadBlockchainApi
  // Balances only matter once connected: their code loads with the first refresh, not the page.
  const balanceController = onDemand(() => import('./features/account/balance.js').then((m) => m.createBalanceController(ctx, loadBlockchainApi)))
  const balances: BalanceController = {
    refresh: (namespace, refreshOptions) =>
      balanceController.get().then(
        (b) => b.refresh(namespace, refreshOptions),
        // A chunk that failed to load is said as a failed fetch would be, and tried again next time.
        () => {
          updateChain(store, namespace, () => ({ balanceStatus: 'failed' }))
          showError(store, ErrorMessages.tokenBalanceUnavailable)
        },
      ),
    reset: (namespace) => resetBalances(store, namespace),
    clear: () => void balanceController.started()?.then((b) => b.clear()),
  }
  const identities = createIdentityController(ctx, loadBlockchainApi)
  ctx.accountData = {
    refresh: (namespace) => Promise.all([balances.refresh(namespace), identities.refresh(namespace)]).then(() => undefined),
    reset(namespace, scope) {
      balances.reset(namespace)
      if (scope === 'account') identities.reset(namespace)
    },
    clear: () => balances.clear(),
  }

  // The views that open in answer to state: UnsupportedChain (and, below, the embedded wallet's approval).
  const teardowns: (() => void)[] = [watchUnsupportedChain(ctx)]
  // Connectors from every source, limited to namespaces the host has an adapter for.
  const families = sessionFamilies(Object.values(adapters))
  const sources = [
    ...(deps.connectors ?? [walletConnectConnectors({ options }), ...Object.values(adapters).flatMap((a) => (a.connectors ? [a.connectors()] : []))]),
  ]
  const { features } = options
  if (options.frameUrl && (features.email || (Array.isArray(features.socials) && features.socials.length > 0))) {
    sources.push(
      embeddedWallet({
        frameUrl: options.frameUrl,
        projectId: options.projectId,
        version: options.sdkVersion,
        chainId: () => store.getState().activeCaipNetwork.caipNetworkId,
        enableLogger: options.enableFrameLogger,
        storage: deps.storage ?? defaultBackend(),
        dappData: { ...(options.metadata ? { metadata: options.metadata } : {}), sdkType: options.sdkType },
        theme: () => ({ themeMode: store.getState().themeMode, themeVariables: store.getState().themeVariables }),
        locale: () => store.getState().locale?.tag,
        families,
      }),
    )
  }
  const lists: WalletConnector[][] = sources.map(() => [])
  sources.forEach((source, i) => {
    teardowns.push(
      source.watch(
        (list) => {
          lists[i] = list.filter((c) => c.info.namespaces.some((ns) => adapters[ns]))
          ctx.connectors = new Map(lists.flat().map((c) => [c.info.id, c]))
          store.setState({ connectors: [...ctx.connectors.values()].map((c) => c.info) })
        },
        { families },
      ),
    )
  })

  const client: SigilClient = {
    store,
    options,
    storage: ctx.storage,
    context: ctx,
    ready: Promise.resolve(),
    open: (openOptions) => openModal(ctx, openOptions),
    close: (closeOptions) => closeModal(ctx, closeOptions),
    goBack: () => goBack(ctx),
    push: (view, ...args) => pushView(store, view, ...args),
    selectWallet: (wallet) => selectWallet(ctx, wallet),
    connect: (connectorId, connectOptions = {}) => connect(ctx, { connectorId, ...connectOptions }),
    disconnect: (namespace) => disconnect(ctx, namespace ? { namespace } : {}),
    switchNetwork: (network) => switchNetwork(ctx, { network }),
    signMessage: (message) => signMessage(ctx, { message }),
    async send(params) {
      const namespace = store.getState().activeNamespace
      // The send feature loads with the first send.
      const { send } = await import('./features/send/send.js')
      const id = await send(ctx, params)
      track(ctx, 'SEND_SUCCESS', { namespace })
      await balances.refresh(namespace, { force: true })
      return id
    },
    getProvider: (namespace) => store.getState().providers[namespace]?.provider,
    getConnector: (namespace) => ctx.connected.get(namespace),
    getAuthConnector: () => {
      const connector = ctx.connectors.get(AUTH_CONNECTOR_ID)
      return isAuthConnector(connector) ? connector : undefined
    },
    subscribeEvents(listener) {
      ctx.eventListeners.add(listener)
      return () => ctx.eventListeners.delete(listener)
    },
    getEvent: () => ctx.lastEvent,
    siwx: undefined as unknown as SiwxController,
    canClose: () => currentView(store.getState()) !== 'ApproveTransaction' && !siwxBlocksClose(ctx),
    refreshBalance: (namespace = store.getState().activeNamespace, refreshOptions) => balances.refresh(namespace, refreshOptions),
    setThemeMode: (mode) => store.setState({ themeMode: mode }),
    destroy() {
      for (const teardown of teardowns.splice(0)) teardown()
      unwatchAll(ctx)
      ctx.eventListeners.clear()
    },
  }
  const auth = client.getAuthConnector()
  if (auth) teardowns.push(watchEmbeddedRequests(ctx, auth))
  // A full-page social login came back to this page (…?sigil_social=…): the modal finishes it.
  const here = typeof location === 'undefined' ? undefined : location.href
  if (auth && here && new URL(here).searchParams.has('sigil_social'))
    openModal(ctx, {
      view: 'ConnectingSocial',
      data: { provider: (deps.storage ?? defaultBackend()).getItem(LoginCacheKeys.socialProvider) ?? '', returnUri: here },
    })
  const siwx = lazySiwxController(ctx, { disconnect: () => client.disconnect(), signMessage: (m) => client.signMessage(m) })
  ;(client as { siwx: SiwxController }).siwx = siwx
  teardowns.push(() => siwx.destroy())
  if (deps.restore !== false) {
    ;(client as { ready: Promise<void> }).ready = restoreSession(ctx, { connectorTimeoutMs: deps.reconnectTimeoutMs ?? DEFAULT_RECONNECT_TIMEOUT_MS }).then(
      async () => {
        const connected = Object.entries(store.getState().chains)
          .filter(([, chain]) => chain?.connectionStatus === 'connected')
          .map(([ns]) => ns as ChainNamespace)
        await Promise.all(connected.map((ns) => ctx.accountData.refresh(ns)))
      },
    )
  }
  // After `ready` is set: an adapter may wait for the restore.
  for (const adapter of Object.values(adapters)) if (adapter.attach) teardowns.push(adapter.attach(client))
  return client
}
