/*
 * Social login to the embedded wallet: the provider's login in a window the view opened in the
 * click (null: the browser blocked it), or in the whole page (then the page comes back with
 * `sigil_social` in its URL and the login is finished there); Sign In With Farcaster through a
 * channel the Farcaster app signs in on. Then the embedded wallet connects. How far it got is
 * `SigilState.login`; a cancelled or blocked login is a typed error.
 */
import type { SigilClient } from '../../client.js'
import { AUTH_CONNECTOR_ID, type SocialLogin } from '../../connectors/auth.js'
import type { Connection } from '../../connectors/types.js'
import { isUserRejection, toSigilError, type SigilError } from '../../errors.js'
import { LoginBlockedError, LoginCancelledError, type LoginUnavailableError } from './errors.js'
import { authConnector, setLogin } from './state.js'

/** How often the login looks whether the person closed the login window. */
export const POPUP_WATCH_MS = 300
/**
 * A closed window may have just finished the login (the person closed the "Logged in" page
 * themselves): the claim under way gets this long to say so before the login counts as cancelled.
 */
export const POPUP_CLOSED_GRACE_MS = 2000

/** The login window the view opened in the click. */
export interface LoginWindow {
  location: { href: string }
  readonly closed: boolean
  close(): void
}

export interface LoginWithSocialParameters {
  /** google, github, … as the server names them. */
  provider: string
  /** The window opened in the click (null: the browser blocked it); undefined: the login takes the whole page. */
  popup?: LoginWindow | null
  /** The page URL a full-page login came back to: the login is finished from it. */
  returnUri?: string
  /** Stops the login (the view was left). */
  signal?: AbortSignal
}
/** The connection, once logged in; undefined when the page is on its way to the provider, or the login was given up (`signal`). */
export type LoginWithSocialReturnType = Connection | undefined
export type LoginWithSocialErrorType = LoginCancelledError | LoginBlockedError | LoginUnavailableError | SigilError

/** The page's URL with `sigil_social` (and its claim secret) gone: once used, they go from the address bar. */
function dropReturnParam(): void {
  const url = new URL(location.href)
  if (!url.searchParams.has('sigil_social') && !url.searchParams.has('sigil_claim')) return
  url.searchParams.delete('sigil_social')
  url.searchParams.delete('sigil_claim')
  history.replaceState(history.state, '', url.toString())
}

/** Claims the login started at `uri` while the window is open; closing it (and a grace period) cancels. */
async function claimInWindow(client: SigilClient, uri: string, popup: LoginWindow, signal: AbortSignal | undefined): Promise<SocialLogin> {
  const claim = new AbortController()
  signal?.addEventListener('abort', () => claim.abort(), { once: true })
  let closedAt = 0
  const watch = setInterval(() => {
    if (closedAt === 0 && popup.closed) {
      closedAt = Date.now()
      setTimeout(() => claim.abort(), POPUP_CLOSED_GRACE_MS)
    }
  }, POPUP_WATCH_MS)
  try {
    return await authConnector(client).connectSocial(uri, { signal: claim.signal })
  } catch (error) {
    // The person closed the window and no login came: they cancelled.
    if (closedAt && claim.signal.aborted && !signal?.aborted) throw new LoginCancelledError('', error)
    throw error
  } finally {
    clearInterval(watch)
    popup.close()
  }
}

/**
 * A social login, from the click's window (or the whole page) to the embedded wallet connected.
 * A login the person cancelled (at the provider, or by closing its window) is a
 * LoginCancelledError; a blocked window a LoginBlockedError.
 */
export async function loginWithSocial(client: SigilClient, params: LoginWithSocialParameters): Promise<LoginWithSocialReturnType> {
  const { provider, popup, returnUri, signal } = params
  const auth = authConnector(client)
  const step = (next: 'opening' | 'redirecting' | 'waiting' | 'finishing') => setLogin(client, { provider, step: next })
  try {
    if (returnUri) {
      dropReturnParam()
      step('finishing')
      await auth.connectSocial(returnUri, signal ? { signal } : {})
    } else if (popup === null) {
      throw new LoginBlockedError(provider)
    } else if (popup === undefined) {
      // The whole page goes to the provider, and the provider sends it back here.
      step('redirecting')
      const uri = await auth.getSocialRedirectUri(provider, { returnUrl: location.href })
      if (!signal?.aborted) location.assign(uri)
      return undefined
    } else {
      step('opening')
      const uri = await auth.getSocialRedirectUri(provider)
      if (signal?.aborted) return undefined
      popup.location.href = uri
      step('waiting')
      await claimInWindow(client, uri, popup, signal)
    }
    if (signal?.aborted) return undefined
    return await client.connect(AUTH_CONNECTOR_ID)
  } catch (error) {
    if (error instanceof LoginCancelledError) throw new LoginCancelledError(provider, error.cause)
    if (isUserRejection(error)) throw new LoginCancelledError(provider, error)
    throw toSigilError(error)
  } finally {
    setLogin(client, undefined)
  }
}

export interface LoginWithFarcasterParameters {
  /** Stops waiting for the app (the view was left). */
  signal?: AbortSignal
}
export type LoginWithFarcasterReturnType = Connection | undefined
export type LoginWithFarcasterErrorType = LoginCancelledError | LoginUnavailableError | SigilError

/**
 * Sign In With Farcaster: a new channel (its URL in `SigilState.login`, for a QR code and a
 * link), then waiting until the Farcaster app signed in on it; then the embedded wallet connects.
 * A message posted to the channel that was refused shows (`login.refused`); the channel stays open.
 */
export async function loginWithFarcaster(client: SigilClient, { signal }: LoginWithFarcasterParameters = {}): Promise<LoginWithFarcasterReturnType> {
  const auth = authConnector(client)
  const provider = 'farcaster'
  setLogin(client, { provider, step: 'opening' })
  try {
    const url = await auth.getFarcasterUri()
    if (signal?.aborted) return undefined
    setLogin(client, { provider, step: 'waiting', url })
    await auth.connectFarcaster({
      ...(signal ? { signal } : {}),
      onRefused: (refused) => {
        if (!signal?.aborted) setLogin(client, { provider, step: 'waiting', url, refused })
      },
    })
    if (signal?.aborted) return undefined
    return await client.connect(AUTH_CONNECTOR_ID)
  } catch (error) {
    if (isUserRejection(error)) throw new LoginCancelledError(provider, error)
    throw toSigilError(error)
  } finally {
    setLogin(client, undefined)
  }
}
