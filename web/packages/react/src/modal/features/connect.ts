// The connect feature's views: one chunk, loaded when one of them first shows (or ahead, when idle).
export { AllWalletsView } from '../views/AllWallets.js'
export { ConnectView, preloadConnectView } from '../views/Connect.js'
export { ConnectingExternalView, WalletNotInstalledView } from '../views/Connecting.js'
export { ConnectingWalletConnectView } from '../views/ConnectingWalletConnect.js'
