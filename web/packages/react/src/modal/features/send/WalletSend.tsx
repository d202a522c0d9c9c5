import { errorText, formatUnits, type SigilState } from '@sigil/core'
import {
  heldToken,
  isName,
  isReceiverAddress,
  maxSendAmount,
  openSendTokens,
  previewSend,
  resetSendForm,
  resolveReceiver,
  sendStep,
  tokenKey,
} from '@sigil/core/send'
import { useEffect, useId, useRef, useState } from 'react'
import type { ViewProps } from '../../registry.js'
import { useFormat, useMessages, useModal, useStore } from '../../context.js'
import { Icons, RemoteImage } from '../../ui.js'

export const selectTokens = (s: SigilState) => s.chains[s.activeNamespace]?.account.tokenBalance
export const selectNetwork = (s: SigilState) => s.activeCaipNetwork
const selectNamespace = (s: SigilState) => s.activeNamespace

/** How long typing pauses before a name is looked up. */
export const RESOLVE_DELAY_MS = 300

/** A receiver as typed: its address (itself, or the address its name gives the active network), the name, and whether it is being looked up. */
export interface Receiver {
  address: string | undefined
  resolving: boolean
  name: string | undefined
}

/** A receiver as typed: its address (itself, or the address its name gives the active network), and whether a name is being looked up. */
export function useReceiver(to: string): Receiver {
  const { client } = useModal()
  const network = useStore(selectNetwork)
  const typed = to.trim()
  const direct = typed !== '' && isReceiverAddress(client, typed)
  const named = !direct && isName(typed)
  const [found, setFound] = useState<{ name: string; network: string; address: string | undefined }>()
  useEffect(() => {
    if (!named) return
    let live = true
    const timer = setTimeout(() => {
      resolveReceiver(client, { name: typed }).then(
        (address) => live && setFound({ name: typed, network: network.caipNetworkId, address }),
        () => live && setFound({ name: typed, network: network.caipNetworkId, address: undefined }),
      )
    }, RESOLVE_DELAY_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [client, named, typed, network.caipNetworkId])
  if (direct) return { address: typed, resolving: false, name: undefined }
  if (!named) return { address: undefined, resolving: false, name: undefined }
  const current = found?.name === typed && found.network === network.caipNetworkId ? found : undefined
  return { address: current?.address, resolving: !current, name: typed }
}

/**
 * The send form (spec section 4 "Send"): the token (a chip that opens WalletSendSelectToken),
 * the amount in the token's units with 'Max' and its fiat value when priced, and the receiver,
 * an address or a name resolved for the active network as it is typed, its address shown
 * under it. The button says what the form still lacks; once nothing, it opens the Preview.
 */
export function WalletSendView({ route }: ViewProps<'WalletSend'>) {
  const { client } = useModal()
  const m = useMessages().ui.account.send
  const tokens = useStore(selectTokens) ?? []
  const token = heldToken(tokens, route.data.token)
  const [amount, setAmount] = useState(route.data.amount ?? '')
  const [to, setTo] = useState(route.data.to ?? '')
  const [maxing, setMaxing] = useState(false)
  const [error, setError] = useState<string>()
  const namespace = useStore(selectNamespace)
  const shownFor = useRef(namespace)
  // Another namespace (the wallet or the page switched it): the form starts again.
  useEffect(() => {
    if (shownFor.current === namespace) return
    shownFor.current = namespace
    setAmount('')
    setTo('')
    setError(undefined)
    resetSendForm(client)
  }, [client, namespace])
  const receiver = useReceiver(to)
  const id = useId()
  const step = sendStep({ token, amount, to, receiver: receiver.address, resolving: receiver.resolving })
  const form = { ...(token ? { token: tokenKey(token) } : {}), amount, to: to.trim() }
  const price = token?.price ?? 0
  const units = Number(amount)
  const format = useFormat()
  const fiat = price > 0 && amount.trim() && Number.isFinite(units) ? format.money(units * price, 'USD') : undefined

  const max = async () => {
    if (!token) return
    setError(undefined)
    setMaxing(true)
    try {
      const most = await maxSendAmount(client, { token: tokenKey(token), ...(receiver.address ? { to: receiver.address } : {}) })
      setAmount(formatUnits(most, Number(token.quantity.decimals)))
    } catch (e) {
      setError(errorText(e))
    } finally {
      setMaxing(false)
    }
  }

  return (
    <form
      className="send"
      aria-label={m.title}
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (step === 'ready' && token) previewSend(client, { token: tokenKey(token), amount: amount.trim(), to: to.trim() })
      }}
      data-testid="wallet-send"
    >
      <div className="send-box">
        <div className="send-line">
          <label htmlFor={`${id}-amount`} className="send-label">
            {m.amount}
          </label>
          {token ? (
            <span className="send-balance" data-testid="send-balance">
              {m.balance(format.ltr(format.amount(token.quantity.numeric)), token.symbol)}
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
            data-testid="send-amount"
          />
          <button
            type="button"
            className="pill send-token"
            onClick={() => openSendTokens(client, form)}
            aria-label={token ? m.changeToken(token.symbol) : m.chooseToken}
            data-testid="send-token"
          >
            {token ? <RemoteImage src={token.iconUrl || undefined} name={token.symbol} className="sm" /> : null}
            {token ? token.symbol : m.chooseToken}
            <Icons.chevron />
          </button>
        </div>
        {token ? (
          <div className="send-line">
            <span className="send-fiat" data-testid="send-fiat">
              {fiat ?? '\u00a0'}
            </span>
            <button
              type="button"
              className="send-max"
              onClick={() => void max()}
              disabled={maxing}
              aria-busy={maxing || undefined}
              title={m.maxHint}
              data-testid="send-max"
            >
              {m.max}
            </button>
          </div>
        ) : null}
      </div>
      <ReceiverField id={id} to={to} onChange={setTo} receiver={receiver} />
      {error ? (
        <p className="sub err" role="alert" data-testid="send-error">
          {error}
        </p>
      ) : null}
      <button type="submit" className="btn block" disabled={step !== 'ready'} data-testid="send-submit">
        {m.steps[step]}
      </button>
    </form>
  )
}

/** The receiver's box: an address or a name (alice.eth), with the address the name gives the active network (or why none) under it. */
export function ReceiverField({ id, to, onChange, receiver }: { id: string; to: string; onChange: (to: string) => void; receiver: Receiver }) {
  const m = useMessages().ui.account.send
  const network = useStore(selectNetwork)
  return (
    <div className="send-box">
      <label htmlFor={`${id}-to`} className="send-label">
        {m.receiver}
      </label>
      <input
        id={`${id}-to`}
        className="send-to"
        autoComplete="off"
        spellCheck={false}
        placeholder={m.receiverPlaceholder}
        value={to}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={`${id}-resolved`}
        data-testid="send-to"
      />
      <p id={`${id}-resolved`} className="sub send-resolved" aria-live="polite" data-testid="send-resolved">
        {receiver.name
          ? receiver.resolving
            ? m.resolving
            : receiver.address
              ? m.resolvedTo(receiver.address)
              : m.noAddressFor(receiver.name, network.name)
          : null}
      </p>
    </div>
  )
}
