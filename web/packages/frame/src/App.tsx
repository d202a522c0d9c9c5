import { messages } from '@sigil/core/messages'
import { useSyncExternalStore } from 'react'
import { describe } from './describe.js'
import type { FrameController } from './frame.js'

const m = messages.ui.frame

/** The frame's own view: empty while hidden, the approval of a request when the modal shows it. */
export function App({ controller }: { controller: FrameController }) {
  const state = useSyncExternalStore(controller.subscribe, controller.getState)
  const { approval } = state
  if (!approval) return <p className="sr">{m.ready}</p>
  const text = describe(approval.method, approval.params, approval.chainId)
  return (
    <section className="approval" aria-labelledby="approval-title" data-testid="frame-approval" data-method={approval.method}>
      <p className="app">{m.approveTitle(state.appName ?? m.thisApp)}</p>
      <h1 id="approval-title">{text.title}</h1>
      <ul>
        {text.lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {text.body ? (
        <pre className="body" data-testid="frame-approval-body">
          {text.body}
        </pre>
      ) : null}
      <div className="actions">
        <button type="button" className="reject" onClick={controller.reject} disabled={approval.busy}>
          {m.reject}
        </button>
        <button type="button" className="approve" onClick={controller.approve} disabled={approval.busy}>
          {approval.busy ? m.working : m.approve}
        </button>
      </div>
    </section>
  )
}
