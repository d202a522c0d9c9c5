import type { SigilState } from '@sigil/core'
import { activeNetwork, activeNftAccount, fetchNfts, nftsState, type Nft } from '@sigil/core/nfts'
import { useEffect, useMemo, useRef, type ReactNode } from 'react'
import { useMessages, useModal, useStore } from '../../context.js'
import { useNextPageOnScroll } from '../../next-page.js'
import { Icons } from '../../ui.js'
import { NftImage } from './NftImage.js'
import { NftStyles } from './styles.js'

const selectNfts = (s: SigilState) => s.nfts

/** Placeholder cards while the first page loads: two rows of the grid. */
const SKELETON_CARDS = 6

/**
 * The Account view's NFTs tab: the NFTs the active account holds on the active network, newest
 * first, in a grid (3 columns in the 360 px modal) of cards that open the NFT; the next page
 * when the end of the grid scrolls into view (or 'Load more'); a failure said in the tab, with
 * a way to try again. Coming back to the tab keeps the grid and asks for its first page again.
 */
export function NftList() {
  const { client } = useModal()
  const m = useMessages().ui.nfts
  const nfts = useStore(selectNfts)
  const account = useStore(activeNftAccount)
  const network = useStore(activeNetwork)
  const state = useMemo(() => nftsState(nfts, account), [nfts, account])
  const scrollRef = useRef<HTMLDivElement>(null)
  const sentinel = useRef<HTMLDivElement>(null)
  const { items, status } = state
  const loading = status === 'loading'
  const more = typeof state.next === 'string'

  // The list of the account and network shown: another one starts a new list; one shown before
  // stays while its first page is asked again (what arrived since).
  useEffect(() => {
    if (!account) return
    const shown = nftsState(client.store.getState().nfts, account).status === 'ready'
    void fetchNfts(client, shown ? { refresh: true } : {})
  }, [client, account])

  // The end of the grid scrolling into view asks for the next page (not again after a failure:
  // that waits for 'Try again').
  useNextPageOnScroll(sentinel, scrollRef, more && !loading && status !== 'failed', items.length, () => void fetchNfts(client, { next: true }))

  const refresh = (
    <div className="tokens-head">
      <span />
      <button
        type="button"
        className="icon-btn refresh"
        aria-label={m.refresh}
        aria-busy={loading}
        onClick={() => void fetchNfts(client, items.length ? { refresh: true } : {})}
        data-testid="nfts-refresh"
      >
        <Icons.refresh />
      </button>
    </div>
  )

  let body: ReactNode
  if (status === 'unsupported') {
    body = <Note text={m.unsupported(network.name)} testId="nfts-unsupported" />
  } else if (items.length === 0 && status === 'failed') {
    body = <Note text={m.failed} error retry={() => void fetchNfts(client)} retryLabel={m.retry} testId="nfts-failed" />
  } else if (items.length === 0 && status === 'ready') {
    body = <Note text={m.empty} hint={m.emptyHint} testId="nfts-empty" />
  } else if (items.length === 0) {
    body = <Skeleton label={m.loading} />
  } else {
    body = (
      <div ref={scrollRef} className="nft-scroll" data-testid="nfts-scroll">
        <ul className="nft-grid" aria-label={m.list} aria-busy={loading}>
          {items.map((nft) => (
            <li key={nft.id}>
              <NftCard nft={nft} onOpen={() => client.push('NftItem', { nft })} />
            </li>
          ))}
        </ul>
        {status === 'failed' ? (
          <Note text={m.failedMore} error retry={() => void fetchNfts(client, { next: true })} retryLabel={m.retry} testId="nfts-failed-more" />
        ) : more ? (
          <>
            <div ref={sentinel} className="sentinel" data-testid="nfts-sentinel" />
            <div className="more">
              <button type="button" className="btn secondary" disabled={loading} onClick={() => void fetchNfts(client, { next: true })} data-testid="nfts-more">
                {loading ? m.loadingMore : m.loadMore}
              </button>
            </div>
          </>
        ) : null}
      </div>
    )
  }
  return (
    <div className="nfts">
      <NftStyles />
      {status === 'unsupported' ? null : refresh}
      {body}
    </div>
  )
}

/** One NFT: its image, its name and, for an ERC-1155, how many are held ('×5'); opens the NFT. */
function NftCard({ nft, onOpen }: { nft: Nft; onOpen: () => void }) {
  const m = useMessages().ui.nfts
  const many = nft.standard === 'erc1155'
  // Its name: the image's alt text (or the placeholder's label), then the amount; no aria-label
  // the visible text would have to match.
  return (
    <button type="button" className="nft-card" onClick={onOpen} data-testid="nft-card" data-id={nft.id}>
      <span className="nft-thumb">
        <NftImage src={nft.image} alt={nft.name} />
        {many ? (
          <span className="nft-count" data-testid="nft-count">
            {m.amount(nft.amount)}
          </span>
        ) : null}
      </span>
      <span className="nft-name" aria-hidden="true">
        {nft.name}
      </span>
    </button>
  )
}

/** A message in place of the grid (empty, failed, not on this network), with 'Try again' where it helps. */
function Note({
  text,
  hint,
  error,
  retry,
  retryLabel,
  testId,
}: {
  text: string
  hint?: string
  error?: boolean
  retry?: () => void
  retryLabel?: string
  testId: string
}) {
  return (
    <div className="nfts-note" data-testid={testId}>
      <p className={error ? 'sub err' : 'sub'} role={error ? 'alert' : undefined}>
        {text}
      </p>
      {hint ? <p className="sub hint">{hint}</p> : null}
      {retry ? (
        <button type="button" className="btn secondary" onClick={retry} data-testid="nfts-retry">
          {retryLabel}
        </button>
      ) : null}
    </div>
  )
}

function Skeleton({ label }: { label: string }) {
  return (
    <div aria-busy="true" data-testid="nfts-loading">
      <span className="sr">{label}</span>
      <ul className="nft-grid" aria-hidden="true">
        {Array.from({ length: SKELETON_CARDS }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
          <li key={i} className="nft-card skeleton">
            <span className="nft-art" data-state="loading" />
            <span className="bar" />
          </li>
        ))}
      </ul>
    </div>
  )
}
