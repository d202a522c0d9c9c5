// The onramp feature's views: OnRamp -> OnRampProgress (EVM and Solana networks, when the host left `onramp` on).
import { feature, type ViewEntries } from '../../registry.js'

const onramp = feature(() => import('./onramp.js'))

export const onrampViews = {
  OnRamp: onramp(
    (m) => m.OnRampView,
    (_, m) => m.ui.onramp.titles.OnRamp,
  ),
  OnRampProgress: onramp(
    (m) => m.OnRampProgressView,
    (_, m) => m.ui.onramp.titles.OnRampProgress,
  ),
} satisfies ViewEntries
