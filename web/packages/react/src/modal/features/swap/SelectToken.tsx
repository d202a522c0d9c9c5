import { chooseSwapToken, heldSwapToken, swapBalanceOf, type SwapToken } from '@sigil/core/swap'
import { useState } from 'react'
import type { ViewProps } from '../../registry.js'
import { useFormat, useMessages, useModal, useStore } from '../../context.js'
import { Ltr, RemoteImage, SearchField } from '../../ui.js'
import { selectHeld, useSwapTokens } from './tokens.js'

/**
 * Choosing the token paid or received: the tokens the server can swap on the active network,
 * those the account holds first (with their balances), then the popular ones in the server's
 * order; searchable by name, symbol or address.
 */
export function SwapSelectTokenView({ route }: ViewProps<'SwapSelectToken'>) {
  const { client } = useModal()
  const m = useMessages().ui.swap
  const format = useFormat()
  const held = useStore(selectHeld)
  const { tokens, error } = useSwapTokens()
  const [query, setQuery] = useState('')
  const q = query.trim().toLowerCase()
  const shown = (tokens ?? []).filter((t) => !q || [t.name, t.symbol, t.address].some((v) => v.toLowerCase().includes(q)))
  const own = shown.filter((t) => swapBalanceOf(held, t) > 0n)
  const popular = shown.filter((t) => !own.includes(t))
  const list = (label: string, items: SwapToken[], testId: string) =>
    items.length ? (
      <section aria-label={label} data-testid={testId}>
        <h3 className="group-title">{label}</h3>
        <ul className="list">
          {items.map((t) => {
            const entry = heldSwapToken(held, t)
            return (
              <li key={t.address}>
                <button
                  type="button"
                  className="row token-pick"
                  onClick={() => chooseSwapToken(client, { side: route.data.side, token: t })}
                  data-testid="swap-token-option"
                  data-symbol={t.symbol}
                >
                  <RemoteImage src={t.logoUri || undefined} name={t.symbol} className="sm" />
                  <span className="meta">
                    <span className="name">{t.name}</span>
                    <span className="families">{t.symbol}</span>
                  </span>
                  {entry ? (
                    <span className="amount">
                      <span className="quantity">
                        <Ltr>{format.amount(entry.quantity.numeric)}</Ltr>
                      </span>
                    </span>
                  ) : null}
                </button>
              </li>
            )
          })}
        </ul>
      </section>
    ) : null
  return (
    <div data-testid="swap-select-token">
      <SearchField label={m.searchTokens} value={query} onChange={setQuery} />
      {error && !tokens ? (
        <p className="sub err" role="alert" data-testid="swap-tokens-error">
          {error}
        </p>
      ) : !tokens ? (
        <p className="sub" aria-busy="true">
          {m.loadingTokens}
        </p>
      ) : shown.length ? (
        <>
          {list(m.yourTokens, own, 'swap-own-tokens')}
          {list(m.popular, popular, 'swap-popular-tokens')}
        </>
      ) : (
        <p className="sub" data-testid="swap-no-tokens">
          {q ? m.noTokensFound(query.trim()) : m.noTokens}
        </p>
      )}
    </div>
  )
}
