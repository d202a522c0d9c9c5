/*
 * `@sigil/core/login`: the login feature's actions (email, social and Farcaster logins to the
 * embedded wallet, the email change, the key export), its state and its errors. Loaded with the
 * views that use it, never with the host page.
 */
export {
  DEVICE_POLL_MS,
  exportKeys,
  loginWithEmail,
  resendEmailLogin,
  updateEmail,
  verifyEmailOtp,
  verifyUpdateEmailPrimary,
  verifyUpdateEmailSecondary,
  waitForDeviceApproval,
  type ExportKeysErrorType,
  type ExportKeysParameters,
  type LoginWithEmailErrorType,
  type LoginWithEmailParameters,
  type LoginWithEmailReturnType,
  type ResendEmailLoginErrorType,
  type ResendEmailLoginParameters,
  type ResendEmailLoginReturnType,
  type UpdateEmailErrorType,
  type UpdateEmailParameters,
  type UpdateEmailReturnType,
  type VerifyEmailOtpErrorType,
  type VerifyEmailOtpParameters,
  type VerifyEmailOtpReturnType,
  type WaitForDeviceApprovalErrorType,
  type WaitForDeviceApprovalParameters,
  type WaitForDeviceApprovalReturnType,
} from './email.js'
export { LoginBlockedError, LoginCancelledError, LoginUnavailableError } from './errors.js'
export {
  loginWithFarcaster,
  loginWithSocial,
  POPUP_CLOSED_GRACE_MS,
  POPUP_WATCH_MS,
  type LoginWindow,
  type LoginWithFarcasterErrorType,
  type LoginWithFarcasterParameters,
  type LoginWithFarcasterReturnType,
  type LoginWithSocialErrorType,
  type LoginWithSocialParameters,
  type LoginWithSocialReturnType,
} from './social.js'
export { emailCooldownMs, embeddedWalletAvailable, loginEmail, showEmbeddedFrame, watchEmbeddedFrameHeight, type LoginState } from './state.js'
