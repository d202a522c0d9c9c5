// The sign-in feature's view, loaded only when a host uses sign-in.
export { SIWXSignMessageView } from './SIWXSignMessage.js'
