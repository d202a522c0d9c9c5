import { errorText } from '@sigil/core'
import { nameRefusal, registerName, SUGGEST_DELAY_MS, suggestNames, type NameSuggestion } from '@sigil/core/names'
import { useEffect, useId, useState } from 'react'
import type { ViewProps } from '../../registry.js'
import { useMessages, useModal } from '../../context.js'

/** The server's suggestions for what is typed, asked once typing pauses; keyed by the label so a stale answer never shows. */
function useSuggestions(label: string) {
  const { client } = useModal()
  const valid = nameRefusal(label) === undefined
  const [answer, setAnswer] = useState<{ label: string; suggestions?: NameSuggestion[]; error?: string }>()
  useEffect(() => {
    if (!valid) return
    let live = true
    const timer = setTimeout(() => {
      suggestNames(client, label).then(
        (suggestions) => live && setAnswer({ label, suggestions }),
        (e: unknown) => live && setAnswer({ label, error: errorText(e) }),
      )
    }, SUGGEST_DELAY_MS)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [client, label, valid])
  const current = answer?.label === label ? answer : undefined
  return { ...current, checking: valid && !current }
}

/**
 * Choosing an account name (spec section 2 "RegisterAccountName"; issue 25): the label typed,
 * checked as it is typed (the rules, then the server: the full name with whether it is taken,
 * and free names like it to pick), then 'Register': the wallet signs, the server stores it, and
 * RegisterAccountNameSuccess follows. A failed registration comes back here with its reason.
 */
export function RegisterAccountNameView({ route }: ViewProps<'RegisterAccountName'>) {
  const { client } = useModal()
  const m = useMessages().ui.names
  const id = useId()
  const [label, setLabel] = useState(route.data.label ?? '')
  const [busy, setBusy] = useState(false)
  const typed = label.trim()
  const refusal = typed ? nameRefusal(typed) : undefined
  const { suggestions, error, checking } = useSuggestions(typed)
  const exact = suggestions?.[0]
  const free = exact && !exact.registered ? exact : undefined
  const others = suggestions?.slice(1).filter((s) => !s.registered) ?? []
  const shownError = route.data.error && typed === (route.data.label ?? '') ? route.data.error : undefined

  const register = (name: string) => {
    if (busy) return
    setBusy(true)
    // A failure is said on this view (registerName puts it in the route).
    registerName(client, name).catch(() => setBusy(false))
  }

  return (
    <form
      className="send"
      aria-label={m.form}
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (free) register(free.name)
      }}
      data-testid="register-name"
    >
      <div className="send-box">
        <label htmlFor={`${id}-label`} className="send-label">
          {m.label}
        </label>
        <input
          id={`${id}-label`}
          className="send-to"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          aria-invalid={refusal ? true : undefined}
          aria-describedby={`${id}-hint`}
          disabled={busy}
          data-testid="register-name-input"
        />
      </div>
      <p className={refusal ? 'sub err swap-note' : 'sub swap-note'} id={`${id}-hint`} data-testid="register-name-hint">
        {refusal ?? m.hint}
      </p>
      <div aria-live="polite" className="names-status">
        {!refusal && typed ? (
          checking ? (
            <p className="sub swap-note">{m.checking}</p>
          ) : error ? (
            <p className="sub err swap-note" data-testid="register-name-error">
              {error}
            </p>
          ) : exact ? (
            <p className={exact.registered ? 'sub err swap-note' : 'sub swap-note names-free'} data-testid="register-name-availability">
              {exact.registered ? m.taken(exact.name) : m.available(exact.name)}
            </p>
          ) : null
        ) : null}
      </div>
      {others.length > 0 && !refusal ? (
        <div className="names-suggestions" data-testid="register-name-suggestions">
          <span className="send-label">{m.suggestions}</span>
          <div className="names-chips">
            {others.map((s) => (
              <button key={s.name} type="button" className="pill names-chip" onClick={() => setLabel(s.name.split('.')[0] ?? s.name)} disabled={busy}>
                {s.name}
              </button>
            ))}
          </div>
        </div>
      ) : null}
      {shownError ? (
        <p className="sub err" role="alert" data-testid="register-name-failed">
          {shownError}
        </p>
      ) : null}
      <p className="sub swap-note">{m.signNote}</p>
      <button type="submit" className="btn block" disabled={!free || busy} aria-busy={busy || undefined} data-testid="register-name-submit">
        {busy ? m.signing : free ? m.registerName(free.name) : m.register}
      </button>
    </form>
  )
}
