import { errorText, explorerUrl, floorDecimals, shortenAddress, type CaipNetwork, type SigilState, type TokenBalance } from '@sigil/core'
import { useId, useState, type FormEvent } from 'react'
import { useMessages, useModal, useStore } from '../../context.js'
import { Icons } from '../../ui.js'

const selectTokens = (s: SigilState) => s.chains[s.activeNamespace]?.account.tokenBalance
const selectNetwork = (s: SigilState) => s.activeCaipNetwork

const tokenKey = (token: TokenBalance) => token.address ?? 'native'

interface Sent {
  hash: string
  amount: string
  symbol: string
  network: CaipNetwork
}

/**
 * Send from the Account view (spec section 4 "Send"): a token the account holds, an amount and a
 * receiver; the adapter builds and sends the transfer, the wallet signs, the balances are read
 * again after. What is wrong shows under the form before the wallet is asked (the spec's 'An
 * amount and receiver address are required', 'A token is required'; an address of another
 * network, an amount above the balance), a chain's refusal as the spec's transaction error;
 * once sent, the transaction and its page on the network's block explorer. The form is remade
 * on another namespace (a reset).
 */
export function SendForm({ onDone }: { onDone: () => void }) {
  const { client } = useModal()
  const m = useMessages().ui.account.send
  const tokens = useStore(selectTokens) ?? []
  const network = useStore(selectNetwork)
  const [token, setToken] = useState('')
  const [amount, setAmount] = useState('')
  const [to, setTo] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const [sent, setSent] = useState<Sent>()
  const id = useId()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setError(undefined)
    setBusy(true)
    try {
      const hash = await client.send({ to, amount, token: token || undefined })
      const symbol = tokens.find((t) => tokenKey(t) === token)?.symbol ?? ''
      setSent({ hash, amount: amount.trim(), symbol, network })
      setAmount('')
      setTo('')
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  if (sent) return <SentState sent={sent} onDone={onDone} />

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

/** The send went through: what was sent, and the transaction (its explorer page where the network has one). */
function SentState({ sent, onDone }: { sent: Sent; onDone: () => void }) {
  const m = useMessages().ui.account.send
  const url = explorerUrl(sent.network, 'tx', sent.hash)
  const explorer = sent.network.blockExplorers?.default.name
  const hash = shortenAddress(sent.hash)
  return (
    <div className="send-sent" role="status" data-testid="send-sent">
      <span className="send-ok">
        <Icons.check />
      </span>
      <p className="headline">{m.sent(sent.amount, sent.symbol)}</p>
      <p className="sub">
        {m.transaction}{' '}
        {url && explorer ? (
          <a href={url} target="_blank" rel="noreferrer noopener" title={sent.hash} aria-label={`${hash}, ${m.viewOn(explorer)}`} data-testid="send-explorer">
            {hash} <Icons.external />
          </a>
        ) : (
          <code title={sent.hash} data-testid="send-hash">
            {hash}
          </code>
        )}
      </p>
      <button type="button" className="btn secondary" onClick={onDone}>
        {m.done}
      </button>
    </div>
  )
}
