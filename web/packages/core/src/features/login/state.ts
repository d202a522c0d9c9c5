import type { SigilClient } from '../../client.js'
import type { AuthConnector } from '../../connectors/auth.js'
import { LoginUnavailableError } from './errors.js'

/** A social or Farcaster login under way, as the views show it (`SigilState.login`). */
export interface LoginState {
  /** google, github, farcaster, … */
  provider: string
  /** Getting the provider's page; the whole page on its way there; waiting for the person; claiming a login that came back. */
  step: 'opening' | 'redirecting' | 'waiting' | 'finishing'
  /** Farcaster: the channel's URL for the app (a QR code and a link). */
  url?: string
  /** Farcaster: why the latest message posted to the channel was refused (the channel stays open). */
  refused?: string
}

/** The embedded wallet's connector; a LoginUnavailableError without one. */
export function authConnector(client: SigilClient): AuthConnector {
  const auth = client.getAuthConnector()
  if (!auth) throw new LoginUnavailableError()
  return auth
}

/** Shows how the login goes (undefined: none under way). */
export function setLogin(client: SigilClient, login: LoginState | undefined): void {
  client.store.setState({ login })
}

/** Whether the embedded wallet is here (the host set `frameUrl` and turned email or socials on). */
export function embeddedWalletAvailable(client: SigilClient): boolean {
  return client.getAuthConnector() !== undefined
}

/** Milliseconds until another email code may be asked for (0 when it may now, or without an embedded wallet). */
export function emailCooldownMs(client: SigilClient, now = Date.now()): number {
  return client.getAuthConnector()?.emailCooldownMs(now) ?? 0
}

/** The email being logged in with, or of the embedded wallet's session. */
export function loginEmail(client: SigilClient): string | undefined {
  return client.getAuthConnector()?.getEmail()
}

/** Lays the embedded wallet's frame (its approval and key views) over `rect`, or hides it again. */
export function showEmbeddedFrame(client: SigilClient, rect: { left: number; top: number; width: number; height: number } | undefined): void {
  client.getAuthConnector()?.showFrame(rect)
}

/**
 * Hears the height (CSS pixels) the embedded wallet's frame says its view needs, each time it
 * is shown and whenever that changes: the view showing the frame sizes its place to it. Returns
 * the stop.
 */
export function watchEmbeddedFrameHeight(client: SigilClient, listener: (height: number) => void): () => void {
  return (
    client.getAuthConnector()?.subscribeRequests((event) => {
      if (event.type === 'frame-height') listener(event.height)
    }) ?? (() => undefined)
  )
}
