import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useSyncExternalStore } from 'react'
import type { SigilClient, SigilState, SigilStore } from '@sigil/core'
import type { Messages } from '@sigil/core/messages'
import type { GetWalletsParams, WalletListEntry } from '@sigil/core/api'
import type { AppKit } from '../appkit.js'
import { useStoreSelector } from '../selector.js'
import type { Directory } from './directory.js'
import { formatFor, type Format } from './i18n.js'

export interface ModalContextValue {
  appKit: AppKit
  client: SigilClient
  directory: Directory
  /** The message catalogue the views take their words from, in the modal's locale. */
  messages: Messages
  /** The modal's locale ('en', 'de', 'ar'…), for Intl formatting. */
  locale: string
  dir: 'ltr' | 'rtl'
  /** Shakes the card (an error the user should notice). */
  shake(): void
}

export const ModalContext = createContext<ModalContextValue | null>(null)

export function useModal(): ModalContextValue {
  const value = useContext(ModalContext)
  if (!value) throw new Error('Sigil modal context missing')
  return value
}

/** The words of the modal, from the message catalogue. */
export function useMessages(): Messages {
  return useModal().messages
}

/** Numbers, money and dates written for the modal's locale (Intl), and a keep-left-to-right for text inside sentences. */
export function useFormat(): Format {
  const { locale, dir } = useModal()
  return useMemo(() => formatFor(locale, dir), [locale, dir])
}

/** One slice of the store; `select` must return a stable value. */
export function useStore<T>(select: (state: SigilState) => T): T {
  return useStoreSelector(useModal().client.store, select)
}

/** Runs `run` once the modal is open, at once if it is; returns a cancel. For the effects of a view pre-rendered while the modal is closed. */
export function whenOpen(store: SigilStore, run: () => void): () => void {
  if (store.getState().modal.open) {
    run()
    return () => undefined
  }
  const stop = store.subscribe((state) => {
    if (!state.modal.open) return
    stop()
    run()
  })
  return stop
}

/** Runs `run` once per visit to a view (a ref survives StrictMode's effect replay). */
export function useOnce(run: () => void): void {
  const started = useRef(false)
  useEffect(() => {
    if (started.current) return
    started.current = true
    run()
  }, [run])
}

/** Entries older than this are refreshed when a view shows them (the cached page shows meanwhile). */
const STALE_MS = 60_000

/** A directory page from the cache; fetched (or refreshed in the background) when missing or stale. */
export function useWalletPage(params: GetWalletsParams | undefined, options: { enabled?: boolean } = {}): WalletListEntry | undefined {
  const enabled = options.enabled !== false && params !== undefined
  return useWalletPages(enabled && params ? [params] : NONE)[0]
}

const NONE: readonly GetWalletsParams[] = []

/** Several directory pages from the cache (one per chain family, say), each fetched when missing or stale. */
export function useWalletPages(list: readonly GetWalletsParams[]): readonly WalletListEntry[] {
  const { directory, client } = useModal()
  const key = JSON.stringify(list)
  const last = useRef<readonly WalletListEntry[]>(NO_ENTRIES)
  // biome-ignore lint/correctness/useExhaustiveDependencies: key (the list serialised) stands for list, a new array on every render
  const snapshot = useCallback(() => {
    const entries = list.map((params) => directory.cache.peek(params))
    // The same entries give the same array: the view renders again only when one changed.
    const same = entries.length === last.current.length && entries.every((entry, i) => entry === last.current[i])
    if (!same) last.current = entries
    return last.current
  }, [directory, key])
  const entries = useSyncExternalStore(directory.cache.subscribe, snapshot, snapshot)
  // Checked when the view shows: a view pre-rendered for a closed modal checks when it opens.
  // biome-ignore lint/correctness/useExhaustiveDependencies: key (the list serialised) stands for list, a new array on every render
  useEffect(
    () =>
      whenOpen(client.store, () => {
        for (const params of list) {
          const now = directory.cache.peek(params)
          if (now.loading) continue
          if (!now.page || now.error || now.updatedAt === undefined || Date.now() - now.updatedAt > STALE_MS) {
            directory.cache.load(params).catch(() => undefined)
          }
        }
      }),
    [client, directory, key],
  )
  return entries
}

const NO_ENTRIES: readonly WalletListEntry[] = []
