/*
 * Email and social sign-in on the Connect view: a chunk of its own, loaded only when the host
 * turned email or socials on. Email logs in to the embedded wallet (when the host set
 * `frameUrl`); social login arrives with its own issue: its buttons show disabled.
 */
import { AUTH_CONNECTOR_ID, errorText, type SocialProvider } from '@sigil/core'
import { useState, type FormEvent } from 'react'
import { useMessages, useModal } from '../context.js'

export function EmailSignIn() {
  const { client, shake } = useModal()
  const { ui } = useMessages()
  const m = ui.connect
  const auth = client.getAuthConnector()
  const [email, setEmail] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (!auth || busy) return
    setBusy(true)
    setError(undefined)
    try {
      const action = await auth.connectEmail(email)
      const trimmed = email.trim()
      if (action === 'VERIFY_DEVICE') client.push('EmailVerifyDevice', { email: trimmed })
      else if (action === 'VERIFY_OTP') client.push('EmailVerifyOtp', { email: trimmed })
      else await client.connect(AUTH_CONNECTOR_ID)
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

export function SocialSignIn({ providers }: { providers: readonly SocialProvider[] }) {
  const m = useMessages().ui.connect
  return (
    // biome-ignore lint/a11y/useSemanticElements: a row of buttons, not form fields; a fieldset would bring its own box and legend
    <div className="socials" role="group" aria-label={m.continueWithSocial}>
      {providers.map((s) => {
        const label = m.socials[s] ?? s
        return (
          <button key={s} type="button" className="icon-btn" disabled aria-label={m.continueWith(label)} title={label}>
            {label.slice(0, 1)}
          </button>
        )
      })}
    </div>
  )
}
