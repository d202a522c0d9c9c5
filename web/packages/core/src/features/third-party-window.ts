/*
 * A third party's page (a card provider's, an exchange's) in a window of its own, for the
 * features' actions (onramp, pay).
 */
import type { SigilClient } from '../client.js'

/** Opens the window while the click that asks for it is handled (later, browsers block it): a popup on a desktop, a tab on a phone; null when blocked. */
export function openThirdPartyWindow(client: SigilClient, name: string): Window | null {
  if (typeof window === 'undefined') return null
  return window.open('about:blank', name, client.context.isMobile() ? undefined : 'popup,width=480,height=720')
}

/** Sends the window opened for it to `url`; false when there is none (blocked or closed): the caller offers the link. */
export function showThirdPartyPage(popup: Window | null, url: string): boolean {
  if (popup === null || popup.closed) return false
  // The third party's page gets no handle on this one (it could send it elsewhere).
  popup.opener = null
  popup.location.href = url
  return true
}
