import { errorText, type SigilState } from '@sigil/core'
import { formatFee, parseAmount } from '@sigil/core/send'
import {
  confirmSwap,
  isNativeToken,
  prepareSwap,
  QUOTE_REFRESH_MS,
  quoteSwap,
  requoteSwap,
  slippagePercent,
  SwapError,
  type PreparedSwap,
  type QuotedSwap,
} from '@sigil/core/swap'
import { useEffect, useRef, useState } from 'react'
import type { ViewProps } from '../../registry.js'
import { useFormat, useMessages, useModal, useStore } from '../../context.js'
import { Ltr, RemoteImage } from '../../ui.js'
import { selectNetwork, swapAmount } from './tokens.js'

const selectNativeSymbol = (s: SigilState) => s.activeCaipNetwork.nativeCurrency

/** The rate of a quote, `to` per one `from`, to 6 significant decimals (integers only: no float drift). */
function rateOf(quoted: QuotedSwap): string {
  const { fromAmount, toAmount } = quoted.quote
  if (fromAmount === 0n) return '0'
  const scaled = (toAmount * 10n ** BigInt(quoted.from.decimals) * 1_000_000n) / fromAmount
  return swapAmount(scaled, quoted.to.decimals + 6)
}

/**
 * What the swap will do, before it is signed (issue 24): what is paid and about what comes, the
 * rate, the minimum received with the slippage, the price impact when the server tells it, the
 * approval (exactly the amount unless the user ticks unlimited; the zero-reset where the token
 * needs it), the network fee, and how many confirmations the wallet asks for (one when it
 * batches atomically). The quote is asked again every 15 s and before an expired one is sent;
 * a price that moved past the slippage is said. 'Swap' has the wallet sign.
 */
export function SwapPreviewView({ route }: ViewProps<'SwapPreview'>) {
  const { client, directory } = useModal()
  const messages = useMessages()
  const format = useFormat()
  const m = messages.ui.swap
  const network = useStore(selectNetwork)
  const native = useStore(selectNativeSymbol)
  const { from, to, amount, slippageBps } = route.data
  const [unlimited, setUnlimited] = useState(route.data.unlimited === true)
  const [prepared, setPrepared] = useState<PreparedSwap>()
  // Why the quote failed (asked again each round), and why the last 'Swap' failed (kept until 'Swap' again).
  const [quoteError, setQuoteError] = useState<string>()
  const [sendError, setSendError] = useState<string>()
  const error = sendError ?? quoteError
  const [moved, setMoved] = useState(false)
  const [busy, setBusy] = useState(false)
  const [round, setRound] = useState(0)
  const last = useRef<QuotedSwap | undefined>(undefined)

  // A quote (again each round), then what the swap will send with it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` asks for a fresh quote
  useEffect(() => {
    let live = true
    setQuoteError(undefined)
    const units = parseAmount(amount, from.decimals)
    const run = async () => {
      if (units === undefined) throw new SwapError(messages.swap.invalidAmount(from.decimals), 'INVALID_AMOUNT')
      const previous = last.current
      const same = previous && previous.quote.fromAmount === units && previous.slippageBps === slippageBps && previous.to.address === to.address
      const { quoted, moved } = same
        ? await requoteSwap(client, previous)
        : { quoted: await quoteSwap(client, { from, to, amount: units, slippageBps }), moved: false }
      const next = await prepareSwap(client, { quoted, unlimited })
      return { next, moved }
    }
    run().then(
      ({ next, moved }) => {
        if (!live) return
        last.current = next.quoted
        setPrepared(next)
        setMoved(moved)
      },
      (e: unknown) => {
        if (!live) return
        setPrepared(undefined)
        setQuoteError(errorText(e))
      },
    )
    return () => {
      live = false
    }
  }, [client, from, to, amount, slippageBps, unlimited, round])

  // The quote is asked again QUOTE_REFRESH_MS after it was given (not while the wallet is asked); the seconds left show.
  const quotedAt = prepared?.quoted.quotedAt
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (quotedAt === undefined || busy) return
    const tick = setInterval(() => setNow(Date.now()), 1000)
    const refresh = setTimeout(() => setRound((r) => r + 1), Math.max(quotedAt + QUOTE_REFRESH_MS - Date.now(), 0))
    return () => {
      clearInterval(tick)
      clearTimeout(refresh)
    }
  }, [quotedAt, busy])
  const refreshesIn = quotedAt === undefined ? undefined : Math.max(Math.ceil((quotedAt + QUOTE_REFRESH_MS - Math.max(now, quotedAt)) / 1000), 0)

  const swap = async () => {
    if (!prepared) return
    setBusy(true)
    setSendError(undefined)
    try {
      await confirmSwap(client, prepared)
    } catch (e) {
      setSendError(errorText(e))
      setBusy(false)
      // An expired quote or a moved price: quote again at once.
      if (e instanceof SwapError && (e.code === 'QUOTE_EXPIRED' || e.code === 'PRICE_MOVED')) setRound((r) => r + 1)
    }
  }

  const quoted = prepared?.quoted
  const approval = prepared?.approval
  const confirmations = prepared ? (prepared.atomic ? 1 : prepared.calls.length) : undefined
  return (
    <div className="send-preview" data-testid="swap-preview" aria-busy={!prepared && !error}>
      <div className="send-summary">
        <span className="sub">{m.youPay}</span>
        <span className="send-total" data-testid="swap-preview-from">
          <RemoteImage src={from.logoUri || undefined} name={from.symbol} className="sm" />
          {`${amount} ${from.symbol}`}
        </span>
        <span className="sub">{m.youReceive}</span>
        <span className="send-total" data-testid="swap-preview-to">
          <RemoteImage src={to.logoUri || undefined} name={to.symbol} className="sm" />
          {quoted ? <Ltr>{`${format.decimal(swapAmount(quoted.quote.toAmount, to.decimals))} ${to.symbol}`}</Ltr> : `… ${to.symbol}`}
        </span>
      </div>
      {moved ? (
        <p className="sub swap-note" role="status" data-testid="swap-price-moved">
          {m.priceMoved}
        </p>
      ) : null}
      <dl className="send-facts">
        {quoted ? (
          <div>
            <dt>{m.rateLabel}</dt>
            <dd data-testid="swap-rate">{m.rate(from.symbol, format.ltr(format.decimal(rateOf(quoted))), to.symbol)}</dd>
          </div>
        ) : null}
        <div>
          <dt>{m.minimumReceived}</dt>
          <dd data-testid="swap-minimum">{quoted ? <Ltr>{`${format.decimal(swapAmount(quoted.minimumReceived, to.decimals))} ${to.symbol}`}</Ltr> : '…'}</dd>
        </div>
        {quoted?.quote.priceImpact !== undefined ? (
          <div>
            <dt>{m.priceImpact}</dt>
            <dd data-testid="swap-price-impact">{m.percent(format.decimal(quoted.quote.priceImpact.toFixed(2)))}</dd>
          </div>
        ) : null}
        <div>
          <dt>{m.slippage}</dt>
          <dd data-testid="swap-preview-slippage">{m.percent(slippagePercent(slippageBps))}</dd>
        </div>
        {!isNativeToken(from.address) ? (
          <div>
            <dt>{m.approval}</dt>
            <dd data-testid="swap-approval">
              {!prepared ? '…' : !approval ? m.approveNone : approval.unlimited ? m.approveUnlimited(from.symbol) : m.approveExact(amount, from.symbol)}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>{m.fee}</dt>
          <dd data-testid="swap-fee">{prepared?.fee !== undefined ? m.feeAbout(formatFee(prepared.fee, native.decimals), native.symbol) : m.feeByWallet}</dd>
        </div>
        <div>
          <dt>{m.network}</dt>
          <dd>
            <RemoteImage src={directory.networkImage(network)} name={network.name} className="sm" />
            {network.name}
          </dd>
        </div>
      </dl>
      {/* What the server says stands in the way (a high price impact), but the allowance, which the approval above settles. */}
      {quoted?.quote.issues
        .filter((issue) => issue.code !== 'insufficient_allowance')
        .map((issue) => (
          <p key={issue.code} className="sub swap-note err" data-testid="swap-issue">
            {issue.message}
          </p>
        ))}
      {approval?.resetFirst ? (
        <p className="sub swap-note" data-testid="swap-reset-first">
          {m.resetFirst}
        </p>
      ) : null}
      {!isNativeToken(from.address) ? (
        <label className="swap-unlimited">
          <input type="checkbox" checked={unlimited} disabled={busy} onChange={(e) => setUnlimited(e.target.checked)} data-testid="swap-unlimited" />
          {m.unlimited}
        </label>
      ) : null}
      {confirmations !== undefined ? (
        <p className="sub swap-note" data-testid="swap-confirmations">
          {m.confirmations(confirmations)}
        </p>
      ) : null}
      {refreshesIn !== undefined && !busy ? (
        <p className="sub swap-note" data-testid="swap-refresh">
          {m.refreshesIn(refreshesIn)}
        </p>
      ) : null}
      {error ? (
        <p className="sub err" role="alert" data-testid="swap-error">
          {error}
        </p>
      ) : !prepared ? (
        <p className="sub" aria-live="polite">
          {m.checking}
        </p>
      ) : null}
      <div className="send-actions">
        <button type="button" className="btn secondary" onClick={() => client.goBack()} disabled={busy}>
          {m.cancel}
        </button>
        <button type="button" className="btn" onClick={() => void swap()} disabled={!prepared || busy} aria-busy={busy || undefined} data-testid="swap-confirm">
          {busy ? m.swapping : m.submit}
        </button>
      </div>
    </div>
  )
}
