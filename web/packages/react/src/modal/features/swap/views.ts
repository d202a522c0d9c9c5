// The swap feature's views: Swap -> SwapSelectToken -> SwapPreview -> SwapDone (EVM networks, when the host left `swaps` on).
import { feature, type ViewEntries } from '../../registry.js'

const swap = feature(() => import('./swap.js'))

export const swapViews = {
  Swap: swap(
    (m) => m.SwapView,
    (_, m) => m.ui.swap.titles.Swap,
  ),
  SwapSelectToken: swap(
    (m) => m.SwapSelectTokenView,
    (_, m) => m.ui.swap.titles.SwapSelectToken,
  ),
  SwapPreview: swap(
    (m) => m.SwapPreviewView,
    (_, m) => m.ui.swap.titles.SwapPreview,
  ),
  SwapDone: swap(
    (m) => m.SwapDoneView,
    (_, m) => m.ui.swap.titles.SwapDone,
  ),
} satisfies ViewEntries
