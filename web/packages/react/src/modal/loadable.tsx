import { createElement, useEffect, useState, type ComponentType, type ReactNode } from 'react'

export interface Loadable<P extends object> {
  /** Starts loading the component's chunk (once); resolves when it is there. */
  preload(): Promise<unknown>
  /** Renders the component, or `fallback` until its chunk has loaded. */
  Component: ComponentType<P>
}

/**
 * A component from an on-demand chunk. Unlike React.lazy it renders at once when the chunk is
 * already loaded (prefetched while the page was idle): no Suspense round, so none of React's
 * 300 ms wait before revealing suspended content.
 */
export function loadable<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = null): Loadable<P> {
  let loaded: ComponentType<P> | undefined
  let pending: Promise<unknown> | undefined
  const preload = () => {
    pending ??= load().then(
      (component) => {
        loaded = component
      },
      (error: unknown) => {
        // A chunk that failed to load is tried again next time.
        pending = undefined
        throw error
      },
    )
    return pending
  }
  function Component(props: P) {
    const [, setLoaded] = useState(loaded !== undefined)
    useEffect(() => {
      if (loaded) return
      let current = true
      preload().then(
        () => current && setLoaded(true),
        () => undefined,
      )
      return () => {
        current = false
      }
    }, [])
    return loaded ? createElement(loaded, props) : fallback
  }
  return { preload, Component }
}
