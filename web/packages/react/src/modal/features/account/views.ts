// The account feature's views: the connected account (with the send feature's form) and network switching.
import { feature, type ViewEntries } from '../../registry.js'

const account = feature(() => import('./account.js'))

export const accountViews = {
  Account: account(
    (m) => m.AccountView,
    (_, m) => m.ui.titles.Account,
  ),
  Networks: account(
    (m) => m.NetworksView,
    (_, m) => m.ui.titles.Networks,
  ),
  UnsupportedChain: account(
    (m) => m.UnsupportedChainView,
    (_, m) => m.ui.titles.UnsupportedChain,
  ),
} satisfies ViewEntries
