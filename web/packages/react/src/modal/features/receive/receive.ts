// The receive feature's view chunk: the account's address to receive on.
export { ReceiveView } from './Receive.js'
