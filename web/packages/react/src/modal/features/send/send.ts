// The send feature's view chunk: what the modal says when an approved transaction is not sent.
export { TransactionFailedView } from './TransactionFailed.js'
