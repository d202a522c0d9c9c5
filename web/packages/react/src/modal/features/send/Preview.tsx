import { errorText, shortenAddress, type SigilState } from '@sigil/core'
import { confirmSend, formatFee, heldToken, prepareSend, type PreparedSend } from '@sigil/core/send'
import { useEffect, useState } from 'react'
import type { ViewProps } from '../../registry.js'
import { useMessages, useModal, useStore } from '../../context.js'
import { Ltr, RemoteImage } from '../../ui.js'
import { selectNetwork, selectTokens } from './WalletSend.js'

const selectAddress = (s: SigilState) => s.chains[s.activeNamespace]?.account.address

/**
 * What the send will do, before it is signed: the amount and token, from and to (the name and
 * the address it resolved to), the network and, on EVM, the most the network fee can be. The
 * form's values are checked again as the send will check them; what is wrong shows here, before
 * the wallet is asked. 'Send' has the wallet sign; 'Cancel' goes back to the form.
 */
export function WalletSendPreviewView({ route }: ViewProps<'WalletSendPreview'>) {
  const { client } = useModal()
  const m = useMessages().ui.account.send
  const from = useStore(selectAddress)
  const tokens = useStore(selectTokens) ?? []
  const [prepared, setPrepared] = useState<PreparedSend>()
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const { token, amount, to } = route.data

  useEffect(() => {
    let live = true
    setPrepared(undefined)
    setError(undefined)
    prepareSend(client, { token, amount, to }).then(
      (p) => live && setPrepared(p),
      (e: unknown) => live && setError(errorText(e)),
    )
    return () => {
      live = false
    }
  }, [client, token, amount, to])

  const send = async () => {
    if (!prepared) return
    setBusy(true)
    setError(undefined)
    try {
      await confirmSend(client, {
        token,
        amount,
        to: prepared.transfer.to,
        ...(prepared.fee ? { fee: prepared.fee } : {}),
        ...(prepared.name ? { name: prepared.name } : {}),
      })
    } catch (e) {
      setError(errorText(e))
      setBusy(false)
    }
  }

  const held = prepared?.token ?? heldToken(tokens, token)
  const fee = prepared?.fee
  return (
    <div className="send-preview" data-testid="send-preview" aria-busy={!prepared && !error}>
      <div className="send-summary">
        <span className="sub">{m.summary}</span>
        <span className="send-total" data-testid="send-preview-amount">
          {held ? <RemoteImage src={held.iconUrl || undefined} name={held.symbol} className="sm" /> : null}
          {`${amount} ${held?.symbol ?? ''}`.trim()}
        </span>
      </div>
      <SendFacts
        from={from}
        to={prepared?.transfer.to ?? to}
        name={prepared?.name}
        fee={fee?.gas ? m.feeUpTo(formatFee(fee.fee, prepared?.feeCurrency.decimals ?? 18), prepared?.feeCurrency.symbol ?? '') : undefined}
      />
      <PreviewActions error={error} checking={!prepared} busy={busy} onSend={() => void send()} />
    </div>
  )
}

/** A send's facts: from, to (the name and the address it resolved to), the network and, when quoted, the most the fee can be. */
export function SendFacts({ from, to, name, fee }: { from: string | undefined; to: string; name: string | undefined; fee: string | undefined }) {
  const { directory } = useModal()
  const m = useMessages().ui.account.send
  const network = useStore(selectNetwork)
  return (
    <dl className="send-facts">
      <div>
        <dt>{m.from}</dt>
        <dd title={from}>{from ? <Ltr>{shortenAddress(from)}</Ltr> : '—'}</dd>
      </div>
      <div>
        <dt>{m.to}</dt>
        <dd data-testid="send-preview-to">
          {name ? (
            <span className="send-name">
              <Ltr>{name}</Ltr>
            </span>
          ) : null}
          <span title={to}>
            <Ltr>{shortenAddress(to)}</Ltr>
          </span>
        </dd>
      </div>
      <div>
        <dt>{m.network}</dt>
        <dd>
          <RemoteImage src={directory.networkImage(network)} name={network.name} className="sm" />
          {network.name}
        </dd>
      </div>
      {fee ? (
        <div>
          <dt>{m.fee}</dt>
          <dd data-testid="send-fee">{fee}</dd>
        </div>
      ) : null}
    </dl>
  )
}

/** What is wrong (or that the send is being checked), then Cancel (back to the form) and Send (the wallet signs). */
export function PreviewActions({ error, checking, busy, onSend }: { error: string | undefined; checking: boolean; busy: boolean; onSend: () => void }) {
  const { client } = useModal()
  const m = useMessages().ui.account.send
  return (
    <>
      {error ? (
        <p className="sub err" role="alert" data-testid="send-error">
          {error}
        </p>
      ) : checking ? (
        <p className="sub" aria-live="polite">
          {m.checking}
        </p>
      ) : null}
      <div className="send-actions">
        <button type="button" className="btn secondary" onClick={() => client.goBack()} disabled={busy}>
          {m.cancel}
        </button>
        <button type="button" className="btn" onClick={onSend} disabled={checking || busy} aria-busy={busy || undefined} data-testid="send-confirm">
          {busy ? m.sending : m.submit}
        </button>
      </div>
    </>
  )
}
