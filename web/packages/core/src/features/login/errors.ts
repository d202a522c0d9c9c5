/*
 * How a login ends when it does not log in, as types with codes (the views match on them):
 * cancelled by the person (at the provider, or by closing its window: the server answers
 * `login_cancelled`, the frame 4001), blocked by the browser (the login window), or not
 * possible here (no embedded wallet). Any other failure is the frame's SigilError.
 */
import { SigilError } from '../../errors.js'
import { localized } from '../../messages/active.js'
import { login as englishLogin } from '../../messages/login.js'

/** Its words in the visitor's locale (English until the modal loads one). */
const login = localized('login', englishLogin)

/** The person cancelled the login (at the provider, or by closing its window). */
export class LoginCancelledError extends SigilError<'LOGIN_CANCELLED'> {
  override name = 'LoginCancelledError'
  constructor(
    readonly provider: string,
    cause?: unknown,
  ) {
    super(login.cancelled, 'LOGIN_CANCELLED', cause)
  }
}

/** The browser blocked the login window (opened in the click; a retry is a new click). */
export class LoginBlockedError extends SigilError<'LOGIN_BLOCKED'> {
  override name = 'LoginBlockedError'
  constructor(readonly provider: string) {
    super(login.blocked, 'LOGIN_BLOCKED')
  }
}

/** No embedded wallet here: the host set no `frameUrl`, or turned email and socials off. */
export class LoginUnavailableError extends SigilError<'LOGIN_UNAVAILABLE'> {
  override name = 'LoginUnavailableError'
  constructor() {
    super(login.unavailable, 'LOGIN_UNAVAILABLE')
  }
}
