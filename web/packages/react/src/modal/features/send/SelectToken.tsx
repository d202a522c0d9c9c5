import { tokenFiatValue } from '@sigil/core'
import { chooseSendToken, tokenKey } from '@sigil/core/send'
import { useState } from 'react'
import { useFormat, useMessages, useModal, useStore } from '../../context.js'
import { Ltr, RemoteImage, SearchField } from '../../ui.js'
import { selectTokens } from './WalletSend.js'

/** Choosing the token to send: the account's tokens with their balances, searchable by name, symbol or address. */
export function WalletSendSelectTokenView() {
  const { client } = useModal()
  const m = useMessages().ui.account.send
  const format = useFormat()
  const tokens = useStore(selectTokens) ?? []
  const [query, setQuery] = useState('')
  const q = query.trim().toLowerCase()
  const shown = q ? tokens.filter((t) => [t.name, t.symbol, t.address ?? ''].some((v) => v.toLowerCase().includes(q))) : tokens
  return (
    <div data-testid="send-select-token">
      <SearchField label={m.searchTokens} value={query} onChange={setQuery} />
      {shown.length ? (
        <ul className="list" aria-label={m.tokensToSend}>
          {shown.map((t) => {
            const value = tokenFiatValue(t)
            return (
              <li key={tokenKey(t)}>
                <button
                  type="button"
                  className="row token-pick"
                  onClick={() => chooseSendToken(client, { token: tokenKey(t) })}
                  data-testid="send-token-option"
                  data-symbol={t.symbol}
                >
                  <RemoteImage src={t.iconUrl || undefined} name={t.symbol} className="sm" />
                  <span className="meta">
                    <span className="name">{t.name}</span>
                    <span className="families">{t.symbol}</span>
                  </span>
                  <span className="amount">
                    <span className="quantity">
                      <Ltr>{format.amount(t.quantity.numeric)}</Ltr>
                    </span>
                    {value !== undefined ? (
                      <span className="families">
                        <Ltr>{format.money(value, 'USD')}</Ltr>
                      </span>
                    ) : null}
                  </span>
                </button>
              </li>
            )
          })}
        </ul>
      ) : (
        <p className="sub" data-testid="send-no-tokens">
          {q ? m.noTokensFound(query.trim()) : m.noTokens}
        </p>
      )}
    </div>
  )
}
