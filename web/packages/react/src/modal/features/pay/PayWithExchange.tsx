import { errorText, type SigilState } from '@sigil/core'
import { loadExchanges, openExchangeWindow, payAmountRefusal, payAssets, startPay, type Exchange } from '@sigil/core/pay'
import { useEffect, useId, useMemo, useState } from 'react'
import type { ViewProps } from '../../registry.js'
import { useMessages, useModal, useStore } from '../../context.js'
import { RemoteImage } from '../../ui.js'

const selectNetwork = (s: SigilState) => s.activeCaipNetwork
const selectTokens = (s: SigilState) => s.chains[s.activeNamespace]?.account?.tokenBalance

/** The exchanges that deposit the asset, or why there are none. */
function useExchanges(asset: string | undefined): { exchanges?: Exchange[]; error?: string } {
  const { client } = useModal()
  const [answer, setAnswer] = useState<{ asset?: string; exchanges?: Exchange[]; error?: string }>({})
  useEffect(() => {
    if (!asset) return
    let live = true
    loadExchanges(client, asset).then(
      (exchanges) => live && setAnswer({ asset, exchanges }),
      (e: unknown) => live && setAnswer({ asset, error: errorText(e) }),
    )
    return () => {
      live = false
    }
  }, [client, asset])
  return answer.asset === asset ? answer : {}
}

/**
 * A deposit from an exchange (issue 27's `pay`): the asset (the active network's coin, or a
 * token the account holds there) and the amount, then the exchanges the server is configured
 * with that deposit it. Choosing one opens its page, minted by the server for the connected
 * address, in a window of its own, and the progress view follows the deposit.
 */
export function PayWithExchangeView({ route }: ViewProps<'PayWithExchange'>) {
  const { client } = useModal()
  const m = useMessages().pay
  const network = useStore(selectNetwork)
  const tokens = useStore(selectTokens)
  const id = useId()
  // biome-ignore lint/correctness/useExhaustiveDependencies: the assets follow the network and the account's tokens, read from the store
  const assets = useMemo(() => payAssets(client), [client, network, tokens])
  const [assetId, setAssetId] = useState(route.data.asset)
  const [amount, setAmount] = useState(route.data.amount ?? '')
  const [busy, setBusy] = useState<string>()
  const [startError, setStartError] = useState<string>()
  const asset = assets.find((a) => a.id === assetId) ?? assets[0]
  const { exchanges, error: loadError } = useExchanges(asset?.id)
  // The refusal in the active locale's words (payAmountRefusal's own text is English).
  const refusal = asset && amount.trim() && payAmountRefusal(amount, asset.decimals) ? m.invalidAmount(asset.decimals) : undefined
  const ready = asset !== undefined && amount.trim() !== '' && !refusal

  const start = (exchange: Exchange) => {
    if (!asset || !ready || busy) return
    // Opened on the click itself: a window opened after the server answers is blocked.
    const popup = openExchangeWindow(client)
    setBusy(exchange.id)
    setStartError(undefined)
    startPay(client, { exchange, asset, amount, popup }).then(
      () => setBusy(undefined),
      (e: unknown) => {
        setBusy(undefined)
        setStartError(errorText(e))
      },
    )
  }

  return (
    <form
      className="send"
      aria-label={m.form}
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        const first = exchanges?.[0]
        if (first) start(first)
      }}
      data-testid="pay"
    >
      <div className="send-box">
        <div className="send-line">
          <label htmlFor={`${id}-amount`} className="send-label">
            {m.amount}
          </label>
          <span className="send-balance">{network.name}</span>
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
            aria-invalid={refusal ? true : undefined}
            aria-describedby={refusal ? `${id}-refusal` : undefined}
            data-testid="pay-amount"
          />
          <select
            className="pill send-token onramp-select"
            aria-label={m.asset}
            value={asset?.id ?? ''}
            onChange={(e) => setAssetId(e.target.value)}
            data-testid="pay-asset"
          >
            {assets.map((a) => (
              <option key={a.id} value={a.id}>
                {a.symbol}
              </option>
            ))}
          </select>
        </div>
      </div>
      {refusal ? (
        <p className="sub err swap-note" id={`${id}-refusal`} role="alert" data-testid="pay-refusal">
          {refusal}
        </p>
      ) : null}
      <fieldset className="onramp-providers" aria-busy={!exchanges && !loadError ? true : undefined}>
        <legend className="send-label">{m.exchanges}</legend>
        {loadError ? (
          <p className="sub err" role="alert" data-testid="pay-unavailable">
            {loadError}
          </p>
        ) : !exchanges ? (
          <p className="sub">{m.loading}</p>
        ) : exchanges.length === 0 ? (
          <p className="sub" data-testid="pay-none">
            {m.none}
          </p>
        ) : (
          exchanges.map((exchange) => (
            <button
              key={exchange.id}
              type="button"
              className="row"
              disabled={!ready || busy !== undefined}
              aria-busy={busy === exchange.id || undefined}
              onClick={() => start(exchange)}
              data-testid={`pay-exchange-${exchange.id}`}
            >
              <RemoteImage src={exchange.imageUrl} name={exchange.name} />
              <span className="meta">
                <span className="name">{busy === exchange.id ? m.opening : exchange.name}</span>
              </span>
            </button>
          ))
        )}
      </fieldset>
      {startError ? (
        <p className="sub err" role="alert" data-testid="pay-error">
          {startError}
        </p>
      ) : null}
    </form>
  )
}
