import type { SigilContext } from './context.js'
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
