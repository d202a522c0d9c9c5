/*
 * Email login to the embedded wallet, and the email change: the frame sends a device-approval
 * link or a 6-digit code; the code logs in, and the embedded wallet connects. Each step routes
 * to the view of the next one.
 */
import type { SigilClient } from '../../client.js'
import { AUTH_CONNECTOR_ID, type DeviceAction, type EmailAction } from '../../connectors/auth.js'
import type { Connection } from '../../connectors/types.js'
import type { SigilError } from '../../errors.js'
import { currentView, pushView, replaceView } from '../../router.js'
import type { LoginUnavailableError } from './errors.js'
import { authConnector } from './state.js'

/** How often the device view asks whether the device was approved. */
export const DEVICE_POLL_MS = 2000

export interface LoginWithEmailParameters {
  email: string
}
/** What the server asked for: a device approval, a code, or nothing (a live session: connected). */
export type LoginWithEmailReturnType = EmailAction
/** 'Enter a valid email address' (INVALID_EMAIL), 'Please try again after {n} seconds' (RATE_LIMITED), the frame's. */
export type LoginWithEmailErrorType = LoginUnavailableError | SigilError

/**
 * Starts an email login: EmailVerifyDevice shows when the server wants this device approved
 * first, EmailVerifyOtp when a code is on its way; a live session connects at once.
 */
export async function loginWithEmail(client: SigilClient, { email }: LoginWithEmailParameters): Promise<LoginWithEmailReturnType> {
  const action = await authConnector(client).connectEmail(email)
  const trimmed = email.trim()
  if (action === 'VERIFY_DEVICE') pushView(client.store, 'EmailVerifyDevice', { email: trimmed })
  else if (action === 'VERIFY_OTP') pushView(client.store, 'EmailVerifyOtp', { email: trimmed })
  else await client.connect(AUTH_CONNECTOR_ID)
  return action
}

export type ResendEmailLoginParameters = LoginWithEmailParameters
export type ResendEmailLoginReturnType = EmailAction
export type ResendEmailLoginErrorType = LoginWithEmailErrorType

/** Sends the device link or the code again; from the device view, on to the code once the server sends one. */
export async function resendEmailLogin(client: SigilClient, { email }: ResendEmailLoginParameters): Promise<ResendEmailLoginReturnType> {
  const action = await authConnector(client).connectEmail(email)
  if (action === 'VERIFY_OTP' && currentView(client.store.getState()) === 'EmailVerifyDevice') replaceView(client.store, 'EmailVerifyOtp', { email })
  return action
}

export interface VerifyEmailOtpParameters {
  /** The emailed 6-digit code. */
  otp: string
}
export type VerifyEmailOtpReturnType = Connection
/** 'Enter the 6-digit code' (INVALID_OTP), a wrong or expired code (the frame's), or connecting's errors. */
export type VerifyEmailOtpErrorType = LoginUnavailableError | SigilError

/** The emailed code: the frame holds a session afterwards, and the embedded wallet connects. */
export async function verifyEmailOtp(client: SigilClient, { otp }: VerifyEmailOtpParameters): Promise<VerifyEmailOtpReturnType> {
  await authConnector(client).connectOtp(otp)
  return client.connect(AUTH_CONNECTOR_ID)
}

export interface WaitForDeviceApprovalParameters {
  email: string
  /** Stops waiting (the view was left). */
  signal: AbortSignal
  /** Between two asks (2 s by default). */
  intervalMs?: number
}
export type WaitForDeviceApprovalReturnType = boolean
export type WaitForDeviceApprovalErrorType = LoginUnavailableError

/**
 * Asks every 2 s whether the link in the email was opened (the frame answers VERIFY_DEVICE
 * while it was not: a normal answer, no error); then the code is on its way and
 * EmailVerifyOtp shows. Resolves true then, false when aborted first.
 */
export async function waitForDeviceApproval(client: SigilClient, { email, signal, intervalMs = DEVICE_POLL_MS }: WaitForDeviceApprovalParameters) {
  const auth = authConnector(client)
  for (;;) {
    const tick = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(true), intervalMs)
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer)
          resolve(false)
        },
        { once: true },
      )
    })
    if (!tick || signal.aborted) return false
    let action: DeviceAction
    try {
      action = await auth.connectDevice()
    } catch {
      // The frame could not ask (a network hiccup): ask again.
      continue
    }
    // Not approved yet: a normal answer, asked again.
    if (action === 'VERIFY_DEVICE') continue
    if (signal.aborted) return false
    replaceView(client.store, 'EmailVerifyOtp', { email })
    return true
  }
}

export interface UpdateEmailParameters {
  email: string
}
/** The code goes to the current address first (VERIFY_PRIMARY_OTP), or straight to the new one. */
export type UpdateEmailReturnType = 'VERIFY_PRIMARY_OTP' | 'VERIFY_SECONDARY_OTP'
export type UpdateEmailErrorType = LoginUnavailableError | SigilError

/** The email change, step 1: the new address. */
export async function updateEmail(client: SigilClient, { email }: UpdateEmailParameters): Promise<UpdateEmailReturnType> {
  return authConnector(client).updateEmail(email)
}

/** The email change, step 2: the code sent to the current address. */
export async function verifyUpdateEmailPrimary(client: SigilClient, { otp }: VerifyEmailOtpParameters): Promise<void> {
  return authConnector(client).updateEmailPrimaryOtp(otp)
}

/** The email change, step 3: the code sent to the new address; resolves to the new address. */
export async function verifyUpdateEmailSecondary(client: SigilClient, { otp }: VerifyEmailOtpParameters): Promise<string> {
  return authConnector(client).updateEmailSecondaryOtp(otp)
}

export interface ExportKeysParameters {
  /** Stops the export (the view was left). */
  signal?: AbortSignal
}
export type ExportKeysErrorType = LoginUnavailableError | SigilError

/** The frame shows the user their private keys, after a fresh email code; resolves when they are done there. */
export async function exportKeys(client: SigilClient, { signal }: ExportKeysParameters = {}): Promise<void> {
  return authConnector(client).exportKeys(signal ? { signal } : {})
}
