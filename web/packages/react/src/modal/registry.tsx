/*
 * The typed view registry's parts: a view's entry (its title and component, its route typed by
 * the view's parameters, ViewParams in @sigil/core) and how a feature declares its views. Each
 * feature declares its own entries beside its views (features/<name>/views.ts); ./views.tsx
 * joins them. Components load per feature, each feature a chunk of its own, the first time one
 * of its views shows.
 */
import type { ResolvedOptions, RouteOf, View } from '@sigil/core'
import type { Messages } from '@sigil/core/messages'
import type { ComponentType } from 'react'
import { loadable } from './loadable.js'

export interface ViewProps<V extends View> {
  route: RouteOf<V>
}

export interface ViewEntry<V extends View> {
  title(route: RouteOf<V>, m: Messages): string
  component: ComponentType<ViewProps<V>>
  /** Starts loading the view's feature chunk, and the parts of the view `options` turn on. */
  preload(options: ResolvedOptions): Promise<unknown>
}

/** Some views' entries, each typed by its own view. */
export type ViewEntries = { [V in View]?: ViewEntry<V> }

/** A feature: its chunk, and a way to name each of its views (and to load the parts a view loads on its own). */
export function feature<M>(load: () => Promise<M>) {
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
