// Social login's views: the provider's login window, every provider, and Farcaster's QR code.
export { ConnectingFarcasterView, ConnectingSocialView, ConnectSocialsView } from './Social.js'
