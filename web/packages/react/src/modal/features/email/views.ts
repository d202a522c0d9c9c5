// The embedded wallet's email views: the code, the device approval, the email change, and the frame's approval and key views.
import { feature, type ViewEntries } from '../../registry.js'

const email = feature(() => import('./email.js'))

export const emailViews = {
  EmailVerifyOtp: email<'EmailVerifyOtp'>(
    (m) => m.EmailVerifyOtpView,
    (_, m) => m.ui.titles.EmailVerifyOtp,
  ),
  EmailVerifyDevice: email<'EmailVerifyDevice'>(
    (m) => m.EmailVerifyDeviceView,
    (_, m) => m.ui.titles.EmailVerifyDevice,
  ),
  UpdateEmail: email<'UpdateEmail'>(
    (m) => m.UpdateEmailView,
    (_, m) => m.ui.titles.UpdateEmail,
  ),
  ApproveTransaction: email<'ApproveTransaction'>(
    (m) => m.ApproveTransactionView,
    (_, m) => m.ui.titles.ApproveTransaction,
  ),
  ExportKey: email<'ExportKey'>(
    (m) => m.ExportKeyView,
    (_, m) => m.ui.titles.ExportKey,
  ),
} satisfies ViewEntries
