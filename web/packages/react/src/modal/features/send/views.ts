// The send feature's views: the Account view holds the send form itself (SendForm); this is what shows when the embedded wallet's approved request fails.
import { feature, type ViewEntries } from '../../registry.js'

const send = feature(() => import('./send.js'))

export const sendViews = {
  TransactionFailed: send(
    (m) => m.TransactionFailedView,
    (route, m) => (route.data.transaction ? m.ui.titles.TransactionFailed : m.ui.titles.RequestFailed),
  ),
} satisfies ViewEntries
