// The send feature's view chunk: the send form, the token choice, the Preview, the sent state, and what the modal says when an approved transaction is not sent.
export { WalletSendPreviewView } from './Preview.js'
export { WalletSendSelectTokenView } from './SelectToken.js'
export { WalletSendSentView } from './Sent.js'
export { TransactionFailedView } from './TransactionFailed.js'
export { WalletSendView } from './WalletSend.js'
