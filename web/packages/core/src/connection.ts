import { resetAccount, setAccountAddress, setAccountProps } from './account.js'
import type { SigilContext } from './context.js'
import type { Connection, ConnectionAccount, ConnectorEvent, WalletConnector } from './connectors/types.js'
import { resetNetwork, setNamespaceNetwork, syncWalletNetwork, walletNetwork } from './network.js'
import { updateChain } from './store.js'
import type { ChainNamespace, ConnectionStatus } from './types.js'

/** Sets a namespace's connection status in the store (account.status follows) and remembers it. */
export function setConnectionStatus(ctx: SigilContext, namespace: ChainNamespace, status: ConnectionStatus): void {
  updateChain(ctx.store, namespace, (chain) => ({
    connectionStatus: status,
    account: { ...chain.account, status },
  }))
  ctx.storage.setConnectionStatus(namespace, status)
}

/** Records the connector a namespace is connected with, in the store and in storage. */
export function setConnectedConnector(ctx: SigilContext, namespace: ChainNamespace, connectorId: string): void {
  updateChain(ctx.store, namespace, () => ({ connectorId }))
  ctx.storage.setConnectedConnectorId(namespace, connectorId)
  ctx.storage.addConnectedNamespace(namespace)
}

/** Forgets a namespace's connection in storage; address caches go with it. */
export function forgetConnection(ctx: SigilContext, namespace: ChainNamespace): void {
  updateChain(ctx.store, namespace, () => ({ connectorId: undefined }))
  ctx.storage.removeConnectedConnectorId(namespace)
  ctx.storage.removeConnectedNamespace(namespace)
  ctx.storage.setConnectionStatus(namespace, 'disconnected')
  ctx.storage.clearAddressCaches()
}

/** The namespaces a connector would connect here: its own, less those the host gave no adapter or network for. */
export function connectorNamespaces(ctx: SigilContext, connector: WalletConnector): ChainNamespace[] {
  const { info } = connector
  const configured = new Set(ctx.store.getState().networks.map((n) => n.chainNamespace))
  return info.namespaces.filter((ns) => ctx.adapters[ns] !== undefined && configured.has(ns))
}

/** The namespaces currently using `connector`. */
export function namespacesOf(ctx: SigilContext, connector: WalletConnector): ChainNamespace[] {
  return [...ctx.connected].filter(([, c]) => c === connector).map(([ns]) => ns)
}

/** The connection's accounts per namespace, in order, keeping only addresses the namespace's adapter accepts. */
function accountsByNamespace(ctx: SigilContext, connection: Connection, namespaces: readonly ChainNamespace[]) {
  const grouped = new Map<ChainNamespace, ConnectionAccount[]>()
  for (const account of connection.accounts) {
    if (!namespaces.includes(account.namespace)) continue
    if (ctx.adapters[account.namespace]?.isAddress?.(account.address) === false) continue
    grouped.set(account.namespace, [...(grouped.get(account.namespace) ?? []), account])
  }
  return grouped
}

/**
 * The provider of a connected namespace: the connector's, as the namespace's adapter wrapped it
 * when it connected (what `useAppKitProvider` gives). Undefined while not connected.
 */
export function providerOf(ctx: SigilContext, namespace: ChainNamespace): unknown {
  return ctx.connected.has(namespace) ? ctx.store.getState().providers[namespace]?.provider : undefined
}

/** Handlers of the connectors in use: one subscription per connector, per modal instance. */
const watched = new WeakMap<SigilContext, Map<WalletConnector, () => void>>()

function watchConnector(ctx: SigilContext, connector: WalletConnector, onEvent: (connector: WalletConnector, event: ConnectorEvent) => void): void {
  const map = watched.get(ctx) ?? new Map<WalletConnector, () => void>()
  watched.set(ctx, map)
  if (!map.has(connector))
    map.set(
      connector,
      connector.subscribe((event) => onEvent(connector, event)),
    )
}

/** Stops listening to a connector no namespace uses any more. */
function unwatchUnused(ctx: SigilContext, connector: WalletConnector | undefined): void {
  if (!connector || namespacesOf(ctx, connector).length) return
  watched.get(ctx)?.get(connector)?.()
  watched.get(ctx)?.delete(connector)
}

/** Stops listening to every connector (the modal is destroyed). */
export function unwatchAll(ctx: SigilContext): void {
  for (const unsubscribe of watched.get(ctx)?.values() ?? []) unsubscribe()
  watched.delete(ctx)
}

/**
 * Puts a connection into the store: each namespace it has accounts in becomes connected, with
 * the first account as its address, every account in `allAccounts`, its provider, and the
 * connector remembered. The active namespace, if among them, is applied last so it stays
 * active; otherwise the last one applied becomes active. Returns the namespaces connected.
 */
export function applyConnection(
  ctx: SigilContext,
  connector: WalletConnector,
  connection: Connection,
  namespaces: readonly ChainNamespace[],
  onEvent: (connector: WalletConnector, event: ConnectorEvent) => void,
): ChainNamespace[] {
  const { store } = ctx
  const grouped = accountsByNamespace(ctx, connection, namespaces)
  const active = store.getState().activeNamespace
  const order = [...grouped.keys()].sort((a, b) => Number(a === active) - Number(b === active))
  const { smartAccountEnabledNetworks } = connection
  order.forEach((namespace, i) => {
    const accounts = grouped.get(namespace) as [ConnectionAccount, ...ConnectionAccount[]]
    const [first] = accounts
    // Only the namespace that ends up active may open UnsupportedChain.
    const network = i === order.length - 1 ? syncWalletNetwork(ctx, namespace, first.chainId) : walletNetwork(store.getState(), namespace, first.chainId)
    if (i !== order.length - 1) setNamespaceNetwork(store, network)
    setAccountAddress(store, network, first.address)
    setAccountProps(store, namespace, {
      allAccounts: accounts.map((a) => ({ address: a.address, type: a.type })),
      ...(connection.walletInfo ? { connectedWalletInfo: connection.walletInfo } : {}),
      ...(connection.user ? { user: connection.user, socialProvider: connection.socialProvider } : {}),
    })
    if (smartAccountEnabledNetworks) updateChain(store, namespace, (chain) => ({ network: { ...chain.network, smartAccountEnabledNetworks } }))
    const cached = ctx.storage.getNativeBalance(`${network.caipNetworkId}:${first.address}`)
    if (cached) setAccountProps(store, namespace, { balance: cached.balance, balanceSymbol: cached.symbol })
    const previous = ctx.connected.get(namespace)
    ctx.connected.set(namespace, connector)
    unwatchUnused(ctx, previous)
    setConnectedConnector(ctx, namespace, connection.connectorId)
    const handed = connector.getProvider(namespace)
    const provider = ctx.adapters[namespace]?.wrapProvider?.(handed, { network, accounts }) ?? handed
    store.setState((s) => ({
      providers: { ...s.providers, [namespace]: { provider, type: connector.info.type, connectorId: connector.info.id } },
    }))
    setConnectionStatus(ctx, namespace, 'connected')
  })
  if (order.length) watchConnector(ctx, connector, onEvent)
  return order
}

/**
 * A namespace is no longer connected: account, balances and name, approved networks, provider
 * and the stored connection go; status 'disconnected'.
 */
export function clearConnection(ctx: SigilContext, namespace: ChainNamespace): void {
  ctx.accountData.clear()
  resetAccount(ctx.store, namespace)
  ctx.accountData.reset(namespace, 'account')
  resetNetwork(ctx.store, namespace)
  forgetConnection(ctx, namespace)
  const connector = ctx.connected.get(namespace)
  ctx.connected.delete(namespace)
  unwatchUnused(ctx, connector)
  ctx.store.setState((s) => {
    const { [namespace]: _gone, ...providers } = s.providers
    return { providers }
  })
  setConnectionStatus(ctx, namespace, 'disconnected')
}
