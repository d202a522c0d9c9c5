import { errorText } from '@sigil/core'
import { parseAmount } from '@sigil/core/send'
import {
  DEFAULT_SLIPPAGE_BPS,
  heldSwapToken,
  isNativeToken,
  openSwapTokens,
  parseSlippage,
  previewSwap,
  quoteSwap,
  slippagePercent,
  swapStep,
  tokenChainOf,
  type QuotedSwap,
  type SwapForm,
  type SwapToken,
} from '@sigil/core/swap'
import { replaceView } from '@sigil/core'
import { useEffect, useId, useState } from 'react'
import type { ViewProps } from '../../registry.js'
import { useFormat, useMessages, useModal, useStore } from '../../context.js'
import { Icons, RemoteImage } from '../../ui.js'
import { selectHeld, selectNetwork, swapAmount, useSwapTokens } from './tokens.js'

/** How long typing pauses before a quote is asked (spec section 9: the default debounce). */
export const QUOTE_DELAY_MS = 500

/** The quote of what the form says, asked once typing pauses; undefined while the form lacks something. */
function useLiveQuote(from: SwapToken | undefined, to: SwapToken | undefined, amount: bigint | undefined, slippageBps: number | undefined) {
  const { client } = useModal()
  const key = from && to && amount !== undefined && slippageBps !== undefined ? `${from.address}|${to.address}|${amount}|${slippageBps}` : undefined
  const [answer, setAnswer] = useState<{ key: string; quoted?: QuotedSwap; error?: string }>()
  useEffect(() => {
    if (!key || !from || !to || amount === undefined || slippageBps === undefined) return
    let live = true
    const timer = setTimeout(() => {
      quoteSwap(client, { from, to, amount, slippageBps }).then(
        (quoted) => live && setAnswer({ key, quoted }),
        (e: unknown) => live && setAnswer({ key, error: errorText(e) }),
      )
    }, QUOTE_DELAY_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [client, key, from, to, amount, slippageBps])
  const current = key && answer?.key === key ? answer : undefined
  return { quoted: current?.quoted, error: current?.error, quoting: key !== undefined && !current }
}

/**
 * The swap form (spec section 2 "Swap"; issue 24): the token paid with its amount and balance,
 * the token received with the live quote (asked once typing pauses), a button switching them,
 * and the slippage tolerance (1 % by default). The button says what the form still lacks; once
 * nothing, it opens the Preview. A network the server has no swaps on says so.
 */
export function SwapView({ route }: ViewProps<'Swap'>) {
  const { client } = useModal()
  const m = useMessages().ui.swap
  const format = useFormat()
  const held = useStore(selectHeld)
  const network = useStore(selectNetwork)
  const { tokens, error: listError } = useSwapTokens()
  const [amount, setAmount] = useState(route.data.amount ?? '')
  const [slippage, setSlippage] = useState(slippagePercent(route.data.slippageBps ?? DEFAULT_SLIPPAGE_BPS))
  const id = useId()
  // Tokens of another network (the wallet switched it) are not this form's.
  const here = (t: SwapToken | undefined) => (t && tokenChainOf(t.address) === network.caipNetworkId ? t : undefined)
  const to = here(route.data.to)
  // The network's own currency is paid unless it is the one received.
  const from = here(route.data.from) ?? (to && isNativeToken(to.address) ? undefined : tokens?.find((t) => isNativeToken(t.address)))
  const slippageBps = parseSlippage(slippage)
  const step = swapStep({ from, to, amount, held, slippage })
  const units = from ? parseAmount(amount, from.decimals) : undefined
  const live = useLiveQuote(from, to, step === 'ready' ? units : undefined, slippageBps)
  const form: SwapForm = { ...(from ? { from } : {}), ...(to ? { to } : {}), amount, ...(slippageBps ? { slippageBps } : {}) }
  const balance = from ? heldSwapToken(held, from) : undefined

  const switchTokens = () => {
    const next: SwapForm = { amount, ...(slippageBps ? { slippageBps } : {}) }
    if (to) next.from = to
    if (from) next.to = from
    replaceView(client.store, 'Swap', next)
  }

  if (listError && !tokens) {
    return (
      <div className="state" data-testid="swap-unavailable">
        <p className="sub err" role="alert">
          {listError}
        </p>
      </div>
    )
  }

  return (
    <form
      className="send"
      aria-label={m.form}
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (step === 'ready' && from && to && slippageBps) previewSwap(client, { from, to, amount: amount.trim(), slippageBps })
      }}
      data-testid="swap"
    >
      <div className="send-box">
        <div className="send-line">
          <label htmlFor={`${id}-amount`} className="send-label">
            {m.youPay}
          </label>
          {from ? (
            <span className="send-balance" data-testid="swap-balance">
              {m.balance(format.ltr(format.amount(balance?.quantity.numeric ?? '0')), from.symbol)}
            </span>
          ) : null}
        </div>
        <div className="send-line">
          <input
            id={`${id}-amount`}
            className="send-amount"
            inputMode="decimal"
            autoComplete="off"
            placeholder="0"
            value={amount}
            onChange={(e) => setAmount(e.target.value.replace(',', '.'))}
            data-testid="swap-amount"
          />
          <TokenButton token={from} side={m.youPay} onClick={() => openSwapTokens(client, form, 'from')} testId="swap-from-token" />
        </div>
        {from && balance && !isNativeToken(from.address) ? (
          <div className="send-line">
            <span />
            <button type="button" className="send-max" title={m.maxHint} onClick={() => setAmount(balance.quantity.numeric)} data-testid="swap-max">
              {m.max}
            </button>
          </div>
        ) : null}
      </div>
      <button type="button" className="icon-btn swap-switch" aria-label={m.switchTokens} onClick={switchTokens} data-testid="swap-switch">
        <Icons.chevron />
      </button>
      <div className="send-box">
        <span className="send-label" id={`${id}-receive`}>
          {m.youReceive}
        </span>
        <div className="send-line">
          <output className="send-amount swap-out" aria-labelledby={`${id}-receive`} aria-busy={live.quoting || undefined} data-testid="swap-to-amount">
            {live.quoted ? swapAmount(live.quoted.quote.toAmount, live.quoted.to.decimals) : live.quoting ? '…' : '0'}
          </output>
          <TokenButton token={to} side={m.youReceive} onClick={() => openSwapTokens(client, form, 'to')} testId="swap-to-token" />
        </div>
      </div>
      <div className="send-box">
        <div className="send-line">
          <label htmlFor={`${id}-slippage`} className="send-label" title={m.slippageHint}>
            {m.slippage}
          </label>
          <span className="swap-slippage">
            <input
              id={`${id}-slippage`}
              inputMode="decimal"
              autoComplete="off"
              value={slippage}
              onChange={(e) => setSlippage(e.target.value.replace(',', '.'))}
              aria-invalid={slippageBps === undefined || undefined}
              data-testid="swap-slippage"
            />
            %
          </span>
        </div>
      </div>
      {live.error ? (
        <p className="sub err" role="alert" data-testid="swap-error">
          {live.error}
        </p>
      ) : live.quoting ? (
        <p className="sub" aria-live="polite">
          {m.quoting}
        </p>
      ) : null}
      <button type="submit" className="btn block" disabled={step !== 'ready' || !live.quoted} data-testid="swap-submit">
        {m.steps[step]}
      </button>
    </form>
  )
}

/** The chip of one side's token: it opens SwapSelectToken. */
function TokenButton({ token, side, onClick, testId }: { token: SwapToken | undefined; side: string; onClick: () => void; testId: string }) {
  const m = useMessages().ui.swap
  return (
    <button
      type="button"
      className="pill send-token"
      onClick={onClick}
      aria-label={token ? m.changeToken(side, token.symbol) : `${side}: ${m.chooseToken}`}
      data-testid={testId}
    >
      {token ? <RemoteImage src={token.logoUri || undefined} name={token.symbol} className="sm" /> : null}
      {token ? token.symbol : m.chooseToken}
      <Icons.chevron />
    </button>
  )
}
