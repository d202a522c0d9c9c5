import { applyConnection, connectorNamespaces, setConnectionStatus } from '../connection.js'
import { track, type SigilContext } from '../context.js'
import type { Connection } from '../connectors/types.js'
import {
  AdapterNotFoundError,
  ConnectorNotFoundError,
  NoAccountsError,
  toSigilError,
  type SigilError,
  type SwitchChainError,
  type UnauthorizedProviderError,
  type UserRejectedRequestError,
} from '../errors.js'
import { closeModal } from '../modal.js'
import { currentView, resetView } from '../router.js'
import type { Wallet } from '../types.js'
import { handleWalletEvent } from './wallet-events.js'

export interface ConnectParameters {
  /** A connector present in the page (its `info.id`). */
  connectorId: string
  /** The directory wallet picked, remembered among the recent wallets once connected. */
  wallet?: Wallet
  /** Close the modal once connected (default true; it stays on UnsupportedChain anyway). */
  closeOnSuccess?: boolean
}

export type ConnectErrorType =
  | ConnectorNotFoundError
  | AdapterNotFoundError
  | NoAccountsError
  | UserRejectedRequestError
  | UnauthorizedProviderError
  | SwitchChainError
  | SigilError

/**
 * Connects through a page connector: every namespace it serves (and the host configured) is
 * 'connecting', then 'connected' with the accounts the wallet gave, or back to 'disconnected'.
 * Rejects with a SigilError (UserRejectedRequestError, code 4001, when the user declined).
 */
export async function connect(ctx: SigilContext, params: ConnectParameters): Promise<Connection> {
  const { store } = ctx
  const connector = ctx.connectors.get(params.connectorId)
  if (!connector) throw new ConnectorNotFoundError(params.connectorId)
  const namespaces = connectorNamespaces(ctx, connector)
  if (!namespaces.length) throw new AdapterNotFoundError(connector.info.chain)
  for (const namespace of namespaces) setConnectionStatus(ctx, namespace, 'connecting')
  let connection: Connection
  let connected: string[]
  try {
    connection = await connector.connect({ namespaces, networks: store.getState().networks })
    connected = applyConnection(ctx, connector, connection, namespaces, (c, event) => handleWalletEvent(ctx, c, event))
    if (!connected.length) throw new NoAccountsError()
  } catch (error) {
    for (const namespace of namespaces) {
      if (store.getState().chains[namespace]?.connectionStatus === 'connecting') setConnectionStatus(ctx, namespace, 'disconnected')
    }
    const mapped = toSigilError(error)
    track(ctx, 'CONNECT_ERROR', { message: mapped.message })
    throw mapped
  }
  for (const namespace of namespaces) {
    if (!connected.includes(namespace)) setConnectionStatus(ctx, namespace, 'disconnected')
  }
  store.setState({ isSwitchingNamespace: false })
  if (params.wallet) store.setState({ recentWallets: ctx.storage.addRecentWallet(params.wallet) })
  track(ctx, 'CONNECT_SUCCESS', { method: 'browser', name: connector.info.name })
  for (const namespace of namespaces) if (connected.includes(namespace)) void ctx.accountData.refresh(namespace)
  // After connecting the modal is done, unless it now warns about the network.
  const state = store.getState()
  if (params.closeOnSuccess !== false && state.modal.open && currentView(state) !== 'UnsupportedChain') {
    if (ctx.options.embedded) resetView(store, 'Account')
    else closeModal(ctx)
  }
  return connection
}
