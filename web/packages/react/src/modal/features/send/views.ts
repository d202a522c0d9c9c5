// The send feature's views: WalletSend -> WalletSendSelectToken -> WalletSendPreview -> WalletSendSent, and what shows when the embedded wallet's approved request fails.
import { feature, type ViewEntries } from '../../registry.js'

const send = feature(() => import('./send.js'))

export const sendViews = {
  WalletSend: send(
    (m) => m.WalletSendView,
    (_, m) => m.ui.titles.WalletSend,
  ),
  WalletSendSelectToken: send(
    (m) => m.WalletSendSelectTokenView,
    (_, m) => m.ui.titles.WalletSendSelectToken,
  ),
  WalletSendPreview: send(
    (m) => m.WalletSendPreviewView,
    (_, m) => m.ui.titles.WalletSendPreview,
  ),
  WalletSendSent: send(
    (m) => m.WalletSendSentView,
    (_, m) => m.ui.titles.WalletSendSent,
  ),
  TransactionFailed: send(
    (m) => m.TransactionFailedView,
    (route, m) => (route.data.transaction ? m.ui.titles.TransactionFailed : m.ui.titles.RequestFailed),
  ),
} satisfies ViewEntries
