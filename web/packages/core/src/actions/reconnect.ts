import { applyConnection, clearConnection, setConnectionStatus } from '../connection.js'
import type { SigilContext } from '../context.js'
import type { WalletConnector } from '../connectors/types.js'
import { findNetwork, setActiveNetwork } from '../network.js'
import type { ChainNamespace } from '../types.js'
import { handleWalletEvent } from './wallet-events.js'

/** Resolves with the connector once the page has it (wallets may announce themselves late), or undefined after `timeoutMs`. */
export function waitForConnector(ctx: SigilContext, connectorId: string, timeoutMs: number): Promise<WalletConnector | undefined> {
  const found = ctx.connectors.get(connectorId)
  if (found || timeoutMs <= 0) return Promise.resolve(found)
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      unsubscribe()
      resolve(ctx.connectors.get(connectorId))
    }
    const timer = setTimeout(done, timeoutMs)
    // The store's connector list changes whenever a connector source reports.
    const unsubscribe = ctx.store.subscribe((state, previous) => {
      if (state.connectors !== previous.connectors && ctx.connectors.has(connectorId)) done()
    })
  })
}

export interface RestoreParameters {
  /** How long to wait for a stored connector to appear in the page. */
  connectorTimeoutMs: number
}

/**
 * Start-up: the stored active network comes back, and every namespace stored as connected is
 * resynced through its connector without prompting (status 'connecting' meanwhile, then
 * 'connected', or 'disconnected' when the wallet no longer exposes the account). Namespaces of
 * one connector are restored together. A namespace stored as disconnected has its address
 * caches cleared.
 */
export async function restoreSession(ctx: SigilContext, { connectorTimeoutMs }: RestoreParameters): Promise<void> {
  const { storage, store } = ctx
  const storedNetworkId = storage.getActiveCaipNetworkId()
  const storedNetwork = storedNetworkId ? findNetwork(store.getState(), storedNetworkId) : undefined
  if (storedNetwork) setActiveNetwork(ctx, storedNetwork)
  store.setState({ recentWallets: storage.getRecentWallets(), isSwitchingNamespace: false })

  const namespaces = new Set<ChainNamespace>([...storage.getConnectedNamespaces(), ...(Object.keys(store.getState().chains) as ChainNamespace[])])
  const byConnector = new Map<string, ChainNamespace[]>()
  for (const namespace of namespaces) {
    const status = storage.getConnectionStatus(namespace)
    const connectorId = storage.getConnectedConnectorId(namespace)
    if (status === 'disconnected') {
      storage.clearAddressCaches()
      continue
    }
    if (status !== 'connected' || !connectorId || !ctx.adapters[namespace]) continue
    setConnectionStatus(ctx, namespace, 'connecting')
    byConnector.set(connectorId, [...(byConnector.get(connectorId) ?? []), namespace])
  }
  await Promise.all(
    [...byConnector].map(async ([connectorId, wanted]) => {
      let restored: ChainNamespace[] = []
      try {
        const connector = await waitForConnector(ctx, connectorId, connectorTimeoutMs)
        const connection = await connector?.reconnect({ namespaces: wanted, networks: store.getState().networks })
        if (connector && connection) restored = applyConnection(ctx, connector, connection, wanted, (c, event) => handleWalletEvent(ctx, c, event))
      } catch {
        // A wallet that fails to answer counts as gone.
      }
      for (const namespace of wanted) if (!restored.includes(namespace)) clearConnection(ctx, namespace)
    }),
  )
  // Each connector's accounts were applied as they came, the last one's namespace made active:
  // the stored active namespace, when connected, is active again, on its wallet's network.
  const settled = store.getState()
  const storedNamespace = storedNetwork?.chainNamespace
  const storedChain = storedNamespace ? settled.chains[storedNamespace] : undefined
  if (storedNamespace && storedNamespace !== settled.activeNamespace && storedChain?.account.caipAddress && storedChain.network.caipNetwork) {
    setActiveNetwork(ctx, storedChain.network.caipNetwork)
  }
  // The connected namespace wins over a stored active namespace that has nothing connected.
  const state = store.getState()
  if (!state.chains[state.activeNamespace]?.account.caipAddress) {
    const connected = [...namespaces].find((ns) => state.chains[ns]?.account.caipAddress)
    const network = connected ? state.chains[connected]?.network.caipNetwork : undefined
    if (network) setActiveNetwork(ctx, network)
  }
  store.setState({ isSwitchingNamespace: false })
}
