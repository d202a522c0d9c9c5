import { formatCaipNetworkId } from './caip.js'
import type { SigilContext } from './context.js'
import { isUnsupportedNetwork, unsupportedNetwork } from './networks.js'
import { updateChain, type SigilState, type SigilStore } from './store.js'
import type { CaipNetwork, CaipNetworkId, ChainNamespace } from './types.js'

export function findNetwork(state: SigilState, caipNetworkId: string): CaipNetwork | undefined {
  return state.networks.find((n) => n.caipNetworkId === caipNetworkId)
}

/** Networks of one namespace the host requested, in order. */
export function networksOf(state: SigilState, namespace: ChainNamespace): CaipNetwork[] {
  return state.networks.filter((n) => n.chainNamespace === namespace)
}

/**
 * Makes `network` the active one: its namespace becomes active (flagging a namespace switch
 * when it changes), the namespace's network state follows, and the id is stored.
 */
export function setActiveNetwork(ctx: SigilContext, network: CaipNetwork): void {
  const state = ctx.store.getState()
  const namespaceChanged = state.activeNamespace !== network.chainNamespace
  updateChain(ctx.store, network.chainNamespace, (chain) => ({ network: { ...chain.network, caipNetwork: network } }))
  ctx.store.setState({
    activeNamespace: network.chainNamespace,
    activeCaipNetwork: network,
    isSwitchingNamespace: namespaceChanged,
  })
  ctx.storage.setActiveNamespace(network.chainNamespace)
  ctx.storage.setActiveCaipNetworkId(network.caipNetworkId)
}

/**
 * UnsupportedChain shows when the active network is not among the requested networks,
 * switching is enabled and unsupported chains are not allowed.
 */
export function shouldShowUnsupportedChain(ctx: SigilContext): boolean {
  const state = ctx.store.getState()
  const network = state.activeCaipNetwork
  const requested = state.chains[network.chainNamespace]?.network.requestedCaipNetworkIds ?? []
  return !requested.includes(network.caipNetworkId) && ctx.options.enableNetworkSwitch && !ctx.options.allowUnsupportedChain
}

/** The network a wallet's `chainId` names in `namespace`: a configured one, else the unsupported placeholder. */
export function walletNetwork(state: SigilState, namespace: ChainNamespace, chainId: number | string): CaipNetwork {
  const caipNetworkId = formatCaipNetworkId(namespace, chainId)
  return findNetwork(state, caipNetworkId) ?? unsupportedNetwork(caipNetworkId, chainId)
}

/** Sets the network of a namespace that is not the active one (the active network stays). */
export function setNamespaceNetwork(store: SigilStore, network: CaipNetwork): void {
  updateChain(store, network.chainNamespace, (chain) => ({ network: { ...chain.network, caipNetwork: network } }))
}

/**
 * The wallet reports it is on `chainId` of `namespace`: a configured network becomes active, an
 * unconfigured one as the placeholder (the UnsupportedChain watcher, watchers.ts, shows the
 * warning). Returns the network now active.
 */
export function syncWalletNetwork(ctx: SigilContext, namespace: ChainNamespace, chainId: number | string): CaipNetwork {
  const network = walletNetwork(ctx.store.getState(), namespace, chainId)
  setActiveNetwork(ctx, network)
  return network
}

export function setRequestedNetworks(store: SigilStore, namespace: ChainNamespace, ids: CaipNetworkId[]): void {
  updateChain(store, namespace, (chain) => ({ network: { ...chain.network, requestedCaipNetworkIds: ids } }))
}

export function setApprovedNetworks(store: SigilStore, namespace: ChainNamespace, ids: CaipNetworkId[]): void {
  updateChain(store, namespace, (chain) => ({ network: { ...chain.network, approvedCaipNetworkIds: ids } }))
}

export function setSupportsAllNetworks(store: SigilStore, namespace: ChainNamespace, value: boolean): void {
  updateChain(store, namespace, (chain) => ({ network: { ...chain.network, supportsAllNetworks: value } }))
}

/** Whether the connected wallet can be switched to `network`. */
export function isNetworkAllowed(state: SigilState, network: CaipNetwork): boolean {
  const chain = state.chains[network.chainNamespace]
  if (!chain?.network.requestedCaipNetworkIds.includes(network.caipNetworkId)) return false
  return chain.network.supportsAllNetworks || chain.network.approvedCaipNetworkIds.includes(network.caipNetworkId)
}

/** Adds a network at run time (it becomes a requested network of its namespace). */
export function addNetwork(store: SigilStore, network: CaipNetwork): void {
  if (findNetwork(store.getState(), network.caipNetworkId)) return
  store.setState((state) => ({ networks: [...state.networks, network] }))
  const ids = networksOf(store.getState(), network.chainNamespace).map((n) => n.caipNetworkId)
  setRequestedNetworks(store, network.chainNamespace, ids)
}

/** Removes a network; if it was active, the namespace's first remaining network takes over. */
export function removeNetwork(ctx: SigilContext, caipNetworkId: CaipNetworkId): void {
  const before = ctx.store.getState()
  const removed = findNetwork(before, caipNetworkId)
  if (!removed) return
  ctx.store.setState({ networks: before.networks.filter((n) => n.caipNetworkId !== caipNetworkId) })
  const namespace = removed.chainNamespace
  const remaining = networksOf(ctx.store.getState(), namespace)
  setRequestedNetworks(
    ctx.store,
    namespace,
    remaining.map((n) => n.caipNetworkId),
  )
  const first = remaining[0]
  if (before.activeCaipNetwork.caipNetworkId === caipNetworkId && first) setActiveNetwork(ctx, first)
  else if (before.chains[namespace]?.network.caipNetwork?.caipNetworkId === caipNetworkId) {
    updateChain(ctx.store, namespace, (chain) => ({ network: { ...chain.network, caipNetwork: first } }))
  }
}

/** Reset network: approved networks cleared, supportsAllNetworks true, smart-account networks cleared. */
export function resetNetwork(store: SigilStore, namespace: ChainNamespace): void {
  updateChain(store, namespace, (chain) => ({
    network: { ...chain.network, approvedCaipNetworkIds: [], supportsAllNetworks: true, smartAccountEnabledNetworks: [] },
  }))
}

/** True while the active network is the unsupported placeholder. */
export function isActiveNetworkUnsupported(state: SigilState): boolean {
  return isUnsupportedNetwork(state.activeCaipNetwork)
}
