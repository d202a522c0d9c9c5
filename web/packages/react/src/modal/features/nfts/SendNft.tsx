import { errorText, type SigilState } from '@sigil/core'
import { confirmSendNft, heldNft, prepareSendNft, previewSendNft, sendNftStep, type Nft, type PreparedNftSend } from '@sigil/core/nfts'
import { formatFee } from '@sigil/core/send'
import { useCallback, useEffect, useId, useState } from 'react'
import type { ViewProps } from '../../registry.js'
import { useMessages, useModal, useStore } from '../../context.js'
import { PreviewActions, SendFacts } from '../send/Preview.js'
import { ReceiverField, useReceiver } from '../send/WalletSend.js'
import { NftImage } from './NftImage.js'
import { NftStyles } from './styles.js'

const selectAddress = (s: SigilState) => s.chains[s.activeNamespace]?.account.address

/** The NFT being sent: its image, name and collection (and, once chosen, how many). */
function NftHead({ nft, amount }: { nft: Nft; amount?: string }) {
  const m = useMessages().ui.nfts
  return (
    <div className="nft-send-head" data-testid="nft-send-head">
      <NftImage src={nft.image} alt={nft.name} />
      <span className="meta">
        <span className="name">{amount && nft.standard === 'erc1155' ? m.amountOf(amount, nft.name) : nft.name}</span>
        {nft.collection.name ? <span className="sub">{nft.collection.name}</span> : null}
      </span>
    </div>
  )
}

/**
 * Sending an NFT: the receiver, an address or a name resolved for the active network as it is
 * typed (the send form's field), and for an ERC-1155 how many (1 by default, up to what is
 * held, 'Max'). The button says what the form still lacks; once nothing, it opens the Preview.
 */
export function SendNftView({ route }: ViewProps<'SendNft'>) {
  const { client } = useModal()
  const m = useMessages().ui
  const id = route.data.nft.id
  const nft = useStore(useCallback((s: SigilState) => heldNft(s, id), [id])) ?? route.data.nft
  const many = nft.standard === 'erc1155'
  const [amount, setAmount] = useState(route.data.amount ?? '1')
  const [to, setTo] = useState(route.data.to ?? '')
  const receiver = useReceiver(to)
  const formId = useId()
  const sent = many ? amount.trim() : '1'
  const step = sendNftStep({ nft, amount: sent, to, receiver: receiver.address, resolving: receiver.resolving })
  return (
    <form
      className="send"
      aria-label={m.nfts.titles.SendNft}
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (step === 'ready') previewSendNft(client, { nft, to: to.trim(), amount: sent })
      }}
      data-testid="send-nft"
    >
      <NftStyles />
      <NftHead nft={nft} />
      {many ? (
        <div className="send-box">
          <div className="send-line">
            <label htmlFor={`${formId}-amount`} className="send-label">
              {m.nfts.howMany}
            </label>
            <span className="send-balance" data-testid="nft-held">
              {m.nfts.ofHeld(nft.amount)}
            </span>
          </div>
          <div className="send-line">
            <input
              id={`${formId}-amount`}
              className="nft-amount"
              inputMode="numeric"
              autoComplete="off"
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              data-testid="nft-amount-input"
            />
            <button type="button" className="send-max" onClick={() => setAmount(nft.amount)} title={m.nfts.maxHint} data-testid="nft-max">
              {m.nfts.max}
            </button>
          </div>
        </div>
      ) : null}
      <ReceiverField id={formId} to={to} onChange={setTo} receiver={receiver} />
      <button type="submit" className="btn block" disabled={step !== 'ready'} data-testid="send-submit">
        {m.account.send.steps[step]}
      </button>
    </form>
  )
}

/**
 * What the NFT send will do, before it is signed: the NFT (and how many), from and to (the name
 * and the address it resolved to), the network and the most the fee can be, checked again as
 * the send will check them. 'Send' has the wallet sign; the send feature's sent state follows.
 */
export function SendNftPreviewView({ route }: ViewProps<'SendNftPreview'>) {
  const { client } = useModal()
  const m = useMessages().ui.account.send
  const from = useStore(selectAddress)
  const [prepared, setPrepared] = useState<PreparedNftSend>()
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const { nft, to, amount } = route.data

  useEffect(() => {
    let live = true
    setPrepared(undefined)
    setError(undefined)
    prepareSendNft(client, { nft, to, amount }).then(
      (p) => live && setPrepared(p),
      (e: unknown) => live && setError(errorText(e)),
    )
    return () => {
      live = false
    }
  }, [client, nft, to, amount])

  const send = async () => {
    if (!prepared) return
    setBusy(true)
    setError(undefined)
    try {
      await confirmSendNft(client, {
        nft,
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

  const fee = prepared?.fee
  return (
    <div className="send-preview" data-testid="send-preview" aria-busy={!prepared && !error}>
      <NftStyles />
      <div className="send-summary">
        <span className="sub">{m.summary}</span>
        <NftHead nft={nft} amount={amount} />
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
