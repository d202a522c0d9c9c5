import type { ViewProps } from '../../registry.js'
import { useMessages, useModal } from '../../context.js'
import { Icons } from '../../ui.js'

/**
 * A request the user approved in the embedded wallet failed: the chain refused it (insufficient
 * funds, a revert) or it could not be sent. Shown in the approval's place (core's watcher), with
 * why, in the spec's words, wrapped however long.
 */
export function TransactionFailedView({ route }: ViewProps<'TransactionFailed'>) {
  const { client } = useModal()
  const m = useMessages().ui.account.send
  return (
    <div className="state" data-testid="transaction-failed">
      <span className="send-failed">
        <Icons.alert />
      </span>
      <p className="sub err" role="alert">
        {route.data.message}
      </p>
      <button type="button" className="btn secondary block" onClick={() => client.goBack()}>
        {m.ok}
      </button>
    </div>
  )
}
