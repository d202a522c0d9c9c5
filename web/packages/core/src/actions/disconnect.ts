import { clearConnection } from '../connection.js'
import { track, type SigilContext } from '../context.js'
import { DisconnectError, toSigilError, type SigilError } from '../errors.js'
import { closeModal } from '../modal.js'
import { resetView } from '../router.js'
import type { SigilState } from '../store.js'
import type { ChainNamespace, ConnectorType } from '../types.js'

export interface DisconnectParameters {
  /** Only this namespace (and those sharing its WalletConnect or Auth connection); every connected one by default. */
  namespace?: ChainNamespace
}

export type DisconnectErrorType = DisconnectError

/** Connector types whose one connection serves several namespaces: ending it ends them all. */
const SHARED_CONNECTION_TYPES: readonly ConnectorType[] = ['WALLET_CONNECT', 'AUTH']

/**
 * The namespaces a disconnect ends (spec section 4): the one asked for, or every connected one;
 * a WalletConnect or Auth connector also takes every other namespace connected through a
 * connector of that type.
 */
export function disconnectTargets(
  state: SigilState,
  typeOf: (namespace: ChainNamespace) => ConnectorType | undefined,
  namespace?: ChainNamespace,
): ChainNamespace[] {
  const connected = (Object.keys(state.chains) as ChainNamespace[]).filter((ns) => state.chains[ns]?.connectionStatus !== 'disconnected')
  const targets = new Set(namespace ? [namespace] : connected)
  for (const target of [...targets]) {
    const type = typeOf(target)
    if (type && SHARED_CONNECTION_TYPES.includes(type)) for (const ns of connected) if (typeOf(ns) === type) targets.add(ns)
  }
  return [...targets]
}

/**
 * Disconnects (spec section 4): each target namespace is settled on its own; its state is
 * cleared whether its wallet answered or not, and success or failure is tracked for each.
 * Failures are combined into one DisconnectError ('Failed to disconnect chain {chain}: …').
 */
export async function disconnect(ctx: SigilContext, params: DisconnectParameters = {}): Promise<void> {
  const { store } = ctx
  const typeOf = (ns: ChainNamespace) => {
    const id = store.getState().chains[ns]?.connectorId
    return (ctx.connected.get(ns) ?? (id ? ctx.connectors.get(id) : undefined))?.info.type
  }
  const targets = disconnectTargets(store.getState(), typeOf, params.namespace)
  const results = await Promise.allSettled(targets.map((ns) => ctx.connected.get(ns)?.disconnect(ns)))
  const failures: { namespace: ChainNamespace; error: SigilError }[] = []
  results.forEach((result, i) => {
    const namespace = targets[i] as ChainNamespace
    // State is cleared either way: a wallet that failed to answer is still gone for the user.
    clearConnection(ctx, namespace)
    if (result.status === 'fulfilled') track(ctx, 'DISCONNECT_SUCCESS', { namespace })
    else {
      const error = toSigilError(result.reason)
      failures.push({ namespace, error })
      track(ctx, 'DISCONNECT_ERROR', { namespace, message: error.message })
    }
  })
  if (store.getState().modal.open) {
    if (ctx.options.embedded) resetView(store, 'Connect')
    else closeModal(ctx, { force: true })
  }
  if (failures.length) throw new DisconnectError(failures)
}
