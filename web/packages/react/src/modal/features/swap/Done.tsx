import { explorerUrl, shortenAddress } from '@sigil/core'
import type { ViewProps } from '../../registry.js'
import { useMessages, useModal, useStore } from '../../context.js'
import { Icons, Ltr } from '../../ui.js'
import { selectNetwork } from './tokens.js'

/** An amount as the done state says it: at most 6 decimals (rounded down). */
const short = (amount: string) => amount.replace(/(\.\d{6})\d+$/, '$1')

/** The swap went through: what was paid, about what came, and the transaction (its explorer page where the network has one). */
export function SwapDoneView({ route }: ViewProps<'SwapDone'>) {
  const { client } = useModal()
  const m = useMessages().ui.swap
  const network = useStore(selectNetwork)
  const done = route.data
  const url = explorerUrl(network, 'tx', done.hash)
  const explorer = network.blockExplorers?.default.name
  const hash = shortenAddress(done.hash)
  return (
    <div className="send-sent" role="status" data-testid="swap-done">
      <span className="send-ok">
        <Icons.check />
      </span>
      <p className="headline">{m.done(short(done.fromAmount), done.fromSymbol, short(done.toAmount), done.toSymbol)}</p>
      <p className="sub">
        {m.transaction}{' '}
        {url && explorer ? (
          <a href={url} target="_blank" rel="noreferrer noopener" title={done.hash} aria-label={`${hash}, ${m.viewOn(explorer)}`} data-testid="swap-explorer">
            <Ltr>{hash}</Ltr> <Icons.external />
          </a>
        ) : (
          <code title={done.hash} data-testid="swap-hash">
            <Ltr>{hash}</Ltr>
          </code>
        )}
      </p>
      <button type="button" className="btn secondary block" onClick={() => client.goBack()}>
        {m.close}
      </button>
    </div>
  )
}
