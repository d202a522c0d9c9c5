import { explorerUrl, findNetwork, shortenAddress, type SigilState } from '@sigil/core'
import { finishPay, leavePay, watchPay } from '@sigil/core/pay'
import { useEffect } from 'react'
import type { ViewProps } from '../../registry.js'
import { useMessages, useModal, useStore } from '../../context.js'
import { Icons, Ltr } from '../../ui.js'

/**
 * A deposit in the exchange's window (issue 27's `pay`): what is deposited, the exchange's page
 * offered as a link (the browser may have blocked the window, or the visitor closed it), and the
 * deposit followed until the server, which reads the address's balance on chain, says it
 * arrived (with its transaction when known) or failed.
 */
export function PayProgressView({ route }: ViewProps<'PayProgress'>) {
  const { client } = useModal()
  const m = useMessages().pay
  const progress = route.data
  // The deposit's own network: the visitor may have switched since it started.
  const network = useStore((s: SigilState) => findNetwork(s, progress.network))
  const ended = progress.status === 'SUCCESS' || progress.status === 'FAILED'

  useEffect(() => {
    if (ended) return
    const stop = new AbortController()
    watchPay(client, progress, stop.signal).then(
      (outcome) => finishPay(client, progress, outcome),
      () => undefined,
    )
    return () => stop.abort()
  }, [client, progress, ended])

  if (progress.status === 'SUCCESS') {
    const url = progress.txHash && network ? explorerUrl(network, 'tx', progress.txHash) : undefined
    const hash = progress.txHash ? shortenAddress(progress.txHash) : undefined
    return (
      <div className="send-sent" role="status" data-testid="pay-done">
        <span className="send-ok">
          <Icons.check />
        </span>
        <p className="headline">{m.done(progress.amount, progress.symbol)}</p>
        {hash ? (
          <p className="sub">
            {m.transaction}{' '}
            {url ? (
              <a href={url} target="_blank" rel="noreferrer noopener" title={progress.txHash} data-testid="pay-explorer">
                <Ltr>{hash}</Ltr> <Icons.external />
              </a>
            ) : (
              <code title={progress.txHash} data-testid="pay-hash">
                <Ltr>{hash}</Ltr>
              </code>
            )}
          </p>
        ) : null}
        <button type="button" className="btn secondary block" onClick={() => leavePay(client)}>
          {m.close}
        </button>
      </div>
    )
  }
  if (progress.status === 'FAILED') {
    return (
      <div className="send-sent" role="alert" data-testid="pay-failed">
        <span className="send-failed">
          <Icons.alert />
        </span>
        <p className="headline">{m.failed(progress.exchange)}</p>
        <button type="button" className="btn block" onClick={() => client.goBack()}>
          {m.tryAgain}
        </button>
      </div>
    )
  }
  return (
    <div className="send-sent" data-testid="pay-progress">
      <span className="send-ok onramp-wait" aria-hidden="true">
        <Icons.refresh />
      </span>
      <p className="headline" role="status">
        {progress.opened ? m.waiting(progress.exchange) : m.blocked(progress.exchange)}
      </p>
      <p className="sub" data-testid="pay-depositing">
        {m.depositing(progress.amount, progress.symbol)}
      </p>
      <p className="sub swap-note">{m.follow}</p>
      <a className="btn secondary block" href={progress.url} target="_blank" rel="noopener" data-testid="pay-open">
        {progress.opened ? m.openAgain(progress.exchange) : m.openExchange(progress.exchange)}
      </a>
    </div>
  )
}
