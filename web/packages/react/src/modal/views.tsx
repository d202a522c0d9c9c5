/*
 * The view registry: each view's title and component, with its route typed by the view's
 * parameters (ViewParams in @sigil/core). Components load per feature, each feature a chunk of
 * its own, the first time one of its views shows.
 */
import type { ResolvedOptions, RouteEntry, RouteOf, View } from '@sigil/core'
import type { Messages } from '@sigil/core/messages'
import type { ComponentType } from 'react'
import { loadable } from './loadable.js'
import { providerLabel } from './social.js'

export interface ViewProps<V extends View> {
  route: RouteOf<V>
}

interface ViewEntry<V extends View> {
  title(route: RouteOf<V>, m: Messages): string
  component: ComponentType<ViewProps<V>>
  /** Starts loading the view's feature chunk, and the parts of the view `options` turn on. */
  preload(options: ResolvedOptions): Promise<unknown>
}

/** A feature: its chunk, and a way to name each of its views (and to load the parts a view loads on its own). */
function feature<M>(load: () => Promise<M>) {
  return <V extends View>(
    pick: (module: M) => ComponentType<ViewProps<V>>,
    title: (route: RouteOf<V>, m: Messages) => string,
    parts?: (module: M, options: ResolvedOptions) => Promise<unknown>,
  ): ViewEntry<V> => {
    const view = loadable(() => load().then(pick), <div className="state" aria-busy="true" />)
    const preload = (options: ResolvedOptions) => (parts ? Promise.all([view.preload(), load().then((module) => parts(module, options))]) : view.preload())
    return { title, preload, component: view.Component }
  }
}

const connect = feature(() => import('./features/connect.js'))
const account = feature(() => import('./features/account.js'))
const siwx = feature(() => import('./features/siwx.js'))
const email = feature(() => import('./features/email.js'))
const social = feature(() => import('./features/social.js'))

export const views: { [V in View]?: ViewEntry<V> } = {
  Connect: connect(
    (m) => m.ConnectView,
    (_, m) => m.ui.titles.Connect,
    (m, options) => m.preloadConnectView(options),
  ),
  AllWallets: connect(
    (m) => m.AllWalletsView,
    (_, m) => m.ui.titles.AllWallets,
  ),
  ConnectingExternal: connect<'ConnectingExternal'>(
    (m) => m.ConnectingExternalView,
    (r) => r.data.wallet?.name ?? r.data.connector.name,
  ),
  ConnectingWalletConnect: connect<'ConnectingWalletConnect'>(
    (m) => m.ConnectingWalletConnectView,
    (r) => r.data.wallet.name,
  ),
  ConnectingWalletConnectBasic: connect<'ConnectingWalletConnectBasic'>(
    (m) => m.ConnectingWalletConnectView,
    (_, m) => m.ui.titles.Connecting,
  ),
  Account: account(
    (m) => m.AccountView,
    (_, m) => m.ui.titles.Account,
  ),
  Networks: account(
    (m) => m.NetworksView,
    (_, m) => m.ui.titles.Networks,
  ),
  UnsupportedChain: account(
    (m) => m.UnsupportedChainView,
    (_, m) => m.ui.titles.UnsupportedChain,
  ),
  EmailVerifyOtp: email<'EmailVerifyOtp'>(
    (m) => m.EmailVerifyOtpView,
    (_, m) => m.ui.titles.EmailVerifyOtp,
  ),
  EmailVerifyDevice: email<'EmailVerifyDevice'>(
    (m) => m.EmailVerifyDeviceView,
    (_, m) => m.ui.titles.EmailVerifyDevice,
  ),
  UpdateEmail: email<'UpdateEmail'>(
    (m) => m.UpdateEmailView,
    (_, m) => m.ui.titles.UpdateEmail,
  ),
  ApproveTransaction: email<'ApproveTransaction'>(
    (m) => m.ApproveTransactionView,
    (_, m) => m.ui.titles.ApproveTransaction,
  ),
  ExportKey: email<'ExportKey'>(
    (m) => m.ExportKeyView,
    (_, m) => m.ui.titles.ExportKey,
  ),
  ConnectingSocial: social<'ConnectingSocial'>(
    (m) => m.ConnectingSocialView,
    (r, m) => m.ui.connect.continueWith(providerLabel(m.ui, r.data.provider)),
  ),
  ConnectSocials: social(
    (m) => m.ConnectSocialsView,
    (_, m) => m.ui.titles.ConnectSocials,
  ),
  ConnectingFarcaster: social(
    (m) => m.ConnectingFarcasterView,
    (_, m) => m.ui.titles.ConnectingFarcaster,
  ),
  SIWXSignMessage: siwx(
    (m) => m.SIWXSignMessageView,
    (_, m) => m.ui.titles.SIWXSignMessage,
  ),
}

/** The entry of a route's view; typed loosely here, in the one place that renders any view. */
export function viewOf(route: RouteEntry): ViewEntry<View> | undefined {
  return views[route.view] as ViewEntry<View> | undefined
}

/** Header text of a route: the view's own, else its name spelled out. */
export function titleOf(route: RouteEntry, m: Messages): string {
  return viewOf(route)?.title(route as never, m) ?? route.view.replace(/([a-z])([A-Z])/g, '$1 $2')
}

/** Loads the feature chunks of the views likely to show next (with the parts `options` turn on). */
export function preloadViews(names: readonly View[], options: ResolvedOptions): Promise<unknown> {
  return Promise.all(names.map((name) => views[name]?.preload(options)))
}
