import type { ConnectResult } from './adapter.js'
import { resetAccount, setAccountAddress, setAccountProps } from './account.js'
import { forgetConnection, setConnectedConnector, setConnectionStatus } from './connection.js'
import type { SigilContext } from './context.js'
import { findNetwork, setActiveNetwork, syncWalletNetwork } from './network.js'
import type { ChainNamespace } from './types.js'

/** Puts a wallet's answer (address and chain) into the store and remembers the connection. */
export function applyConnection(ctx: SigilContext, namespace: ChainNamespace, result: ConnectResult): void {
  const network = syncWalletNetwork(ctx, namespace, result.chainId)
  setAccountAddress(ctx.store, network, result.address)
  if (result.walletInfo) setAccountProps(ctx.store, namespace, { connectedWalletInfo: result.walletInfo })
  const cached = ctx.storage.getNativeBalance(`${network.caipNetworkId}:${result.address}`)
  if (cached) setAccountProps(ctx.store, namespace, { balance: cached.balance, balanceSymbol: cached.symbol })
  setConnectedConnector(ctx, namespace, result.connectorId)
  setConnectionStatus(ctx, namespace, 'connected')
}

/**
 * Start-up: the stored active network comes back, and every namespace stored as connected is
 * resynced through its adapter without prompting (status 'connecting' meanwhile, then
 * 'connected', or 'disconnected' when the wallet no longer exposes the account). A namespace
 * stored as disconnected has its address caches cleared.
 */
export async function restoreSession(ctx: SigilContext): Promise<void> {
  const { storage } = ctx
  const storedNetworkId = storage.getActiveCaipNetworkId()
  const storedNetwork = storedNetworkId ? findNetwork(ctx.store.getState(), storedNetworkId) : undefined
  if (storedNetwork) setActiveNetwork(ctx, storedNetwork)
  ctx.store.setState({ recentWallets: storage.getRecentWallets(), isSwitchingNamespace: false })

  const namespaces = new Set<ChainNamespace>([...storage.getConnectedNamespaces(), ...(Object.keys(ctx.store.getState().chains) as ChainNamespace[])])
  const resyncs: Promise<void>[] = []
  for (const namespace of namespaces) {
    const status = storage.getConnectionStatus(namespace)
    const connectorId = storage.getConnectedConnectorId(namespace)
    const adapter = ctx.adapters[namespace]
    if (status === 'disconnected') {
      storage.clearAddressCaches()
      continue
    }
    if (status !== 'connected' || !connectorId || !adapter) continue
    setConnectionStatus(ctx, namespace, 'connecting')
    resyncs.push(
      adapter.reconnect(connectorId).then(
        (result) => {
          if (result) return applyConnection(ctx, namespace, result)
          resetAccount(ctx.store, namespace)
          forgetConnection(ctx, namespace)
          setConnectionStatus(ctx, namespace, 'disconnected')
        },
        () => {
          resetAccount(ctx.store, namespace)
          forgetConnection(ctx, namespace)
          setConnectionStatus(ctx, namespace, 'disconnected')
        },
      ),
    )
  }
  await Promise.all(resyncs)
  // The connected namespace wins over a stored active namespace that has nothing connected.
  const state = ctx.store.getState()
  if (!state.chains[state.activeNamespace]?.account.caipAddress) {
    const connected = [...namespaces].find((ns) => state.chains[ns]?.account.caipAddress)
    const network = connected ? state.chains[connected]?.network.caipNetwork : undefined
    if (network) setActiveNetwork(ctx, network)
  }
  ctx.store.setState({ isSwitchingNamespace: false })
}
