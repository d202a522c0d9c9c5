import { walletBrowserLink } from './deeplink.js'
import { track, type SigilContext } from './context.js'
import { currentView, goingBackCloses, pickOpenView, popView, pushRoute, resetRoute, resetView, selectWalletView } from './router.js'
import type { RouteEntry, SigilState, SigilStore, View } from './store.js'
import type { Wallet } from './types.js'
import { siwxBlocksClose } from './features/siwx/guard.js'

/** Whether the active namespace has a connected address. */
export function isConnected(state: SigilState): boolean {
  return state.chains[state.activeNamespace]?.account.caipAddress !== undefined
}

/** The view to open on, with its parameters (the routing rules pick one when none is given). */
export type OpenOptions = RouteEntry | { view?: undefined; data?: undefined }

/** Whether the history is already just `route` (same view, same data): opening on it changes nothing (and notifies no one). */
function showsOnly(state: SigilState, route: RouteEntry): boolean {
  const only = state.router.history.length === 1 ? state.router.history[0] : undefined
  return only !== undefined && only.view === route.view && only.data === route.data
}

/** The view open() shows when none is asked for, by the routing rules (the UI pre-renders it). */
export function openingView(ctx: SigilContext, state: SigilState = ctx.store.getState()): View {
  return pickOpenView({ isConnected: isConnected(state), hasAdapters: Object.keys(ctx.adapters).length > 0, isMobile: ctx.isMobile() })
}

/** Opens the modal on the view the routing rules pick and tracks MODAL_OPEN. */
export function openModal(ctx: SigilContext, options: OpenOptions = {}): void {
  const state = ctx.store.getState()
  const route: RouteEntry = options.view ? options : ({ view: openingView(ctx, state) } as RouteEntry)
  // Already open with an explicit view (e.g. UnsupportedChain while browsing): stack it.
  if (state.modal.open && options.view) pushRoute(ctx.store, route)
  else if (!showsOnly(state, route)) resetRoute(ctx.store, route)
  ctx.store.setState({ modal: { ...ctx.store.getState().modal, open: true } })
  track(ctx, 'MODAL_OPEN', { connected: isConnected(state) })
}

export interface CloseOptions {
  /** Close even where closing is blocked (ApproveTransaction). */
  force?: boolean
}

/**
 * Closes the modal. Returns false when closing is blocked: the ApproveTransaction view, or the
 * SIWXSignMessage view while sign-in is required and no session exists, without `force`. Embedded modals never hide: they go back to Account when connected, else Connect.
 * MODAL_CLOSE is tracked only when the modal was open.
 */
export function closeModal(ctx: SigilContext, options: CloseOptions = {}): boolean {
  const state = ctx.store.getState()
  if (!options.force && currentView(state) === 'ApproveTransaction') return false
  // Required sign-in without a session: the sign-in view stays.
  if (!options.force && siwxBlocksClose(ctx)) return false
  if (ctx.options.embedded) {
    resetView(ctx.store, isConnected(state) ? 'Account' : 'Connect')
    return true
  }
  const wasOpen = state.modal.open
  ctx.store.setState({ modal: { open: false, loading: false } })
  if (wasOpen) track(ctx, 'MODAL_CLOSE', { connected: isConnected(state) })
  return true
}

/** Back button: pops the history, or closes when one view is left or UnsupportedChain is in the stack. */
export function goBack(ctx: SigilContext): void {
  if (goingBackCloses(ctx.store.getState())) closeModal(ctx)
  else popView(ctx.store)
}

export function setModalLoading(store: SigilStore, loading: boolean): void {
  store.setState((state) => ({ modal: { ...state.modal, loading } }))
}

/**
 * A wallet picked from a list: ConnectingExternal when the page has its connector, else
 * ConnectingWalletConnect. On mobile, Phantom without its extension and Coinbase Wallet on
 * Solana without its Solana provider open the page in their own browser instead (spec section 2).
 */
export function selectWallet(ctx: SigilContext, wallet: Wallet): View {
  const state = ctx.store.getState()
  const location = (globalThis as { location?: { href: string; assign?(url: string): void } }).location
  if (ctx.isMobile() && location?.href) {
    const link = walletBrowserLink(wallet, state.connectors, state.activeNamespace, location.href)
    if (link) {
      track(ctx, 'SELECT_WALLET', { name: wallet.name, platform: 'browser-deeplink' })
      location.assign?.(link)
      return currentView(state)
    }
  }
  const route = selectWalletView(state.connectors, wallet)
  pushRoute(ctx.store, route)
  return route.view
}
