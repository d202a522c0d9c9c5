import { setAccountAddress, setAccountProps } from '../account.js'
import { clearConnection, namespacesOf } from '../connection.js'
import type { SigilContext } from '../context.js'
import type { ConnectorEvent, WalletConnector } from '../connectors/types.js'
import { syncWalletNetwork } from '../network.js'

/**
 * What a connector reports from its wallet, applied to the namespaces it serves: another
 * account (none left disconnects the namespace), another chain (possibly an unsupported one),
 * or the wallet ending the connection. Events of a connector a namespace no longer uses are
 * ignored.
 */
export function handleWalletEvent(ctx: SigilContext, connector: WalletConnector, event: ConnectorEvent): void {
  const { store } = ctx
  if (event.type === 'disconnect') {
    const namespaces = event.namespace ? [event.namespace] : namespacesOf(ctx, connector)
    for (const namespace of namespaces) {
      if (ctx.connected.get(namespace) === connector && store.getState().chains[namespace]?.connectionStatus !== 'disconnected') clearConnection(ctx, namespace)
    }
    return
  }
  const { namespace } = event
  const chain = store.getState().chains[namespace]
  if (ctx.connected.get(namespace) !== connector || chain?.connectionStatus !== 'connected') return

  if (event.type === 'accountsChanged') {
    const adapter = ctx.adapters[namespace]
    const accounts = event.accounts.filter((a) => adapter?.isAddress?.(a) !== false)
    const [address] = accounts
    if (!address) {
      clearConnection(ctx, namespace)
      return
    }
    const type = chain.account.allAccounts[0]?.type ?? 'eoa'
    setAccountProps(store, namespace, { allAccounts: accounts.map((a) => ({ address: a, type })) })
    const network = chain.network.caipNetwork
    if (!network || address === chain.account.address) return
    setAccountAddress(store, network, address)
    // What belonged to the previous account goes before the new one's is fetched.
    ctx.accountData.reset(namespace, 'account')
    void ctx.accountData.refresh(namespace)
    return
  }

  const network = syncWalletNetwork(ctx, namespace, event.chainId)
  const address = chain.account.address
  if (address) setAccountAddress(store, network, address)
  if (chain.network.caipNetwork?.caipNetworkId === network.caipNetworkId) return
  ctx.accountData.reset(namespace, 'network')
  void ctx.accountData.refresh(namespace)
}
