/*
 * Email and social sign-in on the Connect view: a chunk of its own, loaded only when the host
 * turned email or socials on. They arrive with the embedded-wallet issue: the configured order
 * is honoured now, the controls are shown disabled.
 */
import type { SocialProvider } from '@sigil/core'
import { useMessages } from '../context.js'

export function EmailSignIn() {
  const m = useMessages().ui.connect
  return (
    <form className="email" onSubmit={(e) => e.preventDefault()} aria-label={m.continueWithEmail}>
      <input type="email" placeholder={m.email} aria-label={m.email} disabled />
      <button type="submit" className="btn" disabled>
        {m.continue}
      </button>
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
