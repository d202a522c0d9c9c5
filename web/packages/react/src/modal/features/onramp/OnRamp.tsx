import { errorText, type SigilState } from '@sigil/core'
import {
  amountRefusal,
  DEFAULT_PAYMENT_METHOD,
  loadOnrampOptions,
  openProviderWindow,
  paymentLimit,
  providersOn,
  purchasesOn,
  quoteOnramp,
  startOnramp,
  type OnrampForm,
  type OnrampOptions,
  type OnrampProvider,
  type OnrampQuote,
} from '@sigil/core/onramp'
import { useEffect, useId, useState } from 'react'
import type { ViewProps } from '../../registry.js'
import { useMessages, useModal, useStore } from '../../context.js'

const selectNetwork = (s: SigilState) => s.activeCaipNetwork

/** How long typing pauses before quotes are asked (as the swap form). */
export const QUOTE_DELAY_MS = 500

/** The server's providers and currencies for the visitor's country, or why there are none. */
function useOnrampOptions(): { options?: OnrampOptions; error?: string } {
  const { client } = useModal()
  const [answer, setAnswer] = useState<{ options?: OnrampOptions; error?: string }>({})
  useEffect(() => {
    let live = true
    loadOnrampOptions(client).then(
      (options) => live && setAnswer({ options }),
      (e: unknown) => live && setAnswer({ error: errorText(e) }),
    )
    return () => {
      live = false
    }
  }, [client])
  return answer
}

/** Each provider's quote for the form, asked once typing pauses; keyed by the form so a stale answer never shows. */
function useQuotes(providers: readonly OnrampProvider[], form: OnrampForm | undefined) {
  const { client } = useModal()
  const key = form ? `${form.purchase.network}|${form.purchase.currency.id}|${form.paymentCurrency}|${form.paymentMethod}|${form.amount.trim()}` : undefined
  const [answers, setAnswers] = useState<{ key: string; quotes: Record<string, { quote?: OnrampQuote; error?: string }> }>()
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the form and the providers
  useEffect(() => {
    if (!key || !form) return
    let live = true
    const timer = setTimeout(() => {
      for (const provider of providers) {
        quoteOnramp(client, provider.name, form).then(
          (quote) => live && setAnswers((a) => ({ key, quotes: { ...(a?.key === key ? a.quotes : {}), [provider.name]: { quote } } })),
          (e: unknown) => live && setAnswers((a) => ({ key, quotes: { ...(a?.key === key ? a.quotes : {}), [provider.name]: { error: errorText(e) } } })),
        )
      }
    }, QUOTE_DELAY_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [client, key, providers])
  return key && answers?.key === key ? answers.quotes : {}
}

/**
 * Buying with a card (spec section 2; issue 24): the fiat currency and amount (checked against
 * the payment method's limits, said beside the field), the asset bought on the active network,
 * and the providers serving the visitor's country, each with its fee range and its quote for the
 * amount (a provider that did not answer shows sample figures, said so). 'Continue with …' opens
 * the provider's page, minted by the server for the connected address, and the progress view
 * follows the purchase.
 */
export function OnRampView({ route }: ViewProps<'OnRamp'>) {
  const { client } = useModal()
  const m = useMessages().ui.onramp
  const network = useStore(selectNetwork)
  const { options, error: loadError } = useOnrampOptions()
  const id = useId()
  const [amount, setAmount] = useState(route.data.amount ?? '100')
  const [currency, setCurrency] = useState(route.data.paymentCurrency)
  const [asset, setAsset] = useState(route.data.asset)
  const [method, setMethod] = useState(route.data.paymentMethod ?? DEFAULT_PAYMENT_METHOD)
  const [chosen, setChosen] = useState<string>()
  const [busy, setBusy] = useState(false)
  const [startError, setStartError] = useState<string>()

  const purchases = options ? purchasesOn(options, network) : []
  const providers = options ? providersOn(options, network) : []
  const purchase = purchases.find((p) => p.currency.id === asset) ?? purchases[0]
  const paymentCurrency = currency ?? options?.paymentCurrencies[0]?.id ?? 'USD'
  const methods = options?.paymentCurrencies.find((c) => c.id === paymentCurrency)?.payment_method_limits ?? []
  const limit = options ? paymentLimit(options, paymentCurrency, method) : undefined
  const methodLabel = m.methods[method] ?? method
  const refusal = amount.trim() ? amountRefusal(amount, paymentCurrency, limit, methodLabel) : undefined
  const form: OnrampForm | undefined =
    purchase && amount.trim() && !refusal ? { purchase, paymentCurrency, amount: amount.trim(), paymentMethod: method } : undefined
  const quotes = useQuotes(providers, form)
  const provider = providers.find((p) => p.name === chosen) ?? providers[0]
  const quote = provider ? quotes[provider.name]?.quote : undefined

  if (loadError && !options) {
    return (
      <div className="state" data-testid="onramp-unavailable">
        <p className="sub err" role="alert">
          {loadError}
        </p>
      </div>
    )
  }
  if (!options) {
    return (
      <div className="state" aria-busy="true">
        <p className="sub">{m.loading}</p>
      </div>
    )
  }
  if (providers.length === 0 || !purchase) {
    return (
      <div className="state" data-testid="onramp-unavailable">
        <p className="sub">{options.sample && options.providers.length === 0 ? m.notSetUp : m.none}</p>
      </div>
    )
  }

  const start = () => {
    if (!form || !provider || busy) return
    // Opened on the click itself: a window opened after the server answers is blocked.
    const popup = openProviderWindow(client)
    setBusy(true)
    setStartError(undefined)
    startOnramp(client, { provider: provider.name, label: provider.label, form, ...(quote ? { quote } : {}), popup }).then(
      () => setBusy(false),
      (e: unknown) => {
        setBusy(false)
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
        start()
      }}
      data-testid="onramp"
    >
      <div className="send-box">
        <div className="send-line">
          <label htmlFor={`${id}-amount`} className="send-label">
            {m.youPay}
          </label>
          {limit ? (
            <span className="send-balance" data-testid="onramp-limits">
              {m.limits(limit.min, limit.max, paymentCurrency)}
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
            aria-invalid={refusal ? true : undefined}
            aria-describedby={refusal ? `${id}-refusal` : undefined}
            data-testid="onramp-amount"
          />
          <select
            className="pill send-token onramp-select"
            aria-label={m.currency}
            value={paymentCurrency}
            onChange={(e) => setCurrency(e.target.value)}
            data-testid="onramp-currency"
          >
            {options.paymentCurrencies.map((c) => (
              <option key={c.id} value={c.id}>
                {c.id}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="send-box">
        <div className="send-line">
          <label htmlFor={`${id}-asset`} className="send-label">
            {m.asset}
          </label>
          <select
            id={`${id}-asset`}
            className="pill send-token onramp-select"
            value={purchase.currency.id}
            onChange={(e) => setAsset(e.target.value)}
            data-testid="onramp-asset"
          >
            {purchases.map((p) => (
              <option key={p.currency.id} value={p.currency.id}>
                {p.currency.symbol}
              </option>
            ))}
          </select>
        </div>
        {methods.length > 1 ? (
          <div className="send-line">
            <label htmlFor={`${id}-method`} className="send-label">
              {m.method}
            </label>
            <select
              id={`${id}-method`}
              className="pill send-token onramp-select"
              value={method}
              onChange={(e) => setMethod(e.target.value)}
              data-testid="onramp-method"
            >
              {methods.map((l) => (
                <option key={l.id} value={l.id}>
                  {m.methods[l.id] ?? l.id}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </div>
      {refusal ? (
        <p className="sub err swap-note" id={`${id}-refusal`} role="alert" data-testid="onramp-refusal">
          {refusal}
        </p>
      ) : null}
      <fieldset className="onramp-providers">
        <legend className="send-label">{m.providers}</legend>
        {providers.map((p) => {
          const answer = quotes[p.name]
          return (
            <label key={p.name} className="onramp-provider" data-testid={`onramp-provider-${p.name}`}>
              <input type="radio" name={`${id}-provider`} value={p.name} checked={p === provider} onChange={() => setChosen(p.name)} />
              <span className="onramp-provider-name">
                {p.label}
                <span className="sub">{m.fee(p.feeRange)}</span>
              </span>
              <span className="onramp-provider-quote" aria-live="polite" data-testid={`onramp-quote-${p.name}`}>
                {answer?.quote ? (
                  <>
                    <span>{m.youGet(answer.quote.purchaseAmount.amount, answer.quote.purchaseAmount.currency)}</span>
                    <span className="sub">{m.total(answer.quote.paymentTotal.amount, answer.quote.paymentTotal.currency)}</span>
                    {answer.quote.sample ? <span className="sub">{m.sample}</span> : null}
                  </>
                ) : answer?.error ? (
                  <span className="sub err">{answer.error}</span>
                ) : form ? (
                  <span className="sub">{m.quoting}</span>
                ) : null}
              </span>
            </label>
          )
        })}
      </fieldset>
      {startError ? (
        <p className="sub err" role="alert" data-testid="onramp-error">
          {startError}
        </p>
      ) : null}
      <button type="submit" className="btn block" disabled={!form || !provider || busy} aria-busy={busy || undefined} data-testid="onramp-continue">
        {busy ? m.opening : m.continueWith(provider?.label ?? '')}
      </button>
    </form>
  )
}
