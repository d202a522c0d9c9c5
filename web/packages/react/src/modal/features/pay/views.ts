// The pay feature's views: PayWithExchange -> PayProgress (EVM networks, when the host turned `pay` on).
import { feature, type ViewEntries } from '../../registry.js'

const pay = feature(() => import('./pay.js'))

export const payViews = {
  PayWithExchange: pay(
    (m) => m.PayWithExchangeView,
    (_, m) => m.pay.titles.PayWithExchange,
  ),
  PayProgress: pay(
    (m) => m.PayProgressView,
    (_, m) => m.pay.titles.PayProgress,
  ),
} satisfies ViewEntries
