// The account-name feature's views: RegisterAccountName -> RegisterAccountNameSuccess (connected EVM accounts that can sign).
import { feature, type ViewEntries } from '../../registry.js'

const names = feature(() => import('./names.js'))

export const nameViews = {
  RegisterAccountName: names(
    (m) => m.RegisterAccountNameView,
    (_, m) => m.ui.names.titles.RegisterAccountName,
  ),
  RegisterAccountNameSuccess: names(
    (m) => m.RegisterAccountNameSuccessView,
    (_, m) => m.ui.names.titles.RegisterAccountNameSuccess,
  ),
} satisfies ViewEntries
