import { explorerUrl, shortenAddress } from '@sigil/core'
import type { ViewProps } from '../../registry.js'
import { useFormat, useMessages, useModal, useStore } from '../../context.js'
import { Icons, Ltr } from '../../ui.js'
import { selectNetwork } from './WalletSend.js'

/** The send went through: what was sent, to whom, and the transaction (its explorer page where the network has one). */
export function WalletSendSentView({ route }: ViewProps<'WalletSendSent'>) {
  const { client } = useModal()
  const m = useMessages().ui.account.send
  const network = useStore(selectNetwork)
  const sent = route.data
  const url = explorerUrl(network, 'tx', sent.hash)
  const explorer = network.blockExplorers?.default.name
  const hash = shortenAddress(sent.hash)
  const format = useFormat()
  return (
    <div className="send-sent" role="status" data-testid="send-sent">
      <span className="send-ok">
        <Icons.check />
      </span>
      <p className="headline">{m.sent(sent.amount, sent.symbol)}</p>
      <p className="sub" title={sent.to}>
        {m.sentTo(format.ltr(sent.name ?? shortenAddress(sent.to)))}
      </p>
      <p className="sub">
        {m.transaction}{' '}
        {url && explorer ? (
          <a href={url} target="_blank" rel="noreferrer noopener" title={sent.hash} aria-label={`${hash}, ${m.viewOn(explorer)}`} data-testid="send-explorer">
            <Ltr>{hash}</Ltr> <Icons.external />
          </a>
        ) : (
          <code title={sent.hash} data-testid="send-hash">
            <Ltr>{hash}</Ltr>
          </code>
        )}
      </p>
      <button type="button" className="btn secondary block" onClick={() => client.goBack()}>
        {m.done}
      </button>
    </div>
  )
}
