import { explorerUrl, shortenAddress } from '@sigil/core'
import type { ViewProps } from '../../registry.js'
import { useMessages, useModal, useStore } from '../../context.js'
import { Icons } from '../../ui.js'
import { selectNetwork } from './tokens.js'

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
      <p className="headline">{m.done(done.fromAmount, done.fromSymbol, done.toAmount, done.toSymbol)}</p>
      <p className="sub">
        {m.transaction}{' '}
        {url && explorer ? (
          <a href={url} target="_blank" rel="noreferrer noopener" title={done.hash} aria-label={`${hash}, ${m.viewOn(explorer)}`} data-testid="swap-explorer">
            {hash} <Icons.external />
          </a>
        ) : (
          <code title={done.hash} data-testid="swap-hash">
            {hash}
          </code>
        )}
      </p>
      <button type="button" className="btn secondary block" onClick={() => client.goBack()}>
        {m.close}
      </button>
    </div>
  )
}
