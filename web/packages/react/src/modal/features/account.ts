// The account feature's views: the connected account and network switching.
export { AccountView } from '../views/Account.js'
export { NetworksView, UnsupportedChainView } from '../views/Networks.js'
