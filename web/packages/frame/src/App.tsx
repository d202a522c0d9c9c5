import { messages } from '@sigil/core/messages'
import { useState, useSyncExternalStore } from 'react'
import { describe } from './describe.js'
import type { Approval, FrameController, FrameState, KeyExport } from './frame.js'
import { useArmed } from './visibility.js'

const m = messages.ui.frame

/** The frame's own view: empty while hidden; the approval of a request, or the key export, when the modal shows it. */
export function App({ controller }: { controller: FrameController }) {
  const state = useSyncExternalStore(controller.subscribe, controller.getState)
  const { approval, keyExport } = state
  if (keyExport) return <Export controller={controller} state={state} keyExport={keyExport} />
  if (!approval) return <p className="sr">{m.ready}</p>
  return <ApprovalView key={approval.id} controller={controller} state={state} approval={approval} />
}

/** A request to approve, in words; Approve works once the view has been seen for a moment (./visibility.ts). */
function ApprovalView({ controller, state, approval }: { controller: FrameController; state: FrameState; approval: Approval }) {
  const [view, armed] = useArmed<HTMLElement>(approval.id)
  const text = describe(approval.method, approval.params, approval.chainId)
  return (
    <section ref={view} className="approval" aria-labelledby="approval-title" data-testid="frame-approval" data-method={approval.method}>
      <p className="app">{m.approveTitle(state.appName ?? m.thisApp)}</p>
      <h1 id="approval-title">{text.title}</h1>
      <ul>
        {text.lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {text.warnings ? (
        <div className="warnings" role="alert" data-testid="frame-approval-warnings">
          {text.warnings.map((warning) => (
            <p key={warning}>{warning}</p>
          ))}
        </div>
      ) : null}
      {text.body ? (
        <pre className="body" data-testid="frame-approval-body">
          {text.body}
        </pre>
      ) : null}
      <div className="actions">
        <button type="button" className="reject" onClick={controller.reject} disabled={approval.busy}>
          {m.reject}
        </button>
        <button type="button" className="approve" onClick={controller.approve} disabled={approval.busy || !armed}>
          {approval.busy ? m.working : m.approve}
        </button>
      </div>
    </section>
  )
}

/** The key export: a code to the user's email first; then the keys, here only. */
function Export({ controller, state, keyExport }: { controller: FrameController; state: FrameState; keyExport: KeyExport }) {
  const [otp, setOtp] = useState('')
  // Each step's button acts for the user: it works once that step has been seen for a moment.
  const [view, armed] = useArmed<HTMLElement>(keyExport.step)
  return (
    <section ref={view} className="approval" data-testid="frame-export" data-step={keyExport.step}>
      <p className="app">{m.exportIntro(state.appName ?? m.thisApp)}</p>
      {keyExport.step === 'start' ? (
        <div className="actions">
          <button type="button" className="reject" onClick={controller.exportDone}>
            {m.exportCancel}
          </button>
          <button type="button" className="approve" onClick={controller.exportSendCode} disabled={keyExport.busy || !armed}>
            {keyExport.busy ? m.working : m.exportSendCode}
          </button>
        </div>
      ) : null}
      {keyExport.step === 'code' ? (
        <form
          className="actions"
          onSubmit={(e) => {
            e.preventDefault()
            if (armed) controller.exportShow(otp)
          }}
        >
          <input
            inputMode="numeric"
            autoComplete="one-time-code"
            aria-label={m.exportCode}
            placeholder={m.exportCodeSent}
            value={otp}
            onChange={(e) => setOtp(e.target.value)}
          />
          <button type="submit" className="approve" disabled={keyExport.busy || !armed}>
            {keyExport.busy ? m.working : m.exportShow}
          </button>
        </form>
      ) : null}
      {keyExport.step === 'keys' && keyExport.keys ? (
        <>
          <h1>{m.exportEvm}</h1>
          <pre className="body" data-testid="export-eip155">
            {keyExport.keys.eip155}
          </pre>
          <h1>{m.exportSolana}</h1>
          <pre className="body" data-testid="export-solana">
            {keyExport.keys.solana}
          </pre>
          <div className="actions">
            <button type="button" className="approve" onClick={controller.exportDone}>
              {m.exportDone}
            </button>
          </div>
        </>
      ) : null}
      {keyExport.error ? (
        <p className="error" role="alert">
          {keyExport.error}
        </p>
      ) : null}
    </section>
  )
}
