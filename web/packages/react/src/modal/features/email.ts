// The embedded wallet's views: email code, device approval, email change, and request approval.
export { ApproveTransactionView, ExportKeyView } from '../views/ApproveTransaction.js'
export { EmailVerifyDeviceView, EmailVerifyOtpView, UpdateEmailView } from '../views/Email.js'
