import { type ReactNode, type RefObject, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react'
import { type AddressLine, describe } from './describe.js'
import type { Approval, FrameController, FrameState, KeyExport } from './frame.js'
import { useArmed } from './visibility.js'
import { m } from './words.js'

/** The frame's own view: empty while hidden; the approval of a request, or the key export, when the modal shows it. */
export function App({ controller }: { controller: FrameController }) {
  const state = useSyncExternalStore(controller.subscribe, controller.getState)
  const { approval, keyExport } = state
  if (keyExport) return <Export controller={controller} state={state} keyExport={keyExport} />
  if (!approval) return <p className="sr">{m.ready}</p>
  return <ApprovalView key={approval.id} controller={controller} state={state} approval={approval} />
}

/**
 * The height the view needs at the frame's width, told to the host (which sizes the frame to it
 * within the space it has); and whether the scrolling part has more below what shows (the fade).
 * The view is at most the frame's height: what does not fit scrolls inside `scroller`, whose
 * content is `content`, so the view needs its own height less the scroller's plus the content's.
 */
function useFit(
  controller: FrameController,
  view: RefObject<HTMLElement | null>,
  scroller: RefObject<HTMLElement | null>,
  content: RefObject<HTMLElement | null>,
): boolean {
  const [more, setMore] = useState(false)
  useLayoutEffect(() => {
    const [section, scroll, inner] = [view.current, scroller.current, content.current]
    if (!section || !scroll || !inner) return
    const measure = () => {
      controller.reportHeight(section.offsetHeight - scroll.clientHeight + inner.offsetHeight)
      setMore(scroll.scrollHeight - scroll.scrollTop - scroll.clientHeight > 1)
    }
    measure()
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure)
    observer?.observe(section)
    observer?.observe(inner)
    scroll.addEventListener('scroll', measure, { passive: true })
    return () => {
      observer?.disconnect()
      scroll.removeEventListener('scroll', measure)
    }
  }, [controller, view, scroller, content])
  return more
}

/**
 * A view of the frame: what it says scrolls inside (with a fade at the bottom while there is
 * more), its buttons (`actions`) always show at the bottom.
 */
function Panel({
  controller,
  view,
  actions,
  children,
  ...attributes
}: {
  controller: FrameController
  view: RefObject<HTMLElement | null>
  actions: ReactNode
  children: ReactNode
  'aria-labelledby'?: string
  'data-testid': string
  'data-method'?: string
  'data-step'?: string
}) {
  const scroller = useRef<HTMLDivElement>(null)
  const content = useRef<HTMLDivElement>(null)
  const more = useFit(controller, view, scroller, content)
  return (
    <section ref={view} className="approval" {...attributes}>
      <div className="scroll-area" data-more={more} data-testid="frame-scroll">
        <div ref={scroller} className="scroll">
          <div ref={content} className="content">
            {children}
          </div>
        </div>
      </div>
      {actions}
    </section>
  )
}

/** A request to approve, in words; Approve works once the view has been seen for a moment (./visibility.ts). */
function ApprovalView({ controller, state, approval }: { controller: FrameController; state: FrameState; approval: Approval }) {
  const [view, armed] = useArmed<HTMLElement>(approval.id)
  const text = describe(approval.method, approval.params, approval.chainId, state.networkNames, approval.tokens)
  return (
    <Panel
      controller={controller}
      view={view}
      aria-labelledby="approval-title"
      data-testid="frame-approval"
      data-method={approval.method}
      actions={
        <div className="actions">
          <button type="button" className="reject" onClick={controller.reject} disabled={approval.busy}>
            {m.reject}
          </button>
          <button type="button" className="approve" onClick={controller.approve} disabled={approval.busy || !armed}>
            {approval.busy ? m.working : m.approve}
          </button>
        </div>
      }
    >
      <p className="app">{m.approveTitle(state.appName ?? m.thisApp)}</p>
      <h1 id="approval-title">{text.title}</h1>
      <ul>
        {text.lines.map((line) => (typeof line === 'string' ? <li key={line}>{line}</li> : <AddressItem key={`${line.label}:${line.address}`} line={line} />))}
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
    </Panel>
  )
}

/** An address shortened to its ends (a line fits a phone), in full on hover and when copied. */
export function shortAddress(address: string): string {
  return address.length > 18 ? `${address.slice(0, 8)}…${address.slice(-6)}` : address
}

function AddressItem({ line }: { line: AddressLine }) {
  return (
    <li className="address" data-testid="frame-address">
      <span>{line.label}</span>{' '}
      <bdi className="addr" dir="ltr" title={line.address} data-address={line.address}>
        {shortAddress(line.address)}
      </bdi>
      <CopyButton text={line.address} label={m.copyAddress(line.label)} />
    </li>
  )
}

/**
 * Copies `text` to the clipboard from this frame (the host page never has it): a check mark
 * for a moment once done; when the browser refuses, the words to select and copy it by hand.
 */
function CopyButton({ text, label, disabled, testId }: { text: string; label: string; disabled?: boolean; testId?: string }) {
  const [done, setDone] = useState<'copied' | 'failed'>()
  useEffect(() => {
    if (!done) return
    const timer = setTimeout(() => setDone(undefined), done === 'copied' ? 1500 : 4000)
    return () => clearTimeout(timer)
  }, [done])
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text)
      setDone('copied')
    } catch {
      setDone('failed')
    }
  }
  return (
    <>
      <button
        type="button"
        className="copy"
        aria-label={done === 'copied' ? m.copied : label}
        title={done === 'copied' ? m.copied : label}
        onClick={() => void copy()}
        disabled={disabled}
        data-testid={testId}
        data-copied={done === 'copied'}
      >
        {done === 'copied' ? <CheckIcon /> : <CopyIcon />}
      </button>
      {done === 'failed' ? (
        <span className="note" role="status">
          {m.copyFailed}
        </span>
      ) : null}
    </>
  )
}

/** A 16 px line icon in the text's colour. */
function Icon({ strokeWidth = 2, children }: { strokeWidth?: number; children: ReactNode }) {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {children}
    </svg>
  )
}

const CopyIcon = () => (
  <Icon>
    <rect x="9" y="9" width="12" height="12" rx="2" />
    <path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1" />
  </Icon>
)

const CheckIcon = () => (
  <Icon strokeWidth={2.5}>
    <path d="M20 6 9 17l-5-5" />
  </Icon>
)

/** The key export: a code to the user's email first; then the keys, here only, each with its copy button. */
function Export({ controller, state, keyExport }: { controller: FrameController; state: FrameState; keyExport: KeyExport }) {
  const [otp, setOtp] = useState('')
  // Each step's buttons act for the user: they work once that step has been seen for a moment.
  const [view, armed] = useArmed<HTMLElement>(keyExport.step)
  let actions: ReactNode = null
  if (keyExport.step === 'start')
    actions = (
      <div className="actions">
        <button type="button" className="reject" onClick={controller.exportDone}>
          {m.exportCancel}
        </button>
        <button type="button" className="approve" onClick={controller.exportSendCode} disabled={keyExport.busy || !armed}>
          {keyExport.busy ? m.working : m.exportSendCode}
        </button>
      </div>
    )
  else if (keyExport.step === 'code')
    actions = (
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
          placeholder={m.exportCodePlaceholder}
          value={otp}
          onChange={(e) => setOtp(e.target.value)}
        />
        <button type="submit" className="approve" disabled={keyExport.busy || !armed}>
          {keyExport.busy ? m.working : m.exportShow}
        </button>
      </form>
    )
  else if (keyExport.keys)
    actions = (
      <div className="actions">
        <button type="button" className="approve" onClick={controller.exportDone}>
          {m.exportDone}
        </button>
      </div>
    )
  return (
    <Panel controller={controller} view={view} data-testid="frame-export" data-step={keyExport.step} actions={actions}>
      <p className="app">{m.exportIntro(state.appName ?? m.thisApp)}</p>
      {keyExport.step === 'code' ? <p className="hint">{m.exportCodeSent}</p> : null}
      {keyExport.step === 'keys' && keyExport.keys ? (
        <>
          <Key title={m.exportEvm} value={keyExport.keys.eip155} testId="export-eip155" armed={armed} />
          <Key title={m.exportSolana} value={keyExport.keys.solana} testId="export-solana" armed={armed} />
        </>
      ) : null}
      {keyExport.error ? (
        <p className="error" role="alert">
          {keyExport.error}
        </p>
      ) : null}
    </Panel>
  )
}

/** One exported key: its name, the key, and its copy button (which, as every button here, waits until the view has been seen). */
function Key({ title, value, testId, armed }: { title: string; value: string; testId: string; armed: boolean }) {
  return (
    <div className="key">
      <div className="key-head">
        <h1>{title}</h1>
        <CopyButton text={value} label={m.copyKey(title)} disabled={!armed} testId={`${testId}-copy`} />
      </div>
      <pre className="body" data-testid={testId}>
        {value}
      </pre>
    </div>
  )
}
