import type { Wallet } from '@sigil/core'
import type { WalletListCache } from '@sigil/core/api'
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react'
import { useMessages, useModal, useWalletPage } from '../../context.js'
import { SEARCH_DEBOUNCE_MS } from '../../directory.js'
import { Icons, RemoteImage, SearchField } from '../../ui.js'
import { useDebounced } from '../../../use-debounced.js'

/** Re-renders on every cache change. */
function useCacheVersion(cache: WalletListCache): number {
  const [version, setVersion] = useState(0)
  useEffect(() => cache.subscribe(() => setVersion((v) => v + 1)), [cache])
  return version
}

function WalletTile({ wallet }: { wallet: Wallet }) {
  const { client, directory } = useModal()
  return (
    <li>
      <button type="button" className="tile" onClick={() => client.selectWallet(wallet)} title={wallet.name}>
        <RemoteImage src={directory.walletImage(wallet)} name={wallet.name} />
        <span className="label">{wallet.name}</span>
      </button>
    </li>
  )
}

function Skeletons({ count }: { count: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity and never reorder
        <li key={`s${i}`} aria-hidden="true">
          <div className="tile skeleton">
            <span className="img" data-state="loading" />
            <span className="label" />
          </div>
        </li>
      ))}
    </>
  )
}

function ErrorState({ onRetry }: { onRetry: () => void }) {
  const ui = useMessages().ui
  return (
    <div className="state" role="alert">
      <Icons.alert />
      <p className="sub">{ui.allWallets.couldNotLoad}</p>
      <button type="button" className="btn secondary" onClick={onRetry}>
        {ui.tryAgain}
      </button>
    </div>
  )
}

/** Every directory wallet, 40 a page, the next page loading as the end of the grid scrolls into view. */
function PagedGrid({ scrollRoot }: { scrollRoot: RefObject<HTMLDivElement | null> }) {
  const { directory } = useModal()
  const ui = useMessages().ui
  const { cache } = directory
  const [pages, setPages] = useState(() => {
    // Pages already cached (coming back to this view) show at once.
    let n = 1
    while (cache.peek(directory.pageParams(n + 1)).page) n++
    return n
  })
  const version = useCacheVersion(cache)
  // biome-ignore lint/correctness/useExhaustiveDependencies: version (bumped on every cache change) makes the pages be read again
  const entries = useMemo(() => Array.from({ length: pages }, (_, i) => cache.peek(directory.pageParams(i + 1))), [cache, directory, pages, version])
  const last = entries[entries.length - 1]
  const total = entries[0]?.page?.count ?? 0
  const wallets = useMemo(() => entries.flatMap((e) => e.page?.data ?? []), [entries])
  const hasMore = last?.page !== undefined && last.page.data.length > 0 && wallets.length < total
  const sentinel = useRef<HTMLDivElement>(null)

  // Load the newest page when it is not cached yet (page 1 may already be from the prefetch).
  useEffect(() => {
    const params = directory.pageParams(pages)
    const now = cache.peek(params)
    if (!now.page && !now.loading && !now.error) cache.load(params).catch(() => undefined)
  }, [cache, directory, pages])

  // Infinite scroll: the sentinel entering the scroll area asks for the next page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: observing again after each page fires again when the sentinel is still in view
  useEffect(() => {
    const target = sentinel.current
    if (!target || !hasMore || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver(
      (records) => {
        if (records.some((r) => r.isIntersecting)) setPages((n) => n + 1)
      },
      { root: scrollRoot.current, rootMargin: '0px 0px 240px 0px' },
    )
    observer.observe(target)
    return () => observer.disconnect()
  }, [hasMore, pages, scrollRoot])

  if (entries[0]?.error && !entries[0].page) {
    return <ErrorState onRetry={() => cache.load(directory.pageParams(1)).catch(() => undefined)} />
  }
  if (entries[0]?.page && total === 0) {
    return (
      <div className="state">
        <p className="sub">{ui.allWallets.none}</p>
      </div>
    )
  }
  return (
    <>
      <ul className="grid" aria-label={ui.connect.wallets} aria-busy={last?.loading ?? false} data-testid="all-wallets-grid">
        {wallets.map((w) => (
          <WalletTile key={w.id} wallet={w} />
        ))}
        {last?.loading || (!last?.page && !last?.error) ? <Skeletons count={wallets.length ? 8 : 20} /> : null}
      </ul>
      {last?.error && last !== entries[0] ? (
        <div className="more">
          <button type="button" className="btn secondary" onClick={() => cache.load(directory.pageParams(pages)).catch(() => undefined)}>
            {ui.tryAgain}
          </button>
        </div>
      ) : null}
      {hasMore ? <div ref={sentinel} className="sentinel" data-testid="all-wallets-sentinel" /> : null}
      {hasMore && typeof IntersectionObserver === 'undefined' ? (
        <div className="more">
          <button type="button" className="btn secondary" onClick={() => setPages((n) => n + 1)}>
            {ui.allWallets.loadMore}
          </button>
        </div>
      ) : null}
    </>
  )
}

function SearchResults({ search }: { search: string }) {
  const { directory } = useModal()
  const m = useMessages().ui.allWallets
  const params = useMemo(() => directory.searchParams(search), [directory, search])
  const entry = useWalletPage(params)
  if (entry?.error && !entry.page) return <ErrorState onRetry={() => directory.cache.load(params).catch(() => undefined)} />
  if (!entry?.page) {
    return (
      <ul className="grid" aria-label={m.searchResults} aria-busy="true">
        <Skeletons count={8} />
      </ul>
    )
  }
  const wallets = entry.page.data.slice(0, 100)
  if (wallets.length === 0) {
    return (
      <div className="state" role="status">
        <p className="sub">{m.noneFound(search)}</p>
      </div>
    )
  }
  return (
    <ul className="grid" aria-label={m.searchResults} data-testid="search-results">
      {wallets.map((w) => (
        <WalletTile key={w.id} wallet={w} />
      ))}
    </ul>
  )
}

/** All Wallets: search (300 ms wait, at most 100 results) over a paged grid. */
export function AllWalletsView() {
  const m = useMessages().ui.allWallets
  const [query, setQuery] = useState('')
  // Clearing the field shows the full list at once; typing waits 300 ms before asking the server.
  const search = useDebounced(query.trim(), SEARCH_DEBOUNCE_MS, (v) => v === '')
  const scrollRoot = useRef<HTMLDivElement>(null)
  return (
    <div>
      <SearchField label={m.search} value={query} onChange={setQuery} />
      <div className="scroll" ref={scrollRoot} style={{ height: 420 }}>
        {search ? <SearchResults search={search} /> : <PagedGrid scrollRoot={scrollRoot} />}
      </div>
    </div>
  )
}
