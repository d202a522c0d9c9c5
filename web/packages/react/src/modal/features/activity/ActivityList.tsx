import { explorerUrl, floorDecimals, shortenAddress, type CaipNetwork, type SigilState } from '@sigil/core'
import { formatAgo } from '@sigil/core/i18n'
import {
  ACTIVITY_POLL_FOR_MS,
  ACTIVITY_POLL_MS,
  activeActivityAccount,
  activeNetwork,
  activityRows,
  activityState,
  amountSign,
  counterparty,
  fetchActivity,
  groupByMonth,
  relativeTime,
  setShowSpam,
  type ActivityRow,
  type TransactionTransfer,
} from '@sigil/core/activity'
import type { Messages } from '@sigil/core/messages'
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { useFormat, useMessages, useModal, useStore } from '../../context.js'
import type { Format } from '../../i18n.js'
import { Ltr, RemoteImage } from '../../ui.js'
import { useNextPageOnScroll } from '../../next-page.js'

type M = Messages['ui']['activity']

const selectActivity = (s: SigilState) => s.activity
const selectAddress = (s: SigilState) => s.chains[s.activeNamespace]?.account.address

/** Skeleton rows while the first page loads. */
const SKELETON_ROWS = 5
/** Relative times are written again this often. */
const CLOCK_MS = 30_000

/**
 * The Account view's Activity tab: the active account's transactions on the active network,
 * grouped by month, newest first; the session's sends pending until the server lists them (the
 * first page is asked again every few seconds meanwhile); the next page when the end of the list
 * scrolls into view (or 'Load more'); flagged transactions hidden unless asked for, marked, and
 * never with an address to copy or follow.
 */
export function ActivityList() {
  const { client } = useModal()
  const m = useMessages().ui.activity
  const format = useFormat()
  const activity = useStore(selectActivity)
  const account = useStore(activeActivityAccount)
  const network = useStore(activeNetwork)
  const address = useStore(selectAddress)
  const state = useMemo(() => activityState(activity, account), [activity, account])
  const rows = useMemo(() => activityRows(activity, account), [activity, account])
  const groups = useMemo(() => groupByMonth(rows, (r) => r.transaction.metadata.minedAt, format.locale), [rows, format.locale])
  const spamShown = state.showSpam ? rows.filter((r) => r.transaction.metadata.spam).length : 0
  const now = useClock(CLOCK_MS)
  const polling = rows.some((r) => r.pending && now - Date.parse(r.transaction.metadata.minedAt) < ACTIVITY_POLL_FOR_MS)
  const scrollRef = useRef<HTMLDivElement>(null)
  const sentinel = useRef<HTMLDivElement>(null)
  const headingId = useId()
  const loading = state.status === 'loading'
  const more = typeof state.next === 'string'

  // The list of the account and network shown: another one starts a new list; one shown before
  // stays on screen while its first page is asked again (what happened since).
  useEffect(() => {
    if (!account) return
    const shown = activityState(client.store.getState().activity, account).status === 'ready'
    void fetchActivity(client, shown ? { refresh: true } : {})
  }, [client, account])

  // A sent transaction stays pending until the server lists it: the first page is asked again
  // meanwhile (for a few minutes: a chain the server does not index never lists it).
  useEffect(() => {
    if (!polling) return
    const timer = setInterval(() => void fetchActivity(client, { refresh: true }), ACTIVITY_POLL_MS)
    return () => clearInterval(timer)
  }, [client, polling])

  // The end of the list scrolling into view asks for the next page.
  useNextPageOnScroll(sentinel, scrollRef, more && !loading, rows.length, () => void fetchActivity(client, { next: true }))

  const toggle = (
    <button
      type="button"
      className="link activity-toggle"
      onClick={() => void setShowSpam(client, { show: !state.showSpam })}
      data-testid="activity-spam-toggle"
    >
      {state.showSpam ? m.hideSpam(spamShown) : m.showHidden}
    </button>
  )

  if (rows.length === 0) {
    if (state.status === 'idle' || loading) return <Skeleton label={m.loading} />
    return (
      <div className="activity-empty" data-testid="activity-empty">
        <p className="sub">{m.empty}</p>
        <p className="sub hint">{m.emptyHint}</p>
        {state.status === 'ready' ? toggle : null}
      </div>
    )
  }
  return (
    <div className="activity">
      <div ref={scrollRef} className="activity-scroll" data-testid="activity-scroll">
        {groups.map((group) => (
          <section key={group.key} aria-labelledby={`${headingId}-${group.key}`}>
            <h3 className="group-title" id={`${headingId}-${group.key}`}>
              {group.label}
            </h3>
            <ul className="list" aria-busy={loading}>
              {group.rows.map((row) => (
                <ActivityItem key={row.transaction.id} row={row} address={address} network={network} now={now} m={m} format={format} />
              ))}
            </ul>
          </section>
        ))}
        {more ? (
          <>
            <div ref={sentinel} className="sentinel" data-testid="activity-sentinel" />
            <div className="more">
              <button type="button" className="btn secondary" disabled={loading} onClick={() => void fetchActivity(client, { next: true })}>
                {loading ? m.loadingMore : m.loadMore}
              </button>
            </div>
          </>
        ) : null}
      </div>
      <div className="activity-foot">{toggle}</div>
    </div>
  )
}

/** One transaction: what happened, with whom, how much, and when; its status when not confirmed. */
function ActivityItem({
  row,
  address,
  network,
  now,
  m,
  format,
}: {
  row: ActivityRow
  address: string | undefined
  network: CaipNetwork
  now: number
  m: M
  format: Format
}) {
  const t = row.transaction
  const { metadata } = t
  // A send of this session the chain has not taken yet (once it has, it reads as any send).
  const sending = row.pending && metadata.status === 'pending'
  const op = metadata.operationType
  const label = sending ? m.sending : (m.operations[op] ?? m.otherOperation)
  const spam = metadata.spam ?? undefined
  const transfers = t.transfers.slice(0, 2)
  const amounts = transfers.map((transfer) => amountText(op, transfer, format))
  const party = counterparty(t, address, network.nativeCurrency.symbol)
  const partyText = party.address ? m[party.relation](format.ltr(shortenAddress(party.address))) : ''
  const time = relativeTime(metadata.minedAt, now)
  const timeText = time.unit === 'now' ? m.time.now : m.time[time.unit](time.value)
  const status = metadata.status === 'pending' ? m.pending : metadata.status === 'failed' ? m.failed : undefined
  const icon = transfers[0]?.fungible_info?.icon?.url ?? transfers[0]?.nft_info?.content?.preview?.url ?? undefined
  const spoken = m.row(label, amounts.join(', '), spam ? '' : partyText, m.ago(timeText)) + (status ? `, ${status}` : '') + (spam ? `, ${m.spam}` : '')
  // Spam: no link and no way to copy its addresses (address poisoning copies them).
  const href = !spam && metadata.hash ? explorerUrl(network, 'tx', metadata.hash) : undefined
  const content = (
    <>
      <span className="activity-icon" aria-hidden="true">
        {icon ? (
          <RemoteImage src={icon} name={transfers[0]?.fungible_info?.symbol ?? label} className="sm" />
        ) : (
          <Glyph op={sending ? 'send' : op} transfer={transfers[0]} />
        )}
        {status ? <span className={`activity-dot ${metadata.status === 'pending' ? 'pending' : 'failed'}`} /> : null}
      </span>
      <span className="meta">
        <span className="name">
          {label}
          {status && !sending ? <span className={metadata.status === 'failed' ? 'tag bad' : 'tag accent'}>{status}</span> : null}
          {spam ? (
            <span className="tag bad" title={m.spamReasons[spam.reason] ?? m.spamOther}>
              {m.spam}
            </span>
          ) : null}
        </span>
        <span className="party">
          {spam ? (
            <span className="spam-note">{m.spamReasons[spam.reason] ?? m.spamOther}</span>
          ) : (
            <bdi dir={format.dir} title={party.address}>
              {partyText}
            </bdi>
          )}
        </span>
      </span>
      <span className="amount">
        {amounts.map((a, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a transaction's transfers keep their order
          <span key={i} className={a.startsWith('+') ? 'in' : undefined} data-testid="activity-amount">
            <Ltr>{a}</Ltr>
          </span>
        ))}
        <span className="when" title={whenTitle(metadata.minedAt, time, format)}>
          {timeText}
        </span>
      </span>
    </>
  )
  return (
    <li
      className={spam ? 'activity-row spam' : 'activity-row'}
      data-testid="activity-row"
      data-hash={metadata.hash}
      data-status={metadata.status}
      data-listed={row.pending ? 'false' : 'true'}
      data-spam={spam ? spam.reason : undefined}
      aria-label={href ? undefined : spoken}
    >
      {href ? (
        <a className="activity-link" href={href} target="_blank" rel="noreferrer noopener" aria-label={spoken}>
          {content}
        </a>
      ) : (
        <div className="activity-link">{content}</div>
      )}
    </li>
  )
}

const INTL_UNITS = { min: 'minute', hr: 'hour', day: 'day', month: 'month', year: 'year' } as const

/** The time's tooltip: how long ago in the locale's words (Intl.RelativeTimeFormat) and the date and time. */
function whenTitle(minedAt: string, time: ReturnType<typeof relativeTime>, format: Format): string {
  const date = format.dateTime(minedAt)
  return time.unit === 'now' ? date : `${formatAgo(time.value, INTL_UNITS[time.unit], format.locale)} · ${date}`
}

/** '+1.5 SGL': the sign by the operation, the quantity floored to 3 decimals without trailing zeros ('<0.001' when less), in the locale's writing. */
function amountText(op: string, transfer: TransactionTransfer, format: Format): string {
  const sign = amountSign(op, transfer)
  const symbol = transfer.fungible_info?.symbol ?? transfer.nft_info?.name ?? ''
  const numeric = transfer.quantity.numeric
  const floored = floorDecimals(numeric, 3).replace(/\.0*$|(\.\d*?)0+$/, '$1')
  const quantity = floored === '0' && Number(numeric) > 0 ? `<${format.decimal('0.001')}` : format.decimal(floored)
  return `${sign}${quantity}${symbol ? ` ${symbol}` : ''}`
}

/** The operation's mark where the token has no icon: an arrow out or in, or a swap. */
function Glyph({ op, transfer }: { op: string; transfer: TransactionTransfer | undefined }) {
  const sign = transfer ? amountSign(op, transfer) : ''
  const path = op === 'trade' ? 'M7 7h11l-3-3M17 17H6l3 3' : sign === '+' ? 'M12 5v14M6 13l6 6 6-6' : sign === '-' ? 'M12 19V5M6 11l6-6 6 6' : 'M5 12h14'
  return (
    <span className="activity-glyph">
      <svg
        width="16"
        height="16"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        <path d={path} />
      </svg>
    </span>
  )
}

function Skeleton({ label }: { label: string }) {
  return (
    <div className="activity" aria-busy="true" data-testid="activity-loading">
      <span className="sr">{label}</span>
      <ul className="list" aria-hidden="true">
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
          <li key={i} className="activity-row skeleton">
            <span className="activity-link">
              <span className="activity-glyph" />
              <span className="meta">
                <span className="bar" />
                <span className="bar short" />
              </span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** The time now, written again every `ms` (relative times move on). */
function useClock(ms: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms)
    return () => clearInterval(timer)
  }, [ms])
  return now
}
