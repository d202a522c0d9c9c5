/*
 * The embedded wallet's email views: the 6-digit code (EmailVerifyOtp), the device approval
 * (EmailVerifyDevice) and the email change (UpdateEmail). A chunk of their own, loaded when
 * one of them first shows.
 */
import { EMAIL_COOLDOWN_MS, errorText, showSuccess } from '@sigil/core'
import {
  emailCooldownMs,
  embeddedWalletAvailable,
  loginEmail,
  resendEmailLogin,
  updateEmail,
  verifyEmailOtp,
  verifyUpdateEmailPrimary,
  verifyUpdateEmailSecondary,
  waitForDeviceApproval,
} from '@sigil/core/login'
import { useCallback, useEffect, useId, useRef, useState, type ClipboardEvent, type FormEvent } from 'react'
import type { ViewProps } from '../../registry.js'
import { useFormat, useMessages, useModal } from '../../context.js'

const DIGITS = 6

/**
 * The 6-digit code: one field (one name for assistive tech, `one-time-code` for the browser's and
 * the phone's autofill, a pasted code fills it), drawn as six boxes under a transparent input.
 */
export function OtpInput({
  onComplete,
  disabled,
  resetKey,
  errorId,
}: {
  onComplete: (code: string) => void
  disabled?: boolean
  resetKey?: number
  /** The id of the error shown for the last code, if any (the field is then invalid and described by it). */
  errorId?: string
}) {
  const m = useMessages().ui.email
  const [code, setCode] = useState('')
  const ref = useRef<HTMLInputElement>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new resetKey clears the field
  useEffect(() => {
    setCode('')
    ref.current?.focus()
  }, [resetKey])
  const update = (text: string) => {
    const next = text.replace(/\D/g, '').slice(0, DIGITS)
    setCode(next)
    if (next.length === DIGITS) onComplete(next)
  }
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text').replace(/\D/g, '')
    if (!text) return
    event.preventDefault()
    update(text)
  }
  return (
    <div className="otp" data-testid="otp-inputs">
      {Array.from({ length: DIGITS }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the six positions are fixed
        <span key={i} aria-hidden="true" data-active={i === Math.min(code.length, DIGITS - 1) || undefined}>
          {code[i] ?? ''}
        </span>
      ))}
      <input
        ref={ref}
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={DIGITS}
        spellCheck={false}
        aria-label={m.code}
        aria-invalid={errorId ? true : undefined}
        aria-describedby={errorId}
        value={code}
        disabled={disabled}
        onChange={(e) => update(e.target.value)}
        onPaste={onPaste}
      />
    </div>
  )
}

/**
 * Seconds left until another mail may be asked for (`msLeft`: the milliseconds, 0 when it may
 * now), counting down live; `restart` after a mail went out.
 */
function useCooldown(msLeft: () => number): [number, () => void] {
  const read = useRef(msLeft)
  read.current = msLeft
  const [left, setLeft] = useState(() => Math.ceil(msLeft() / 1000))
  const [tick, setTick] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: tick restarts the countdown after a resend
  useEffect(() => {
    const update = () => setLeft(Math.ceil(read.current() / 1000))
    update()
    const timer = setInterval(update, 250)
    return () => clearInterval(timer)
  }, [tick])
  return [left, () => setTick((t) => t + 1)]
}

/** The resend button, with the seconds left while the 30 s between mails (spec section 9) run: 'Resend code in {n}s'. */
function ResendButton({
  left,
  busy,
  onResend,
  label,
  labelIn,
  testId,
}: {
  left: number
  busy: boolean
  onResend: () => void
  label: string
  labelIn: (seconds: number) => string
  testId: string
}) {
  return (
    <button type="button" className="btn secondary" onClick={onResend} disabled={left > 0 || busy} data-testid={testId}>
      {left > 0 ? labelIn(left) : label}
    </button>
  )
}

function Missing() {
  const m = useMessages().ui.connect
  return (
    <div className="state">
      <p className="sub">{m.emailUnavailable}</p>
    </div>
  )
}

export function EmailVerifyOtpView({ route }: ViewProps<'EmailVerifyOtp'>) {
  const { client, shake } = useModal()
  const ui = useMessages().ui
  const m = ui.email
  const format = useFormat()
  const available = embeddedWalletAvailable(client)
  const { email } = route.data
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const [resetKey, setResetKey] = useState(0)
  const [left, restart] = useCooldown(() => emailCooldownMs(client))
  const errorId = useId()

  const verify = useCallback(
    async (otp: string) => {
      setBusy(true)
      setError(undefined)
      try {
        await verifyEmailOtp(client, { otp })
      } catch (e) {
        setError(errorText(e))
        setResetKey((k) => k + 1)
        shake()
      } finally {
        setBusy(false)
      }
    },
    [client, shake],
  )

  const resend = async () => {
    setError(undefined)
    try {
      await resendEmailLogin(client, { email })
      showSuccess(client.store, m.codeResent)
      restart()
    } catch (e) {
      setError(errorText(e))
    }
  }

  if (!available) return <Missing />
  return (
    <div className="state email-verify" data-testid="email-verify-otp">
      <p className="sub">{m.codeSentTo(format.ltr(email))}</p>
      <OtpInput onComplete={(code) => void verify(code)} disabled={busy} resetKey={resetKey} errorId={error ? errorId : undefined} />
      <p className="sub" aria-live="polite">
        {busy ? m.verifying : m.codeValid}
      </p>
      {error ? (
        <p className="sub err" role="alert" id={errorId} data-testid="otp-error">
          {error}
        </p>
      ) : null}
      <ResendButton left={left} busy={busy} onResend={() => void resend()} label={m.resend} labelIn={m.resendIn} testId="otp-resend" />
    </div>
  )
}

export function EmailVerifyDeviceView({ route }: ViewProps<'EmailVerifyDevice'>) {
  const { client } = useModal()
  const m = useMessages().ui.email
  const format = useFormat()
  const available = embeddedWalletAvailable(client)
  const { email } = route.data
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const [left, restart] = useCooldown(() => emailCooldownMs(client))

  // Asks every 2 s whether the link in the email was opened; then the code is on its way.
  useEffect(() => {
    if (!available) return
    const view = new AbortController()
    void waitForDeviceApproval(client, { email, signal: view.signal }).catch(() => undefined)
    return () => view.abort()
  }, [available, client, email])

  const resend = async () => {
    setError(undefined)
    setBusy(true)
    try {
      await resendEmailLogin(client, { email })
      restart()
    } catch (e) {
      setError(errorText(e))
    } finally {
      setBusy(false)
    }
  }

  if (!available) return <Missing />
  return (
    <div className="state email-verify" data-testid="email-verify-device">
      <p className="title">{m.deviceTitle}</p>
      <p className="sub">{m.deviceSentTo(format.ltr(email))}</p>
      <p className="sub" aria-live="polite">
        {m.deviceWaiting}
      </p>
      {error ? (
        <p className="sub err" role="alert">
          {error}
        </p>
      ) : null}
      <ResendButton left={left} busy={busy} onResend={() => void resend()} label={m.deviceResend} labelIn={m.deviceResendIn} testId="device-resend" />
    </div>
  )
}

type UpdateStep = { step: 'enter' } | { step: 'primary'; newEmail: string } | { step: 'secondary'; newEmail: string }

/**
 * The email change: the new address (the field starts with the current one), a code to the
 * current address, then one to the new; each code step can send its code again, 30 s after the
 * last mail.
 */
export function UpdateEmailView() {
  const { client, shake } = useModal()
  const m = useMessages().ui.email
  const available = embeddedWalletAvailable(client)
  const current = loginEmail(client) ?? ''
  const [step, setStep] = useState<UpdateStep>({ step: 'enter' })
  const [value, setValue] = useState(current)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const [resetKey, setResetKey] = useState(0)
  const errorId = useId()
  // When the last code of the change went out: another one 30 s later.
  const sentAt = useRef(0)
  const [left, restart] = useCooldown(() => Math.max(0, sentAt.current + EMAIL_COOLDOWN_MS - Date.now()))
  const sent = () => {
    sentAt.current = Date.now()
    restart()
  }

  const run = async (task: () => Promise<void>) => {
    setBusy(true)
    setError(undefined)
    try {
      await task()
    } catch (e) {
      setError(errorText(e))
      setResetKey((k) => k + 1)
      shake()
    } finally {
      setBusy(false)
    }
  }
  if (!available) return <Missing />
  /** Asks for the change to `email`: a code to the current address, or (its code already right) to the new one. */
  const ask = async (email: string) => {
    const action = await updateEmail(client, { email })
    sent()
    setStep({ step: action === 'VERIFY_PRIMARY_OTP' ? 'primary' : 'secondary', newEmail: email.trim() })
  }
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(() => ask(value))
  }
  const resend = (newEmail: string) =>
    void run(async () => {
      await ask(newEmail)
      showSuccess(client.store, m.codeResent)
    })
  const onCode = (code: string) =>
    void run(async () => {
      if (step.step === 'primary') {
        await verifyUpdateEmailPrimary(client, { otp: code })
        sent()
        setStep({ step: 'secondary', newEmail: step.newEmail })
      } else if (step.step === 'secondary') {
        const changed = await verifyUpdateEmailSecondary(client, { otp: code })
        showSuccess(client.store, m.updated(changed))
        client.goBack()
      }
    })

  return (
    <div className="state email-verify" data-testid="update-email">
      {step.step === 'enter' ? (
        <form className="email" onSubmit={submit} noValidate>
          <input
            type="email"
            autoComplete="email"
            aria-label={m.updateLabel}
            placeholder={m.updateLabel}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            onFocus={(e) => e.target.select()}
          />
          <button type="submit" className="btn" disabled={busy || !value.trim() || value.trim() === current}>
            {m.updateSubmit}
          </button>
        </form>
      ) : (
        <>
          <p className="sub" data-testid="update-email-step" data-step={step.step}>
            {step.step === 'primary' ? m.updatePrimary(loginEmail(client) ?? '') : m.updateSecondary(step.newEmail)}
          </p>
          <OtpInput key={step.step} onComplete={onCode} disabled={busy} resetKey={resetKey} errorId={error ? errorId : undefined} />
          <ResendButton left={left} busy={busy} onResend={() => resend(step.newEmail)} label={m.resend} labelIn={m.resendIn} testId="update-email-resend" />
        </>
      )}
      {error ? (
        <p className="sub err" role="alert" id={errorId} data-testid="update-email-error">
          {error}
        </p>
      ) : null}
    </div>
  )
}
