/*
 * Headless wallet hooks: the page's connectors, the directory's wallets (search and paging),
 * connecting by connector or by wallet, and the WalletConnect pairing URI. No modal: the host
 * draws its own UI on these.
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import {
  ConnectorNotFoundError,
  findConnectorForWallet,
  isWalletConnectConnector,
  toSigilError,
  WALLET_CONNECT_ID,
  walletConnectLink,
  type Connection,
  type Connector,
  type SigilError,
  type SigilState,
  type Wallet,
  type WalletConnectState,
} from '@sigil/core'
import type { GetWalletsParams, WalletListCache, WalletListEntry, WalletListQueries } from '@sigil/core/api'
import type { AppKit } from '../appkit.js'
import { useDebounced } from '../use-debounced.js'
import { useAppKitSelector, useInstance } from '../hooks.js'

/** Search wait before asking the directory (spec section 9). */
const SEARCH_DEBOUNCE_MS = 300

/**
 * The directory as the hooks read it: the pages the modal's All Wallets view asks for
 * (`walletListQueries`, the host's include/exclude ids applied), in a cache of their own. Built
 * on `@sigil/core/api` rather than on the modal's directory module: sharing that module would
 * split it out of the modal's chunk, and the page's first script would name one more file to
 * preload with it.
 */
interface Directory extends WalletListQueries {
  readonly cache: WalletListCache
}

/** One directory per instance, shared by every hook of the page; its code loads with the first list asked for. */
const directories = new WeakMap<AppKit, Promise<Directory>>()

function directoryOf(appKit: AppKit): Promise<Directory> {
  let directory = directories.get(appKit)
  if (!directory) {
    const { options } = appKit.client
    directory = import('@sigil/core/api').then((api) => {
      const client = api.directoryClientFor(options)
      return { cache: api.createWalletListCache(client), ...api.walletListQueries(options, client) }
    })
    directories.set(appKit, directory)
    directory.catch(() => directories.delete(appKit))
  }
  return directory
}

/** The instance's directory once its code has loaded (undefined until then). */
function useDirectory(): Directory | undefined {
  const appKit = useInstance()
  const [loaded, setLoaded] = useState<{ appKit: AppKit; directory: Directory }>()
  useEffect(() => {
    let stopped = false
    directoryOf(appKit).then(
      (directory) => !stopped && setLoaded({ appKit, directory }),
      () => undefined,
    )
    return () => {
      stopped = true
    }
  }, [appKit])
  return loaded?.appKit === appKit ? loaded.directory : undefined
}

const selectConnectors = (s: SigilState) => s.connectors

export interface UseConnectors {
  /**
   * The page's wallets (EIP-6963 announced, the legacy injected one, WalletConnect, the host's
   * own), in the page's order; the embedded wallet is reached through useEmailLogin and
   * useSocialLogin instead.
   */
  connectors: Connector[]
}

/** The connectors present in the page. */
export function useConnectors(): UseConnectors {
  const all = useAppKitSelector(selectConnectors)
  return useMemo(() => ({ connectors: all.filter((c) => c.type !== 'AUTH') }), [all])
}

/** A directory wallet, with its icon and the page connector it is installed as (if it is). */
export interface HeadlessWallet extends Wallet {
  /** The icon's URL (the Sigil server's image of the wallet). */
  imageUrl: string | undefined
  /** The page connector for this wallet, when it is installed here; else it connects through WalletConnect. */
  connector: Connector | undefined
}

export interface UseWalletListParameters {
  /** Filters by name on the server (at most 100 results, no paging); asked `debounceMs` after the last change. */
  search?: string
  /** Default 300. */
  debounceMs?: number
}

export interface UseWalletList {
  /** The wallets of the pages loaded so far (or the search's results). */
  wallets: HeadlessWallet[]
  /** How many wallets the directory has (or the search found). */
  count: number
  /** The search the list shows (`search` once it settled). */
  search: string
  /** A page is on its way. */
  isLoading: boolean
  /** The last page failed (the pages before it stay). */
  error: Error | undefined
  /** More pages can be loaded with loadMore(). */
  hasMore: boolean
  /** Loads the next page (40 wallets). */
  loadMore(): void
  /** Asks again for the page that failed. */
  retry(): void
}

const EMPTY: WalletListEntry = { page: undefined, error: undefined, loading: false, updatedAt: undefined }

/**
 * The directory's wallets, 40 a page (the host's include/exclude ids applied), or those whose
 * name matches `search`; each with its icon and, when installed in the page, its connector.
 */
export function useWalletList(params: UseWalletListParameters = {}): UseWalletList {
  const directory = useDirectory()
  const search = useDebounced(params.search?.trim() ?? '', params.debounceMs ?? SEARCH_DEBOUNCE_MS, (v) => v === '')
  const connectors = useAppKitSelector(selectConnectors)
  const [pages, setPages] = useState(1)
  // A new search starts from the first page again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: search is what resets the pages
  useEffect(() => setPages(1), [search])
  const wanted = useMemo<GetWalletsParams[]>(() => {
    if (!directory) return []
    if (search) return [directory.searchParams(search)]
    return Array.from({ length: pages }, (_, i) => directory.pageParams(i + 1))
  }, [directory, search, pages])

  // The entries, read again on every change of the cache: the same entries give the same array.
  const last = useRef<WalletListEntry[]>([])
  const snapshot = useCallback(() => {
    const entries = directory ? wanted.map((p) => directory.cache.peek(p)) : []
    const same = entries.length === last.current.length && entries.every((e, i) => e === last.current[i])
    if (!same) last.current = entries
    return last.current
  }, [directory, wanted])
  const subscribe = useCallback((onChange: () => void) => directory?.cache.subscribe(onChange) ?? (() => undefined), [directory])
  const entries = useSyncExternalStore(subscribe, snapshot, snapshot)

  // Each page wanted and not cached is asked for (once; a failed one waits for retry()).
  useEffect(() => {
    if (!directory) return
    for (const p of wanted) {
      const now = directory.cache.peek(p)
      if (!now.page && !now.loading && !now.error) directory.cache.load(p).catch(() => undefined)
    }
  }, [directory, wanted])

  const lastEntry = entries[entries.length - 1] ?? EMPTY
  const wallets = useMemo(
    () =>
      entries.flatMap((e) =>
        (e.page?.data ?? []).map((wallet) => ({
          ...wallet,
          imageUrl: directory?.walletImage(wallet),
          connector: findConnectorForWallet(connectors, wallet),
        })),
      ),
    [entries, directory, connectors],
  )
  const count = entries[0]?.page?.count ?? 0
  const hasMore = !search && lastEntry.page !== undefined && lastEntry.page.data.length > 0 && wallets.length < count
  const loadMore = useCallback(() => {
    if (hasMore && !lastEntry.loading) setPages((n) => n + 1)
  }, [hasMore, lastEntry])
  const retry = useCallback(() => {
    const failed = wanted[wanted.length - 1]
    if (directory && failed) directory.cache.load(failed).catch(() => undefined)
  }, [directory, wanted])
  return useMemo(
    () => ({
      wallets,
      count,
      search,
      isLoading: !directory || lastEntry.loading || (!lastEntry.page && !lastEntry.error),
      error: lastEntry.error,
      hasMore,
      loadMore,
      retry,
    }),
    [wallets, count, search, directory, lastEntry, hasMore, loadMore, retry],
  )
}

/** What to connect: a page connector (by id or as listed by useConnectors), or a directory wallet. */
export type ConnectTarget = { connectorId: string } | { connector: Pick<Connector, 'id'> } | { wallet: Wallet }

export interface UseConnect {
  /**
   * Connects (see `connect` of `@sigil/core`): a wallet installed in the page through its
   * connector, any other directory wallet through WalletConnect (its pairing URI in
   * useWalletConnectUri meanwhile). Resolves to the connection, or undefined when it failed
   * (`error` says why).
   */
  connect(target: ConnectTarget): Promise<Connection | undefined>
  /** The same, rejecting with the error (UserRejectedRequestError, code 4001, when the user declined). */
  connectAsync(target: ConnectTarget): Promise<Connection>
  /** What is being connected (or was last). */
  target: ConnectTarget | undefined
  data: Connection | undefined
  error: SigilError | undefined
  isPending: boolean
  reset(): void
}

interface ConnectState {
  target: ConnectTarget | undefined
  data: Connection | undefined
  error: SigilError | undefined
  isPending: boolean
}

const IDLE_CONNECT: ConnectState = { target: undefined, data: undefined, error: undefined, isPending: false }

/** The page connector `target` names, and the directory wallet to remember among the recent ones. */
function resolveTarget(connectors: readonly Connector[], target: ConnectTarget): { connectorId: string; wallet?: Wallet } {
  if ('connectorId' in target) return { connectorId: target.connectorId }
  if ('connector' in target) return { connectorId: target.connector.id }
  const installed = findConnectorForWallet(connectors, target.wallet)
  if (installed) return { connectorId: installed.id, wallet: target.wallet }
  if (connectors.some((c) => c.id === WALLET_CONNECT_ID)) return { connectorId: WALLET_CONNECT_ID, wallet: target.wallet }
  throw new ConnectorNotFoundError(target.wallet.id)
}

/** Connects a wallet without the modal (wagmi's `useConnect` shape). */
export function useConnect(): UseConnect {
  const appKit = useInstance()
  const [state, setState] = useState<ConnectState>(IDLE_CONNECT)
  const attempt = useRef(0)
  const connectAsync = useCallback(
    async (target: ConnectTarget) => {
      const id = ++attempt.current
      setState({ target, data: undefined, error: undefined, isPending: true })
      try {
        const { client } = appKit
        const { connectorId, wallet } = resolveTarget(client.store.getState().connectors, target)
        const data = await client.connect(connectorId, wallet ? { wallet } : {})
        if (id === attempt.current) setState({ target, data, error: undefined, isPending: false })
        return data
      } catch (cause) {
        const error = toSigilError(cause)
        if (id === attempt.current) setState({ target, data: undefined, error, isPending: false })
        throw error
      }
    },
    [appKit],
  )
  const connect = useCallback((target: ConnectTarget) => connectAsync(target).catch(() => undefined), [connectAsync])
  const reset = useCallback(() => {
    attempt.current++
    setState(IDLE_CONNECT)
  }, [])
  return useMemo(() => ({ ...state, connect, connectAsync, reset }), [state, connect, connectAsync, reset])
}

export interface UseWalletConnectUri {
  /** The `wc:` pairing URI of the connection under way (for a QR code or a copy button), while it is offered. */
  uri: string | undefined
  /** The pairing: 'idle' | 'loading' | 'ready' (the URI is offered) | 'expired' | 'error'. */
  pairing: WalletConnectState['pairing']
  /** The relay's socket: 'idle' | 'connected' | 'reconnecting' | 'disconnected'. */
  relay: WalletConnectState['relay']
  /** When the URI stops being offered (ms since the epoch); a new one replaces it. */
  expiresAt: number | undefined
  /** What went wrong last (relay lost, 'Session Expired', SDK not loaded). */
  error: WalletConnectState['error']
  /** The URI in a directory wallet's own link (its mobile app by default): opens that wallet with the pairing. */
  walletLink(wallet: Wallet, kind?: 'mobile' | 'desktop' | 'web'): string | undefined
  /** Stops waiting for the wallet: the pending connect fails as cancelled. */
  cancel(): void
}

const IDLE_WC: WalletConnectState = { pairing: 'idle', relay: 'idle' }
const noop = () => undefined

/**
 * The WalletConnect pairing of a connect under way (`useConnect().connect({ wallet })` of a wallet
 * not installed here, or `{ connectorId: 'walletConnect' }`): its URI for the host's QR code.
 */
export function useWalletConnectUri(): UseWalletConnectUri {
  const appKit = useInstance()
  // The connector joins the page's list once its source has started: read again when the list changes.
  const connectors = useAppKitSelector(selectConnectors)
  // (Read from the page's connectors rather than with `walletConnectOf`: that selector's module
  // loads with the modal's chunk, and sharing it would split it out of there.)
  // biome-ignore lint/correctness/useExhaustiveDependencies: connectors: a WalletConnect connector may join later
  const connector = useMemo(() => {
    const found = appKit.client.context.connectors.get(WALLET_CONNECT_ID)
    return isWalletConnectConnector(found) ? found : undefined
  }, [appKit, connectors])
  const subscribe = useCallback((onChange: () => void) => connector?.subscribeState(onChange) ?? noop, [connector])
  const read = useCallback(() => connector?.getState() ?? IDLE_WC, [connector])
  const state = useSyncExternalStore(subscribe, read, read)
  return useMemo(() => {
    const uri = state.pairing === 'ready' ? state.uri : undefined
    return {
      uri,
      pairing: state.pairing,
      relay: state.relay,
      expiresAt: state.expiresAt,
      error: state.error,
      walletLink: (wallet: Wallet, kind: 'mobile' | 'desktop' | 'web' = 'mobile') =>
        uri ? walletConnectLink(kind === 'mobile' ? wallet.mobile_link : kind === 'desktop' ? wallet.desktop_link : wallet.webapp_link, uri) : undefined,
      cancel: () => connector?.cancel(),
    }
  }, [state, connector])
}
