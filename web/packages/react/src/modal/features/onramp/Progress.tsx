import { explorerUrl, shortenAddress, type SigilState } from '@sigil/core'
import { finishOnramp, leaveOnramp, watchOnramp } from '@sigil/core/onramp'
import { useEffect } from 'react'
import type { ViewProps } from '../../registry.js'
import { useMessages, useModal, useStore } from '../../context.js'
import { Icons, Ltr } from '../../ui.js'

const selectNetwork = (s: SigilState) => s.activeCaipNetwork

/**
 * A purchase in the provider's window (issue 24): what is paid and about what comes, the
 * provider's page offered as a link (the browser may have blocked the window, or the visitor
 * closed it), and the purchase followed to its end: done with the transaction that delivered
 * the coins, or failed as the provider says.
 */
export function OnRampProgressView({ route }: ViewProps<'OnRampProgress'>) {
  const { client } = useModal()
  const m = useMessages().ui.onramp
  const network = useStore(selectNetwork)
  const progress = route.data
  const ended = progress.status === 'completed' || progress.status === 'failed'

  useEffect(() => {
    if (ended) return
    const stop = new AbortController()
    watchOnramp(client, progress, stop.signal).then(
      (session) => finishOnramp(client, progress, session),
      () => undefined,
    )
    return () => stop.abort()
  }, [client, progress, ended])

  const bought = progress.buying.amount ? `${progress.buying.amount} ${progress.buying.currency}` : progress.buying.currency
  if (progress.status === 'completed') {
    const url = progress.txHash ? explorerUrl(network, 'tx', progress.txHash) : undefined
    const hash = progress.txHash ? shortenAddress(progress.txHash) : undefined
    return (
      <div className="send-sent" role="status" data-testid="onramp-done">
        <span className="send-ok">
          <Icons.check />
        </span>
        <p className="headline">{progress.buying.amount ? m.done(progress.buying.amount, progress.buying.currency) : m.doneSome(progress.buying.currency)}</p>
        {hash ? (
          <p className="sub">
            {m.transaction}{' '}
            {url ? (
              <a href={url} target="_blank" rel="noreferrer noopener" title={progress.txHash} data-testid="onramp-explorer">
                <Ltr>{hash}</Ltr> <Icons.external />
              </a>
            ) : (
              <code title={progress.txHash} data-testid="onramp-hash">
                <Ltr>{hash}</Ltr>
              </code>
            )}
          </p>
        ) : null}
        <button type="button" className="btn secondary block" onClick={() => leaveOnramp(client)}>
          {m.close}
        </button>
      </div>
    )
  }
  if (progress.status === 'failed') {
    return (
      <div className="send-sent" role="alert" data-testid="onramp-failed">
        <span className="send-failed">
          <Icons.alert />
        </span>
        <p className="headline">{m.failed(progress.label)}</p>
        <button type="button" className="btn block" onClick={() => client.goBack()}>
          {m.tryAgain}
        </button>
      </div>
    )
  }
  return (
    <div className="send-sent" data-testid="onramp-progress">
      <span className="send-ok onramp-wait" aria-hidden="true">
        <Icons.refresh />
      </span>
      <p className="headline" role="status">
        {progress.opened ? m.waiting(progress.label) : m.blocked(progress.label)}
      </p>
      <p className="sub" data-testid="onramp-paying">
        {m.paying(progress.paid.amount, progress.paid.currency, bought)}
      </p>
      <p className="sub swap-note">{m.follow}</p>
      <a className="btn secondary block" href={progress.url} target="_blank" rel="noopener" data-testid="onramp-open">
        {progress.opened ? m.openAgain(progress.label) : m.openProvider(progress.label)}
      </a>
    </div>
  )
}
