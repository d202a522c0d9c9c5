// The receive feature's view: the active account's address as a QR code and text, with its network.
import { feature, type ViewEntries } from '../../registry.js'

const receive = feature(() => import('./receive.js'))

export const receiveViews = {
  WalletReceive: receive(
    (m) => m.ReceiveView,
    (_, m) => m.ui.titles.WalletReceive,
  ),
} satisfies ViewEntries
