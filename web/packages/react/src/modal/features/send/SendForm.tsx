import { errorText, floorDecimals, showSuccess, type SigilState, type TokenBalance } from '@sigil/core'
import { useId, useState, type FormEvent } from 'react'
import { useMessages, useModal, useStore } from '../../context.js'

const selectTokens = (s: SigilState) => s.chains[s.activeNamespace]?.account.tokenBalance

const tokenKey = (token: TokenBalance) => token.address ?? 'native'

/**
 * Send from the Account view (spec section 4 "Send"): a token the account holds, an amount and a
 * receiver; the adapter builds and sends the transfer, the wallet signs, the balances are read
 * again after. Validation texts are the catalogue's ('An amount and receiver address are
 * required', 'A token is required'). The form is remade on another namespace (a reset).
 */
export function SendForm({ onDone }: { onDone: () => void }) {
  const { client } = useModal()
  const m = useMessages().ui.account.send
  const tokens = useStore(selectTokens) ?? []
  const [token, setToken] = useState('')
  const [amount, setAmount] = useState('')
  const [to, setTo] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const id = useId()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError(undefined)
    setBusy(true)
    try {
      await client.send({ to, amount, token: token || undefined })
      const symbol = tokens.find((t) => tokenKey(t) === token)?.symbol ?? ''
      showSuccess(client.store, m.sent(amount.trim(), symbol))
      setAmount('')
      setTo('')
      onDone()
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="send" aria-label={m.title} onSubmit={(e) => void submit(e)} noValidate>
      <label htmlFor={`${id}-token`}>{m.token}</label>
      <select id={`${id}-token`} value={token} onChange={(e) => setToken(e.target.value)} disabled={busy}>
        <option value="">{m.chooseToken}</option>
        {tokens.map((t) => (
          <option key={tokenKey(t)} value={tokenKey(t)}>
            {`${t.symbol} (${floorDecimals(t.quantity.numeric, 3)})`}
          </option>
        ))}
      </select>
      <label htmlFor={`${id}-amount`}>{m.amount}</label>
      <input id={`${id}-amount`} inputMode="decimal" autoComplete="off" value={amount} onChange={(e) => setAmount(e.target.value)} disabled={busy} />
      <label htmlFor={`${id}-to`}>{m.receiver}</label>
      <input id={`${id}-to`} autoComplete="off" spellCheck={false} value={to} onChange={(e) => setTo(e.target.value)} disabled={busy} />
      {error ? (
        <p className="sub err" role="alert" data-testid="send-error">
          {error}
        </p>
      ) : null}
      <div className="send-actions">
        <button type="button" className="btn secondary" onClick={onDone} disabled={busy}>
          {m.cancel}
        </button>
        <button type="submit" className="btn" disabled={busy} aria-busy={busy || undefined}>
          {busy ? m.sending : m.submit}
        </button>
      </div>
    </form>
  )
}
