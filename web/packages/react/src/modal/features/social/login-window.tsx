/*
 * Starting a social login from a click: the login window must open inside the click itself
 * (browsers block a window opened later), so it opens here, empty, before the provider's URL
 * is known; ConnectingSocial then sends it there. Shared by the Connect view's buttons and the
 * social views (retry, the list of all providers), with the provider's name (its icon: glyph.tsx).
 */
import { isMobileDevice, type SigilClient } from '@sigil/core'
import type { Messages } from '@sigil/core/messages'

const POPUP_WIDTH = 500
const POPUP_HEIGHT = 640
/** One name for the window: a second click reuses it rather than opening another. */
const POPUP_NAME = 'sigil-social-login'

/** Opens the empty login window centred on the page's window; null when the browser blocked it. */
export function openLoginPopup(win: Window = window): Window | null {
  const left = Math.round(win.screenX + Math.max(0, (win.outerWidth - POPUP_WIDTH) / 2))
  const top = Math.round(win.screenY + Math.max(0, (win.outerHeight - POPUP_HEIGHT) / 2))
  const popup = win.open('', POPUP_NAME, `popup=yes,width=${POPUP_WIDTH},height=${POPUP_HEIGHT},left=${left},top=${top}`)
  // The opener stays: without it Chromium moves the window to another browsing context group on
  // its cross-site navigation, and this handle could no longer watch or close it. The provider
  // is one the server was configured with, and it returns to Sigil's callback page (no script).
  return popup
}

/**
 * The click on a provider: Farcaster shows its QR code; the others open the login window (on
 * desktop; on mobile the login takes the whole page) and show ConnectingSocial.
 */
export function startSocialLogin(client: SigilClient, provider: string): void {
  if (provider === 'farcaster') {
    client.push('ConnectingFarcaster')
    return
  }
  if (isMobileDevice(client)) client.push('ConnectingSocial', { provider })
  else client.push('ConnectingSocial', { provider, popup: openLoginPopup() })
}

/** The provider's name for people: the catalogue's, or its id. */
export function providerLabel(ui: Messages['ui'], provider: string): string {
  return (ui.connect.socials as Record<string, string>)[provider] ?? (provider || ui.social.anAccount)
}
