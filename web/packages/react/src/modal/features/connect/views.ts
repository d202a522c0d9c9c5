// The connect feature's views: the wallet list, every wallet, wallets to get, and connecting (a page wallet, WalletConnect).
import { feature, type ViewEntries } from '../../registry.js'

const connect = feature(() => import('./connect.js'))

export const connectViews = {
  Connect: connect(
    (m) => m.ConnectView,
    (_, m) => m.ui.titles.Connect,
    (m, options) => m.preloadConnectView(options),
  ),
  AllWallets: connect(
    (m) => m.AllWalletsView,
    (_, m) => m.ui.titles.AllWallets,
  ),
  GetWallet: connect(
    (m) => m.GetWalletView,
    (_, m) => m.ui.titles.GetWallet,
  ),
  ConnectingExternal: connect<'ConnectingExternal'>(
    (m) => m.ConnectingExternalView,
    (r) => r.data.wallet?.name ?? r.data.connector.name,
  ),
  ConnectingWalletConnect: connect<'ConnectingWalletConnect'>(
    (m) => m.ConnectingWalletConnectView,
    (r) => r.data.wallet.name,
  ),
  ConnectingWalletConnectBasic: connect<'ConnectingWalletConnectBasic'>(
    (m) => m.ConnectingWalletConnectView,
    (_, m) => m.ui.titles.Connecting,
  ),
} satisfies ViewEntries
