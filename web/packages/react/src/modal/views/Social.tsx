/*
 * Social login's views, a chunk of their own: ConnectingSocial (the provider's login in a
 * window, or in the whole page), ConnectSocials (every provider, when the Connect view folds
 * some) and ConnectingFarcaster (a QR code for the Farcaster app). Each logs in to the embedded
 * wallet through the AUTH connector, then connects it.
 */
import { AUTH_CONNECTOR_ID, errorText, isUserRejection, replaceView, showError, showSuccess, type SigilClient } from '@sigil/core'
import qrcode from 'qrcode-generator'
import { useEffect, useMemo, useState } from 'react'
import { useMessages, useModal } from '../context.js'
import { openLoginPopup, providerLabel, startSocialLogin } from '../social.js'
import { Icons } from '../ui.js'
import type { ViewProps } from '../views.js'
import { SocialGlyph } from './EmailSocial.js'

/** How often the view looks whether the person closed the login window. */
const POPUP_WATCH_MS = 300
/**
 * A closed window may have just finished the login (the person closed the "Logged in" page
 * themselves): the claim under way gets this long to say so before the login counts as cancelled.
 */
const POPUP_CLOSED_GRACE_MS = 2000

type Phase =
  | { kind: 'opening' }
  | { kind: 'waiting' }
  | { kind: 'redirecting' }
  | { kind: 'finishing' }
  | { kind: 'blocked' }
  | { kind: 'failed'; message: string }

/** The login attempt: the window it runs in (null: blocked; undefined: the whole page). */
interface Attempt {
  popup: Window | null | undefined
}

class Cancelled extends Error {}

/** Back to where the login started (Connect, or the list of all providers), with why. */
function backWithMessage(client: SigilClient, message: string): void {
  if (client.store.getState().router.history.length > 1) client.goBack()
  else replaceView(client.store, 'Connect')
  showError(client.store, message)
}

/** A full-page login came back with `sigil_social` (and its claim secret) in the URL: once used, they go from the address bar. */
function dropReturnParam(): void {
  const url = new URL(location.href)
  if (!url.searchParams.has('sigil_social') && !url.searchParams.has('sigil_claim')) return
  url.searchParams.delete('sigil_social')
  url.searchParams.delete('sigil_claim')
  history.replaceState(history.state, '', url.toString())
}

export function ConnectingSocialView({ route }: ViewProps<'ConnectingSocial'>) {
  const { client } = useModal()
  const ui = useMessages().ui
  const m = ui.social
  const { provider, returnUri } = route.data
  const label = providerLabel(ui, provider)
  const auth = client.getAuthConnector()
  const [attempt, setAttempt] = useState<Attempt>(() => ({ popup: route.data.popup }))
  const [phase, setPhase] = useState<Phase>(() => (returnUri ? { kind: 'finishing' } : { kind: 'opening' }))

  useEffect(() => {
    if (!auth) return
    const view = new AbortController()
    const { popup } = attempt
    const login = async () => {
      if (returnUri) {
        dropReturnParam()
        setPhase({ kind: 'finishing' })
        await auth.connectSocial(returnUri, { signal: view.signal })
        return
      }
      if (popup === null) {
        setPhase({ kind: 'blocked' })
        return
      }
      if (popup === undefined) {
        // The whole page goes to the provider, and the provider sends it back here.
        setPhase({ kind: 'redirecting' })
        const uri = await auth.getSocialRedirectUri(provider, { returnUrl: location.href })
        if (!view.signal.aborted) location.assign(uri)
        return
      }
      setPhase({ kind: 'opening' })
      const uri = await auth.getSocialRedirectUri(provider)
      if (view.signal.aborted) return
      popup.location.href = uri
      setPhase({ kind: 'waiting' })
      // The claim stops when the view goes, or a little after the person closed the window.
      const claim = new AbortController()
      view.signal.addEventListener('abort', () => claim.abort(), { once: true })
      let closedAt = 0
      const watch = setInterval(() => {
        if (closedAt === 0 && popup.closed) {
          closedAt = Date.now()
          setTimeout(() => claim.abort(), POPUP_CLOSED_GRACE_MS)
        }
      }, POPUP_WATCH_MS)
      try {
        await auth.connectSocial(uri, { signal: claim.signal })
      } catch (error) {
        if (closedAt && claim.signal.aborted && !view.signal.aborted) throw new Cancelled()
        throw error
      } finally {
        clearInterval(watch)
        popup.close()
      }
    }
    login()
      .then(async () => {
        if (view.signal.aborted || (!returnUri && !attempt.popup)) return
        await client.connect(AUTH_CONNECTOR_ID)
      })
      .catch((error: unknown) => {
        if (view.signal.aborted) return
        if (error instanceof Cancelled || isUserRejection(error)) backWithMessage(client, m.cancelled(label))
        else setPhase({ kind: 'failed', message: errorText(error) })
      })
    return () => {
      view.abort()
      popup?.close()
    }
  }, [auth, client, attempt, provider, returnUri, label, m])

  // Retrying is a click: the new window opens inside it.
  const retry = () => setAttempt({ popup: client.context.isMobile() ? undefined : openLoginPopup() })
  const inThisTab = () => setAttempt({ popup: undefined })

  if (!auth) {
    return (
      <div className="state">
        <p className="sub">{ui.connect.socialUnavailable}</p>
      </div>
    )
  }
  return (
    <div className="state" data-testid="connecting-social" data-phase={phase.kind} data-provider={provider}>
      <SocialGlyph label={label} />
      {phase.kind === 'opening' ? <p aria-live="polite">{m.opening(label)}</p> : null}
      {phase.kind === 'redirecting' ? <p aria-live="polite">{m.redirecting(label)}</p> : null}
      {phase.kind === 'finishing' ? <p aria-live="polite">{m.finishing(label)}</p> : null}
      {phase.kind === 'waiting' ? (
        <>
          <p aria-live="polite">{m.waiting(label)}</p>
          <p className="sub">{m.waitingHint}</p>
        </>
      ) : null}
      {phase.kind === 'blocked' ? (
        <>
          <p role="alert" data-testid="social-error">
            {m.popupBlocked}
          </p>
          <p className="sub">{m.popupBlockedHint}</p>
          <div className="siwx-actions">
            <button type="button" className="btn" onClick={retry}>
              {ui.tryAgain}
            </button>
            <button type="button" className="btn secondary" onClick={inThisTab}>
              {m.continueHere}
            </button>
          </div>
        </>
      ) : null}
      {phase.kind === 'failed' ? (
        <>
          <p>{m.failed(label)}</p>
          <p className="sub err" role="alert" data-testid="social-error">
            {phase.message}
          </p>
          <button type="button" className="btn" onClick={retry}>
            {ui.tryAgain}
          </button>
        </>
      ) : null}
    </div>
  )
}

/** Every social login the host turned on, in its order. */
export function ConnectSocialsView() {
  const { client } = useModal()
  const ui = useMessages().ui
  const socials = client.options.features.socials
  const providers = Array.isArray(socials) ? socials : []
  return (
    <ul className="list social-list" aria-label={ui.connect.continueWithSocial} data-testid="connect-socials">
      {providers.map((provider) => {
        const label = providerLabel(ui, provider)
        return (
          <li key={provider}>
            <button type="button" className="row" onClick={() => startSocialLogin(client, provider)} data-provider={provider}>
              <SocialGlyph label={label} />
              <span className="name">{ui.connect.continueWith(label)}</span>
            </button>
          </li>
        )
      })}
    </ul>
  )
}

/** A QR code as SVG squares (no markup from strings). */
function QrCode({ text, label }: { text: string; label: string }) {
  const { size, path } = useMemo(() => {
    const qr = qrcode(0, 'M')
    qr.addData(text)
    qr.make()
    const size = qr.getModuleCount()
    let d = ''
    for (let row = 0; row < size; row++) for (let col = 0; col < size; col++) if (qr.isDark(row, col)) d += `M${col} ${row}h1v1h-1z`
    return { size, path: d }
  }, [text])
  return (
    <div className="qr">
      <svg viewBox={`-2 -2 ${size + 4} ${size + 4}`} role="img" aria-label={label} shapeRendering="crispEdges" data-testid="farcaster-qr">
        <path d={path} fill="#000" />
      </svg>
    </div>
  )
}

/** Sign In With Farcaster: the channel's URL as a QR code and a link; connects once the app signed in. */
export function ConnectingFarcasterView() {
  const { client } = useModal()
  const ui = useMessages().ui
  const m = ui.social
  const auth = client.getAuthConnector()
  const [url, setUrl] = useState<string>()
  const [error, setError] = useState<string>()
  /** Why a message posted to the channel was refused: the channel stays open for the app's own. */
  const [refused, setRefused] = useState<string>()
  const [attempt, setAttempt] = useState(0)

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt asks for a new channel
  useEffect(() => {
    if (!auth) return
    const view = new AbortController()
    setUrl(undefined)
    setError(undefined)
    setRefused(undefined)
    const login = async () => {
      const channel = await auth.getFarcasterUri()
      if (view.signal.aborted) return
      setUrl(channel)
      await auth.connectFarcaster({ signal: view.signal, onRefused: (reason) => !view.signal.aborted && setRefused(reason) })
      if (!view.signal.aborted) await client.connect(AUTH_CONNECTOR_ID)
    }
    login().catch((e: unknown) => {
      if (!view.signal.aborted) setError(errorText(e))
    })
    return () => view.abort()
  }, [auth, client, attempt])

  const copy = async () => {
    if (!url) return
    try {
      await navigator.clipboard.writeText(url)
      showSuccess(client.store, m.farcasterCopied)
    } catch {
      showError(client.store, ui.account.copyFailed)
    }
  }

  if (!auth) {
    return (
      <div className="state">
        <p className="sub">{ui.connect.socialUnavailable}</p>
      </div>
    )
  }
  return (
    <div className="state" data-testid="connecting-farcaster" data-url={url}>
      {/* A refused or failed channel is over: its code is not shown any more, only why and a retry. */}
      {error ? null : url ? <QrCode text={url} label={m.farcasterQr} /> : <div className="qr" aria-busy="true" style={{ width: 200, height: 200 }} />}
      {error ? null : <p className="sub">{m.farcasterScan}</p>}
      {url && !error ? (
        <div className="siwx-actions">
          <a className="btn secondary" href={url} target="_blank" rel="noreferrer noopener" data-testid="farcaster-link">
            {m.farcasterOpen} <Icons.external />
          </a>
          <button type="button" className="btn secondary" onClick={() => void copy()}>
            <Icons.copy /> {m.farcasterCopy}
          </button>
        </div>
      ) : null}
      {error ? (
        <>
          <p className="sub err" role="alert" data-testid="farcaster-error">
            {error}
          </p>
          <button type="button" className="btn" onClick={() => setAttempt((a) => a + 1)}>
            {ui.tryAgain}
          </button>
        </>
      ) : url ? (
        <>
          {refused ? (
            <p className="sub err" role="alert" data-testid="farcaster-refused">
              {refused}
            </p>
          ) : null}
          <p className="sub" aria-live="polite">
            {m.farcasterWaiting}
          </p>
        </>
      ) : null}
    </div>
  )
}
