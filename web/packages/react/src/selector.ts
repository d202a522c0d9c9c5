import type { SigilState, SigilStore } from '@sigil/core'
import { useCallback, useSyncExternalStore } from 'react'

/**
 * One slice of a modal's store, re-rendering when it changes; `select` must return a stable value
 * (a state part or a primitive). A server render and the browser's hydration both read the state
 * the instance was created with, so they agree (a stored connection being restored shows after).
 */
export function useStoreSelector<T>(store: SigilStore, select: (state: SigilState) => T): T {
  const snapshot = useCallback(() => select(store.getState()), [store, select])
  const created = useCallback(() => select(store.getInitialState()), [store, select])
  return useSyncExternalStore(store.subscribe, snapshot, created)
}
