// The connect feature's views: one chunk, loaded when one of them first shows (or ahead, when idle).
export { AllWalletsView } from './AllWallets.js'
export { ConnectView, preloadConnectView } from './Connect.js'
export { ConnectingExternalView, WalletNotInstalledView } from './Connecting.js'
export { ConnectingWalletConnectView } from './ConnectingWalletConnect.js'
export { GetWalletView } from './GetWallet.js'
