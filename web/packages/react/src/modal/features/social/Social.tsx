/*
 * Social login's views, a chunk of their own: ConnectingSocial (the provider's login in a
 * window, or in the whole page), ConnectSocials (every provider, when the Connect view folds
 * some) and ConnectingFarcaster (a QR code for the Farcaster app). Each logs in to the embedded
 * wallet through the AUTH connector, then connects it.
 */
import { errorText, isMobileDevice, replaceView, showError, showSuccess, type SigilClient, type SigilState } from '@sigil/core'
import { embeddedWalletAvailable, LoginBlockedError, LoginCancelledError, loginWithFarcaster, loginWithSocial } from '@sigil/core/login'
import { useEffect, useState } from 'react'
import { useMessages, useModal, useStore } from '../../context.js'
import { QrCode } from '../../qr.js'
import { SocialGlyph } from './glyph.js'
import { openLoginPopup, providerLabel, startSocialLogin } from './login-window.js'
import { Icons } from '../../ui.js'
import type { ViewProps } from '../../registry.js'

/** How it stands, beyond the login's own steps (`SigilState.login`): not yet under way, blocked, failed. */
type Outcome = { kind: 'blocked' } | { kind: 'failed'; message: string } | undefined

/** The login attempt: the window it runs in (null: blocked; undefined: the whole page). */
interface Attempt {
  popup: Window | null | undefined
}

const selectLogin = (s: SigilState) => s.login

/** Back to where the login started (Connect, or the list of all providers), with why. */
function backWithMessage(client: SigilClient, message: string): void {
  if (client.store.getState().router.history.length > 1) client.goBack()
  else replaceView(client.store, 'Connect')
  showError(client.store, message)
}

export function ConnectingSocialView({ route }: ViewProps<'ConnectingSocial'>) {
  const { client } = useModal()
  const ui = useMessages().ui
  const m = ui.social
  const { provider, returnUri } = route.data
  const label = providerLabel(ui, provider)
  const available = embeddedWalletAvailable(client)
  const [attempt, setAttempt] = useState<Attempt>(() => ({ popup: route.data.popup }))
  const [outcome, setOutcome] = useState<Outcome>()
  const login = useStore(selectLogin)

  useEffect(() => {
    if (!available) return
    const view = new AbortController()
    setOutcome(undefined)
    loginWithSocial(client, { provider, popup: attempt.popup, ...(returnUri ? { returnUri } : {}), signal: view.signal }).catch((error: unknown) => {
      if (view.signal.aborted) return
      if (error instanceof LoginCancelledError) backWithMessage(client, m.cancelled(label))
      else if (error instanceof LoginBlockedError) setOutcome({ kind: 'blocked' })
      else setOutcome({ kind: 'failed', message: errorText(error) })
    })
    return () => {
      view.abort()
      attempt.popup?.close()
    }
  }, [available, client, attempt, provider, returnUri, label, m])

  // Retrying is a click: the new window opens inside it.
  const retry = () => setAttempt({ popup: isMobileDevice(client) ? undefined : openLoginPopup() })
  const inThisTab = () => setAttempt({ popup: undefined })

  if (!available) {
    return (
      <div className="state">
        <p className="sub">{ui.connect.socialUnavailable}</p>
      </div>
    )
  }
  const step = login?.provider === provider ? login.step : returnUri ? 'finishing' : 'opening'
  const phase = outcome?.kind ?? step
  return (
    <div className="state" data-testid="connecting-social" data-phase={phase} data-provider={provider}>
      <SocialGlyph provider={provider} />
      {phase === 'opening' ? <p aria-live="polite">{m.opening(label)}</p> : null}
      {phase === 'redirecting' ? <p aria-live="polite">{m.redirecting(label)}</p> : null}
      {phase === 'finishing' ? <p aria-live="polite">{m.finishing(label)}</p> : null}
      {phase === 'waiting' ? (
        <>
          <p aria-live="polite">{m.waiting(label)}</p>
          <p className="sub">{m.waitingHint}</p>
        </>
      ) : null}
      {outcome?.kind === 'blocked' ? (
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
      {outcome?.kind === 'failed' ? (
        <>
          <p>{m.failed(label)}</p>
          <p className="sub err" role="alert" data-testid="social-error">
            {outcome.message}
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
              <SocialGlyph provider={provider} />
              <span className="name">{ui.connect.continueWith(label)}</span>
            </button>
          </li>
        )
      })}
    </ul>
  )
}

/** Sign In With Farcaster: the channel's URL as a QR code and a link; connects once the app signed in. */
export function ConnectingFarcasterView() {
  const { client } = useModal()
  const ui = useMessages().ui
  const m = ui.social
  const available = embeddedWalletAvailable(client)
  const login = useStore(selectLogin)
  const [error, setError] = useState<string>()
  const [attempt, setAttempt] = useState(0)
  // The channel and why a message posted to it was refused (the channel stays open for the app's own).
  const url = login?.provider === 'farcaster' ? login.url : undefined
  const refused = login?.provider === 'farcaster' ? login.refused : undefined

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt asks for a new channel
  useEffect(() => {
    if (!available) return
    const view = new AbortController()
    setError(undefined)
    loginWithFarcaster(client, { signal: view.signal }).catch((e: unknown) => {
      if (!view.signal.aborted) setError(errorText(e))
    })
    return () => view.abort()
  }, [available, client, attempt])

  const copy = async () => {
    if (!url) return
    try {
      await navigator.clipboard.writeText(url)
      showSuccess(client.store, m.farcasterCopied)
    } catch {
      showError(client.store, ui.account.copyFailed)
    }
  }

  if (!available) {
    return (
      <div className="state">
        <p className="sub">{ui.connect.socialUnavailable}</p>
      </div>
    )
  }
  return (
    <div className="state" data-testid="connecting-farcaster" data-url={url}>
      {/* A refused or failed channel is over: its code is not shown any more, only why and a retry. */}
      {error ? null : url ? (
        <QrCode text={url} label={m.farcasterQr} testId="farcaster-qr" />
      ) : (
        <div className="qr" aria-busy="true" style={{ width: 200, height: 200 }} />
      )}
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
