/*
 * Headless login hooks: the email and social steps of the embedded wallet, on the actions the
 * modal's views call (`@sigil/core/login`, loaded with the first step, never with the page).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { toSigilError, type Connection, type SigilError, type SigilState, type SocialProvider } from '@sigil/core'
import type { LoginState } from '@sigil/core/login'
import { useAppKitSelector, useInstance } from '../hooks.js'

export type { LoginState } from '@sigil/core/login'

const loginActions = () => import('@sigil/core/login')

/**
 * Opens the empty login window, centred on the page's, as the modal's social buttons do (its
 * name is theirs too: a second click reuses the window); null when the browser blocked it. The
 * provider's URL follows once known. Kept apart from the modal's code, which loads with the modal.
 */
function openLoginWindow(): Window | null {
  const width = 500
  const height = 640
  const left = Math.round(window.screenX + Math.max(0, (window.outerWidth - width) / 2))
  const top = Math.round(window.screenY + Math.max(0, (window.outerHeight - height) / 2))
  return window.open('', 'sigil-social-login', `popup=yes,width=${width},height=${height},left=${left},top=${top}`)
}

/** Where an email login stands: the address to give, the device to approve from the email, the code to type, done. */
export type EmailLoginStep = 'email' | 'verify-device' | 'verify-otp' | 'connected'

export interface UseEmailLogin {
  /** The embedded wallet is here (the host set `frameUrl` and turned email on). */
  available: boolean
  step: EmailLoginStep
  /** The address being logged in with. */
  email: string | undefined
  /** A step is under way (sending the mail, checking the code, connecting). */
  isPending: boolean
  /** Why the last step failed ('Enter a valid email address', a wrong code, …); cleared by the next. */
  error: SigilError | undefined
  /** When another mail may be asked for (ms since the epoch; 30 s after the last). */
  resendAt: number | undefined
  /**
   * Sends the login mail: then `step` is 'verify-device' (the link in the mail approves this
   * device; the hook notices, and the code follows) or 'verify-otp'; a live session connects at once.
   */
  submitEmail(email: string): Promise<void>
  /** The 6-digit code from the mail: the embedded wallet connects. */
  verifyOtp(otp: string): Promise<void>
  /** Sends the mail again. */
  resend(): Promise<void>
  /** Back to the first step. */
  reset(): void
}

interface EmailState {
  step: EmailLoginStep
  email: string | undefined
  isPending: boolean
  error: SigilError | undefined
  resendAt: number | undefined
}

const START: EmailState = { step: 'email', email: undefined, isPending: false, error: undefined, resendAt: undefined }

/** The email login to the embedded wallet, step by step, without the modal. */
export function useEmailLogin(): UseEmailLogin {
  const appKit = useInstance()
  const { client } = appKit
  const connectors = useAppKitSelector(selectConnectors)
  // biome-ignore lint/correctness/useExhaustiveDependencies: connectors: the embedded wallet joins the page's list once its frame source started
  const available = useMemo(() => client.getAuthConnector() !== undefined, [client, connectors])
  const [state, setState] = useState<EmailState>(START)
  const update = useCallback((patch: Partial<EmailState>) => setState((s) => ({ ...s, ...patch })), [])
  /** The mail was sent: when another may be asked for. */
  const cooldown = useCallback(async () => Date.now() + (await loginActions()).emailCooldownMs(client), [client])

  const submitEmail = useCallback(
    async (email: string) => {
      update({ isPending: true, error: undefined })
      try {
        const actions = await loginActions()
        const action = await actions.loginWithEmail(client, { email })
        const step: EmailLoginStep = action === 'VERIFY_DEVICE' ? 'verify-device' : action === 'VERIFY_OTP' ? 'verify-otp' : 'connected'
        update({ step, email: email.trim(), isPending: false, resendAt: await cooldown() })
      } catch (error) {
        update({ isPending: false, error: toSigilError(error) })
      }
    },
    [client, update, cooldown],
  )

  const verifyOtp = useCallback(
    async (otp: string) => {
      update({ isPending: true, error: undefined })
      try {
        await (await loginActions()).verifyEmailOtp(client, { otp })
        update({ step: 'connected', isPending: false })
      } catch (error) {
        update({ isPending: false, error: toSigilError(error) })
      }
    },
    [client, update],
  )

  const email = state.email
  const resend = useCallback(async () => {
    if (!email) return
    update({ isPending: true, error: undefined })
    try {
      const action = await (await loginActions()).resendEmailLogin(client, { email })
      update({ isPending: false, resendAt: await cooldown(), ...(action === 'VERIFY_OTP' ? { step: 'verify-otp' as const } : {}) })
    } catch (error) {
      update({ isPending: false, error: toSigilError(error) })
    }
  }, [client, email, update, cooldown])

  // While the device waits for its approval, the frame is asked every 2 s; then the code follows.
  useEffect(() => {
    if (state.step !== 'verify-device' || !email) return
    const waiting = new AbortController()
    loginActions()
      .then((actions) => actions.waitForDeviceApproval(client, { email, signal: waiting.signal }))
      .then(
        (approved) => approved && !waiting.signal.aborted && update({ step: 'verify-otp' }),
        () => undefined,
      )
    return () => waiting.abort()
  }, [client, email, state.step, update])

  const reset = useCallback(() => setState(START), [])
  return useMemo(() => ({ ...state, available, submitEmail, verifyOtp, resend, reset }), [state, available, submitEmail, verifyOtp, resend, reset])
}

const selectConnectors = (s: SigilState) => s.connectors
const selectLogin = (s: SigilState) => s.login

export interface UseSocialLogin {
  /** The embedded wallet is here (the host set `frameUrl` and turned socials on). */
  available: boolean
  /** The providers the host turned on, in its order. */
  providers: SocialProvider[]
  /**
   * Logs in with `provider`; call it in the click (the login window opens in it; on a phone the
   * whole page goes to the provider). Farcaster gives a URL for its app (`status.url`: a QR code
   * or a link) and waits for it. Resolves to the connection, or undefined (failed: `error`;
   * cancelled; or the page is on its way to the provider).
   */
  login(provider: SocialProvider): Promise<Connection | undefined>
  /** The login under way: its provider and step ('opening' | 'redirecting' | 'waiting' | 'finishing'), and Farcaster's URL. */
  status: LoginState | undefined
  isPending: boolean
  /** LoginCancelledError (closed or cancelled at the provider), LoginBlockedError (the window was blocked), or the frame's. */
  error: SigilError | undefined
  /** Gives up the login under way (closes its window). */
  cancel(): void
}

/** Social and Farcaster login to the embedded wallet, without the modal. */
export function useSocialLogin(): UseSocialLogin {
  const appKit = useInstance()
  const { client } = appKit
  const connectors = useAppKitSelector(selectConnectors)
  // biome-ignore lint/correctness/useExhaustiveDependencies: connectors: the embedded wallet joins the page's list once its frame source started
  const available = useMemo(() => client.getAuthConnector() !== undefined, [client, connectors])
  const status = useAppKitSelector(selectLogin)
  const [state, setState] = useState<{ isPending: boolean; error: SigilError | undefined }>({ isPending: false, error: undefined })
  const running = useRef<AbortController | undefined>(undefined)

  const login = useCallback(
    async (provider: SocialProvider) => {
      running.current?.abort()
      const attempt = new AbortController()
      running.current = attempt
      // The window opens now, inside the click: a window opened after an await is blocked. (On a
      // phone the whole page goes to the provider. `client.context.isMobile` rather than the
      // `isMobileDevice` selector, whose module loads with the modal's chunk.)
      const popup = provider === 'farcaster' || client.context.isMobile() ? undefined : openLoginWindow()
      attempt.signal.addEventListener('abort', () => popup?.close(), { once: true })
      setState({ isPending: true, error: undefined })
      try {
        const actions = await loginActions()
        const connection =
          provider === 'farcaster'
            ? await actions.loginWithFarcaster(client, { signal: attempt.signal })
            : await actions.loginWithSocial(client, { provider, popup, signal: attempt.signal })
        if (running.current === attempt) setState({ isPending: false, error: undefined })
        return connection
      } catch (error) {
        if (running.current === attempt) setState({ isPending: false, error: attempt.signal.aborted ? undefined : toSigilError(error) })
        return undefined
      }
    },
    [client],
  )
  const cancel = useCallback(() => {
    running.current?.abort()
    running.current = undefined
    setState({ isPending: false, error: undefined })
  }, [])
  // Leaving the page's part that logs in gives the login up.
  useEffect(() => () => running.current?.abort(), [])

  const socials = client.options.features.socials
  const providers = useMemo(() => (Array.isArray(socials) ? socials : []), [socials])
  return useMemo(() => ({ ...state, available, providers, login, status, cancel }), [state, available, providers, login, status, cancel])
}
