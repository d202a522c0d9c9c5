/*
 * The view registry: every feature's views (declared in features/<name>/views.ts), by name.
 * A view the registry lacks shows "not yet" (Modal.tsx).
 */
import type { ResolvedOptions, RouteEntry, View } from '@sigil/core'
import type { Messages } from '@sigil/core/messages'
import { accountViews } from './features/account/views.js'
import { connectViews } from './features/connect/views.js'
import { emailViews } from './features/email/views.js'
import { nameViews } from './features/names/views.js'
import { nftViews } from './features/nfts/views.js'
import { onrampViews } from './features/onramp/views.js'
import { payViews } from './features/pay/views.js'
import { receiveViews } from './features/receive/views.js'
import { sendViews } from './features/send/views.js'
import { siwxViews } from './features/siwx/views.js'
import { swapViews } from './features/swap/views.js'
import { socialViews } from './features/social/views.js'
import type { ViewEntries, ViewEntry } from './registry.js'

export type { ViewProps } from './registry.js'

export const views: ViewEntries = {
  ...connectViews,
  ...accountViews,
  ...emailViews,
  ...socialViews,
  ...siwxViews,
  ...sendViews,
  ...swapViews,
  ...onrampViews,
  ...payViews,
  ...nameViews,
  ...receiveViews,
  ...nftViews,
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
