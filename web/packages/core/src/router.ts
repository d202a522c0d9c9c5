import type { RouteEntry, RouteOf, SigilState, SigilStore, View, ViewArgs } from './store.js'
import type { Connector, Wallet } from './types.js'

export function currentRoute(state: SigilState): RouteEntry {
  // The history is never empty; 'Connect' guards a store edited by hand.
  return state.router.history[state.router.history.length - 1] ?? { view: 'Connect' }
}

export function currentView(state: SigilState): View {
  return currentRoute(state).view
}

/** The history entry for `view` and its parameters (checked by the callers' signatures). */
export function routeEntry<V extends View>(view: V, ...[data]: ViewArgs<V>): RouteEntry {
  return (data ? { view, data } : { view }) as RouteEntry
}

/** Shows `view` on top of the history. Pushing the view already shown only updates its data. */
export function pushView<V extends View>(store: SigilStore, view: V, ...args: ViewArgs<V>): void {
  store.setState((state) => {
    const history = state.router.history
    const top = history[history.length - 1]
    if (top?.view === view) return { router: { history: [...history.slice(0, -1), args.length ? routeEntry(view, ...args) : top] } }
    return { router: { history: [...history, routeEntry(view, ...args)] } }
  })
}

/** Swaps the shown view for `view` (no new history entry). */
export function replaceView<V extends View>(store: SigilStore, view: V, ...args: ViewArgs<V>): void {
  store.setState((state) => ({ router: { history: [...state.router.history.slice(0, -1), routeEntry(view, ...args)] } }))
}

/** Makes `view` the only entry. */
export function resetView<V extends View>(store: SigilStore, view: V, ...args: ViewArgs<V>): void {
  store.setState({ router: { history: [routeEntry(view, ...args)] } })
}

/** Makes `route` the only entry. */
export function resetRoute(store: SigilStore, route: RouteEntry): void {
  store.setState({ router: { history: [route] } })
}

/** Shows `route` on top of the history (or updates it when its view is shown). */
export function pushRoute(store: SigilStore, route: RouteEntry): void {
  store.setState((state) => {
    const history = state.router.history
    const top = history[history.length - 1]
    return { router: { history: top?.view === route.view ? [...history.slice(0, -1), route] : [...history, route] } }
  })
}

/** Whether going back should close the modal: one view left, or UnsupportedChain in the stack. */
export function goingBackCloses(state: SigilState): boolean {
  const history = state.router.history
  return history.length <= 1 || history.some((e) => e.view === 'UnsupportedChain')
}

/** Removes the shown view. Callers check `goingBackCloses` first (see `goBack` in modal.ts). */
export function popView(store: SigilStore): void {
  store.setState((state) => (state.router.history.length > 1 ? { router: { history: state.router.history.slice(0, -1) } } : {}))
}

export interface OpenViewInput {
  /** The view the caller asked for. */
  requested?: View
  isConnected: boolean
  hasAdapters: boolean
  isMobile: boolean
}

/**
 * The view open() shows (spec section 2): the requested one, else Account when connected, else
 * Connect; with no adapters and nothing connected, AllWallets on mobile and
 * ConnectingWalletConnectBasic elsewhere.
 */
export function pickOpenView({ requested, isConnected, hasAdapters, isMobile }: OpenViewInput): View {
  if (requested) return requested
  if (isConnected) return 'Account'
  if (!hasAdapters) return isMobile ? 'AllWallets' : 'ConnectingWalletConnectBasic'
  return 'Connect'
}

/**
 * The page connector for a directory wallet: same explorer id, or the wallet's EIP-6963 rdns,
 * or one of its injected ids (e.g. `isMetaMask`) used as connector id.
 */
export function findConnectorForWallet(connectors: readonly Connector[], wallet: Wallet): Connector | undefined {
  const rdns = wallet.rdns?.toLowerCase()
  const injectedIds = new Set((wallet.injected ?? []).map((i) => i.injected_id))
  return (
    connectors.find((c) => c.explorerId !== undefined && c.explorerId === wallet.id) ??
    connectors.find((c) => rdns !== undefined && (c.rdns?.toLowerCase() === rdns || c.id.toLowerCase() === rdns)) ??
    connectors.find((c) => injectedIds.has(c.id))
  )
}

/** Selecting a wallet: ConnectingExternal with its connector when one is present, else ConnectingWalletConnect. */
export function selectWalletView(connectors: readonly Connector[], wallet: Wallet): RouteOf<'ConnectingExternal'> | RouteOf<'ConnectingWalletConnect'> {
  const connector = findConnectorForWallet(connectors, wallet)
  return connector ? { view: 'ConnectingExternal', data: { wallet, connector } } : { view: 'ConnectingWalletConnect', data: { wallet } }
}
