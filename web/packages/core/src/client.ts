import { activeAccount, resetAccount, setAccountAddress } from './account.js'
import type { AdapterEvents, ChainAdapter } from './adapter.js'
import type { AnalyticsSink } from './analytics.js'
import type { BlockchainClient } from './api/blockchain.js'
import { createBalanceController, type RefreshBalanceOptions } from './balance.js'
import { forgetConnection, setConnectionStatus } from './connection.js'
import { detectMobile, track, type SigilContext } from './context.js'
import { adapterForNamespaceMissing, ErrorMessages, SigilError, toSigilError } from './errors.js'
import { createIdentityController } from './identity.js'
import { closeModal, goBack, openModal, selectWallet, type CloseOptions, type OpenOptions } from './modal.js'
import { resetNetwork, setActiveNetwork, syncWalletNetwork } from './network.js'
import { resolveOptions, type ResolvedOptions, type SigilOptions } from './options.js'
import { applyConnection, restoreSession } from './restore.js'
import { currentView, pushView, resetView } from './router.js'
import { createSigilStorage, type KeyValueStorage, type SigilStorage } from './storage.js'
import { createSigilStore, type RouteData, type SigilStore, type View } from './store.js'
import { createSiwxController, type SiwxController } from './siwx/controller.js'
import { siwxBlocksClose } from './siwx/guard.js'
import type { CaipNetwork, ChainNamespace, Connector, Wallet } from './types.js'

export interface SigilDependencies {
  adapters?: ChainAdapter[]
  /** Defaults to localStorage. */
  storage?: KeyValueStorage
  analytics?: AnalyticsSink
  isMobile?: () => boolean
  /** Skip restoring a stored connection at creation (tests, server rendering). */
  restore?: boolean
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
  push(view: View, data?: RouteData): void
  /** Routes to ConnectingExternal or ConnectingWalletConnect for a directory wallet. */
  selectWallet(wallet: Wallet): View
  /** Connects with a page connector; rejects with a SigilError (code 4001 when the user declined). */
  connect(connectorId: string, options?: { wallet?: Wallet; closeOnSuccess?: boolean }): Promise<void>
  /** Disconnects one namespace, or every connected one. */
  disconnect(namespace?: ChainNamespace): Promise<void>
  switchNetwork(network: CaipNetwork): Promise<void>
  signMessage(message: string): Promise<string>
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

/**
 * Creates a modal instance: resolves options (throws 'Project ID Not Configured' without a
 * project id), builds the store, starts the adapters and restores a stored connection.
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
  }

  const adapterOf = (namespace: ChainNamespace): ChainAdapter => {
    const adapter = adapters[namespace]
    if (!adapter) throw new SigilError(adapterForNamespaceMissing(namespace), 'ADAPTER_NOT_FOUND')
    return adapter
  }

  // The blockchain data client loads with the first balance wanted, not with the page.
  let blockchainApi: Promise<BlockchainClient> | undefined
  const loadBlockchainApi = (): Promise<BlockchainClient> => {
    if (deps.blockchainApi) return Promise.resolve(deps.blockchainApi)
    if (!blockchainApi) {
      blockchainApi = import('./api/from-options.js').then((m) => m.blockchainClientFor(options))
      // A chunk that failed to load is tried again next time.
      blockchainApi.catch(() => (blockchainApi = undefined))
    }
    return blockchainApi
  }
  const balances = createBalanceController(ctx, loadBlockchainApi)
  const identities = createIdentityController(ctx, loadBlockchainApi)

  const refreshBalance = (namespace: ChainNamespace = store.getState().activeNamespace, refreshOptions?: RefreshBalanceOptions) =>
    balances.refresh(namespace, refreshOptions)

  /** Balances and identity of the namespace's account, after it connected or changed. */
  const refreshAccountData = (namespace: ChainNamespace) => Promise.all([balances.refresh(namespace), identities.refresh(namespace)]).then(() => undefined)

  const markDisconnected = (namespace: ChainNamespace) => {
    balances.clear()
    resetAccount(store, namespace)
    balances.reset(namespace)
    resetNetwork(store, namespace)
    forgetConnection(ctx, namespace)
    setConnectionStatus(ctx, namespace, 'disconnected')
  }

  const teardowns: (() => void)[] = []
  for (const adapter of Object.values(adapters)) {
    const namespace = adapter.namespace
    const events: AdapterEvents = {
      connectorsChanged(connectors: Connector[]) {
        store.setState((state) => ({
          connectors: [...state.connectors.filter((c) => c.chain !== namespace), ...connectors],
        }))
      },
      accountChanged(address) {
        const chain = store.getState().chains[namespace]
        if (chain?.connectionStatus !== 'connected') return
        if (!address) return markDisconnected(namespace)
        const network = chain.network.caipNetwork
        if (!network) return
        setAccountAddress(store, network, address)
        // What belonged to the previous account goes before the new one's is fetched.
        balances.reset(namespace)
        identities.reset(namespace)
        void refreshAccountData(namespace)
      },
      chainChanged(chainId) {
        const chain = store.getState().chains[namespace]
        if (chain?.connectionStatus !== 'connected') return
        const network = syncWalletNetwork(ctx, namespace, chainId)
        const address = chain.account.address
        if (address) setAccountAddress(store, network, address)
        balances.reset(namespace)
        void refreshAccountData(namespace)
      },
      disconnected() {
        if (store.getState().chains[namespace]?.connectionStatus === 'disconnected') return
        markDisconnected(namespace)
      },
    }
    teardowns.push(adapter.setup(events))
  }

  const client: SigilClient = {
    store,
    options,
    storage: ctx.storage,
    context: ctx,
    ready: Promise.resolve(),
    open: (openOptions) => openModal(ctx, openOptions),
    close: (closeOptions) => closeModal(ctx, closeOptions),
    goBack: () => goBack(ctx),
    push: (view, data) => pushView(store, view, data),
    selectWallet: (wallet) => selectWallet(ctx, wallet),

    async connect(connectorId, connectOptions = {}) {
      const connector = store.getState().connectors.find((c) => c.id === connectorId)
      if (!connector) throw new SigilError(ErrorMessages.adapterNotFound, 'CONNECTOR_NOT_FOUND')
      const namespace = connector.chain
      const adapter = adapterOf(namespace)
      setConnectionStatus(ctx, namespace, 'connecting')
      try {
        const current = store.getState().chains[namespace]?.network.caipNetwork
        const result = await adapter.connect(connectorId, current ? { network: current } : {})
        applyConnection(ctx, namespace, result)
      } catch (error) {
        setConnectionStatus(ctx, namespace, 'disconnected')
        const mapped = toSigilError(error)
        track(ctx, 'CONNECT_ERROR', { message: mapped.message })
        throw mapped
      }
      if (connectOptions.wallet) store.setState({ recentWallets: ctx.storage.addRecentWallet(connectOptions.wallet) })
      track(ctx, 'CONNECT_SUCCESS', { method: 'browser', name: connector.name })
      void refreshAccountData(namespace)
      // After connecting the modal is done, unless it now warns about the network.
      const state = store.getState()
      if (connectOptions.closeOnSuccess !== false && state.modal.open && currentView(state) !== 'UnsupportedChain') {
        if (options.embedded) resetView(store, 'Account')
        else closeModal(ctx)
      }
    },

    async disconnect(namespace) {
      const state = store.getState()
      const targets = namespace
        ? [namespace]
        : (Object.keys(state.chains) as ChainNamespace[]).filter((ns) => state.chains[ns]?.connectionStatus !== 'disconnected')
      const results = await Promise.allSettled(targets.map((ns) => adapterOf(ns).disconnect()))
      const failures: string[] = []
      results.forEach((result, i) => {
        const ns = targets[i] as ChainNamespace
        // State is cleared either way: a wallet that failed to answer is still gone for the user.
        markDisconnected(ns)
        if (result.status === 'fulfilled') track(ctx, 'DISCONNECT_SUCCESS', { namespace: ns })
        else {
          const reason = toSigilError(result.reason).message
          failures.push(`Failed to disconnect chain ${ns}: ${reason}`)
          track(ctx, 'DISCONNECT_ERROR', { namespace: ns, message: reason })
        }
      })
      const after = store.getState()
      if (after.modal.open) {
        if (options.embedded) resetView(store, 'Connect')
        else closeModal(ctx, { force: true })
      }
      if (failures.length) throw new SigilError(`${ErrorMessages.failedToDisconnect}: ${failures.join('; ')}`, 'DISCONNECT_FAILED')
    },

    async switchNetwork(network) {
      const state = store.getState()
      const chain = state.chains[network.chainNamespace]
      if (chain?.connectionStatus === 'connected') {
        try {
          await adapterOf(network.chainNamespace).switchNetwork(network)
        } catch (error) {
          const mapped = toSigilError(error)
          track(ctx, 'SWITCH_NETWORK_ERROR', { network: network.caipNetworkId, message: mapped.message })
          throw mapped
        }
        syncWalletNetwork(ctx, network.chainNamespace, network.id)
        const address = store.getState().chains[network.chainNamespace]?.account.address
        if (address) setAccountAddress(store, network, address)
        balances.reset(network.chainNamespace)
        void refreshAccountData(network.chainNamespace)
      } else {
        setActiveNetwork(ctx, network)
      }
      store.setState({ isSwitchingNamespace: false })
      track(ctx, 'SWITCH_NETWORK', { network: network.caipNetworkId })
    },

    async signMessage(message) {
      const state = store.getState()
      const address = activeAccount(state).address
      if (!address) throw new SigilError(ErrorMessages.caipNetworkOrAddressUndefined, 'NOT_CONNECTED')
      try {
        return await adapterOf(state.activeNamespace).signMessage(message, address)
      } catch (error) {
        throw toSigilError(error)
      }
    },

    siwx: undefined as unknown as SiwxController,
    canClose: () => currentView(store.getState()) !== 'ApproveTransaction' && !siwxBlocksClose(ctx),
    refreshBalance,
    setThemeMode: (mode) => store.setState({ themeMode: mode }),
    destroy() {
      for (const teardown of teardowns.splice(0)) teardown()
    },
  }
  const siwx = createSiwxController(ctx, { disconnect: () => client.disconnect(), signMessage: (m) => client.signMessage(m) })
  ;(client as { siwx: SiwxController }).siwx = siwx
  teardowns.push(() => siwx.destroy())
  if (deps.restore !== false) {
    ;(client as { ready: Promise<void> }).ready = restoreSession(ctx).then(async () => {
      const connected = Object.entries(store.getState().chains)
        .filter(([, chain]) => chain?.connectionStatus === 'connected')
        .map(([ns]) => ns as ChainNamespace)
      await Promise.all(connected.map((ns) => refreshAccountData(ns)))
    })
  }
  return client
}
