// The sign-in feature's view, loaded only when a host uses sign-in.
import { feature, type ViewEntries } from '../../registry.js'

const siwx = feature(() => import('./siwx.js'))

export const siwxViews = {
  SIWXSignMessage: siwx(
    (m) => m.SIWXSignMessageView,
    (_, m) => m.ui.titles.SIWXSignMessage,
  ),
  // A host's older `siweConfig`: the same view, under the spec's name for it.
  ConnectingSiwe: siwx(
    (m) => m.SIWXSignMessageView,
    (_, m) => m.ui.titles.ConnectingSiwe,
  ),
} satisfies ViewEntries
