// Social login's views: the provider's login window, every provider, and Farcaster's QR code.
import { feature, type ViewEntries } from '../../registry.js'
import { providerLabel } from './login-window.js'

const social = feature(() => import('./social.js'))

export const socialViews = {
  ConnectingSocial: social<'ConnectingSocial'>(
    (m) => m.ConnectingSocialView,
    (r, m) => m.ui.connect.continueWith(providerLabel(m.ui, r.data.provider)),
  ),
  ConnectSocials: social(
    (m) => m.ConnectSocialsView,
    (_, m) => m.ui.titles.ConnectSocials,
  ),
  ConnectingFarcaster: social(
    (m) => m.ConnectingFarcasterView,
    (_, m) => m.ui.titles.ConnectingFarcaster,
  ),
} satisfies ViewEntries
