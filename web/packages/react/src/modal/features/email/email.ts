// The embedded wallet's views: email code, device approval, email change, and request approval.
export { ApproveTransactionView, ExportKeyView } from './ApproveTransaction.js'
export { EmailVerifyDeviceView, EmailVerifyOtpView, UpdateEmailView } from './Email.js'
