/*
 * Email and social sign-in on the Connect view: a chunk of its own, loaded only when the host
 * turned email or socials on. Both log in to the embedded wallet (when the host set
 * `frameUrl`); without it their buttons show disabled.
 */
import { errorText, type SocialProvider } from '@sigil/core'
import { embeddedWalletAvailable, loginWithEmail } from '@sigil/core/login'
import { useState, type FormEvent } from 'react'
import { useMessages, useModal } from '../../context.js'
import { SocialGlyph } from '../social/glyph.js'
import { providerLabel, startSocialLogin } from '../social/login-window.js'
import { Icons } from '../../ui.js'

export function EmailSignIn() {
  const { client, shake } = useModal()
  const { ui } = useMessages()
  const m = ui.connect
  const auth = embeddedWalletAvailable(client)
  const [email, setEmail] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!auth || busy) return
    setBusy(true)
    setError(undefined)
    try {
      await loginWithEmail(client, { email })
    } catch (e) {
      setError(errorText(e))
      shake()
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="email" onSubmit={(e) => void submit(e)} aria-label={m.continueWithEmail} noValidate>
      <input
        type="email"
        name="email"
        autoComplete="email"
        placeholder={m.email}
        aria-label={m.email}
        disabled={!auth}
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'sigil-email-error' : undefined}
      />
      <button type="submit" className="btn" disabled={!auth || busy || !email.trim()} aria-busy={busy}>
        {m.continue}
      </button>
      {error ? (
        <p className="sub err" role="alert" id="sigil-email-error" data-testid="email-error">
          {error}
        </p>
      ) : null}
      {auth ? null : <p className="sub">{m.emailUnavailable}</p>}
    </form>
  )
}

/** At most this many social buttons show on the Connect view; past it, a 'more' button lists them all. */
export const SOCIALS_SHOWN = 6

/**
 * The socials in the host's order: the first as a full-width 'Continue with X', the rest as
 * icons; more than six fold the last ones behind a 'more' button (ConnectSocials lists all).
 */
export function SocialSignIn({ providers }: { providers: readonly SocialProvider[] }) {
  const { client } = useModal()
  const ui = useMessages().ui
  const m = ui.connect
  const auth = embeddedWalletAvailable(client)
  const folded = providers.length > SOCIALS_SHOWN
  const [first, ...rest] = folded ? providers.slice(0, SOCIALS_SHOWN - 1) : providers
  if (!first) return null
  const start = (provider: string) => startSocialLogin(client, provider)
  const firstLabel = providerLabel(ui, first)
  return (
    <div className="social-login">
      <button type="button" className="btn secondary block social-wide" disabled={!auth} onClick={() => start(first)} data-provider={first}>
        <SocialGlyph provider={first} />
        {m.continueWith(firstLabel)}
      </button>
      {rest.length || folded ? (
        // biome-ignore lint/a11y/useSemanticElements: a row of buttons, not form fields; a fieldset would bring its own box and legend
        <div className="socials" role="group" aria-label={m.continueWithSocial}>
          {rest.map((s) => {
            const label = providerLabel(ui, s)
            return (
              <button
                key={s}
                type="button"
                className="icon-btn"
                disabled={!auth}
                aria-label={m.continueWith(label)}
                title={label}
                onClick={() => start(s)}
                data-provider={s}
              >
                <SocialGlyph provider={s} />
              </button>
            )
          })}
          {folded ? (
            <button
              type="button"
              className="icon-btn"
              disabled={!auth}
              aria-label={m.moreSocials}
              title={m.moreSocials}
              onClick={() => client.push('ConnectSocials')}
              data-testid="socials-more"
            >
              <Icons.more />
            </button>
          ) : null}
        </div>
      ) : null}
      {auth ? null : <p className="sub">{m.socialUnavailable}</p>}
    </div>
  )
}
