// The account feature's views: the connected account and network switching.
export { AccountView } from './Account.js'
export { NetworksView, UnsupportedChainView } from './Networks.js'
