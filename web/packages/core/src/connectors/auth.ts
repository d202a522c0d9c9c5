/*
 * The embedded wallet as a connector (type AUTH): a wallet the Sigil server holds for a visitor
 * who logged in with an email code or a social login, reached only through the secure frame on
 * the server's frame origin. Its accounts span the frame's namespaces; each namespace's provider
 * is its family's over the frame. This shell is all the host page loads up front; the frame
 * bridge, the message schemas and the login steps load on first use (./auth-impl.ts).
 */
import { FRAME_NAMESPACES } from '../frame/namespaces.js'
import type { Metadata, ThemeMode, ThemeVariables } from '../options.js'
import type { KeyValueStorage } from '../storage.js'
import type { AccountType, Connector } from '../types.js'
import type { SessionFamilies } from './transport.js'
import type { ConnectorEvent, ConnectorSource, WalletConnector } from './types.js'
import { emitter } from '../emitter.js'
import { onDemand } from '../on-demand.js'

export const AUTH_CONNECTOR_ID = 'sigil-embedded'

/** Login-cache keys (spec sections 3 and 4). */
export const LoginCacheKeys = {
  emailLogin: '@appkit/email_login',
  email: '@appkit/email',
  lastChain: '@appkit/last_chain',
  socialUsername: '@appkit/social_username',
  socialProvider: '@appkit/social_provider',
  farcasterUrl: '@appkit/farcaster_url',
  lastEmailLoginTime: '@appkit/last_email_login_time',
} as const

/** Spec section 9: a new email code no sooner than 30 s after the last. */
export const EMAIL_COOLDOWN_MS = 30_000

/** What the embedded wallet's requests mean for the modal. */
export type EmbeddedRequestEvent =
  /** An unsafe request waits for the user's approval in the frame; `abort` gives it up. */
  | { type: 'approval-start'; abort: () => void }
  /**
   * The approved request settled; `failure` when it failed other than by the user's rejection
   * (the chain refused it: what the modal says, and whether it was a transaction).
   */
  | { type: 'approval-end'; ok: boolean; failure?: { message: string; transaction: boolean } }
  /** A method the embedded wallet refuses: the modal shows `message`. */
  | { type: 'not-allowed'; message: string }
  /** The height (CSS pixels) the frame's view needs at its width: the view showing the frame sizes its place to it. */
  | { type: 'frame-height'; height: number }

/** A finished social login: the provider (google, github, farcaster, …) and the username it gave. */
export interface SocialLogin {
  provider: string
  userName?: string
}

export type EmailAction = 'VERIFY_DEVICE' | 'VERIFY_OTP' | 'CONNECT'
/** The device view's question answered: still waiting for the approval, or approved and a code sent. */
export type DeviceAction = 'VERIFY_DEVICE' | 'VERIFY_OTP'

export interface AuthConnectorOptions {
  /** The Sigil server's frame origin (`--frame-public-url`). */
  frameUrl: string
  projectId: string
  version: string
  /** The active network's CAIP-2 id, for the frame's query and requests. */
  chainId: () => string
  enableLogger?: boolean
  storage: KeyValueStorage
  /** The host's name and icons, for the frame's approval view; the SDK type. */
  dappData?: { metadata?: Metadata; sdkType: string }
  /** The modal's locale tag ('en' until its words have loaded), which the frame and its emails follow. */
  locale?: () => string | undefined
  /** The modal's theme, which the frame follows. */
  theme?: () => { themeMode: ThemeMode; themeVariables: ThemeVariables }
  /** What each namespace's family does over the frame (the host's adapters' session capabilities). */
  families?: SessionFamilies
}

/** The embedded wallet's connector: a WalletConnector with the email login steps. */
export interface AuthConnector extends WalletConnector {
  /** Step 1: sends a device-approval link or a code (per the server), or connects a live session. */
  connectEmail(email: string): Promise<EmailAction>
  /**
   * Whether the device was approved from the email yet: VERIFY_DEVICE while it is not (waiting
   * is a normal answer, asked again), VERIFY_OTP once it is (a code is sent then).
   */
  connectDevice(): Promise<DeviceAction>
  /** The emailed code: the frame holds a session afterwards (connect() then yields the accounts). */
  connectOtp(otp: string): Promise<void>
  updateEmail(email: string): Promise<'VERIFY_PRIMARY_OTP' | 'VERIFY_SECONDARY_OTP'>
  updateEmailPrimaryOtp(otp: string): Promise<void>
  updateEmailSecondaryOtp(otp: string): Promise<string>
  /**
   * Social login, step 1: the provider's login page for a new login (single use, 10 min).
   * `returnUrl`: for a full-page login, the page (on an allowed origin) the provider sends back to.
   */
  getSocialRedirectUri(provider: string, options?: { returnUrl?: string }): Promise<string>
  /**
   * Social login, step 2: waits until the person finished at the provider, for the login started
   * at `uri` (the provider's URL, or the page URL a full-page login came back to). The frame then
   * holds a session (connect() yields the accounts). Rejects with code 4001 when they cancelled.
   */
  connectSocial(uri: string, options?: { signal?: AbortSignal }): Promise<SocialLogin>
  /** Sign In With Farcaster: a new channel's URL, for the Farcaster app (a QR code and a link). */
  getFarcasterUri(): Promise<string>
  /** Waits until the Farcaster app signed in on the channel; the frame then holds a session. */
  /** Waits for the Farcaster app; `onRefused` hears why a message posted to the channel was refused (the channel stays open). */
  connectFarcaster(options?: { signal?: AbortSignal; onRefused?: (reason: string) => void }): Promise<SocialLogin>
  /** The email being logged in with, or of the session. */
  getEmail(): string | undefined
  /** The social provider and username of the session, when it came through social login. */
  getSocialLogin(): SocialLogin | undefined
  /** Milliseconds until another code may be asked for (0 when it may now). */
  emailCooldownMs(now?: number): number
  /** The frame shows the user their private keys (after a fresh email code); resolves when they are done there. */
  exportKeys(options?: { signal?: AbortSignal }): Promise<void>
  /**
   * Makes `type` the account the embedded wallet acts with (the frame's SET_PREFERRED_ACCOUNT);
   * resolves to the type and address the frame answers, undefined when the frame cannot.
   */
  setPreferredAccountType?(type: Exclude<AccountType, 'ordinal'>): Promise<{ type: AccountType; address: string } | undefined>
  /** Shows the frame (its approval UI) over `rect`, or hides it. */
  showFrame(rect: { left: number; top: number; width: number; height: number } | undefined): void
  /** Requests that matter to the modal (approval, refused methods). Returns an unsubscribe. */
  subscribeRequests(listener: (event: EmbeddedRequestEvent) => void): () => void
}

export function isAuthConnector(connector: WalletConnector | undefined): connector is AuthConnector {
  return connector?.info.type === 'AUTH' && typeof (connector as AuthConnector).connectEmail === 'function'
}

/** The part that loads on first use. */
export interface AuthImpl {
  connector: Omit<AuthConnector, 'info' | 'subscribe' | 'subscribeRequests' | 'getEmail' | 'getSocialLogin' | 'emailCooldownMs'>
}

/** The stored social login of the session, if it came through one. */
export function socialLoginOf(storage: KeyValueStorage): SocialLogin | undefined {
  const provider = storage.getItem(LoginCacheKeys.socialProvider)
  if (!provider || storage.getItem(LoginCacheKeys.emailLogin) !== 'true') return undefined
  const userName = storage.getItem(LoginCacheKeys.socialUsername)
  return userName ? { provider, userName } : { provider }
}

/** The embedded wallet's connector source: one AUTH connector, its work loaded on first use. */
export function embeddedWallet(options: AuthConnectorOptions): ConnectorSource {
  const [chain] = FRAME_NAMESPACES
  const info: Connector = { id: AUTH_CONNECTOR_ID, name: 'Email', chain, namespaces: FRAME_NAMESPACES, type: 'AUTH' }
  const events = emitter<ConnectorEvent>()
  const requests = emitter<EmbeddedRequestEvent>()
  let loaded: AuthImpl | undefined
  const impl = onDemand(() =>
    import('./auth-impl.js').then((m) => {
      loaded = m.createAuthImpl(options, { emit: events.emit, emitRequest: requests.emit })
      return loaded
    }),
  )
  const load = impl.get
  const connector: AuthConnector = {
    info,
    connect: async (params) => (await load()).connector.connect(params),
    reconnect: async (params) => {
      // Nothing to restore without a stored login: the frame is not even loaded then.
      if (options.storage.getItem(LoginCacheKeys.emailLogin) !== 'true') return undefined
      const { connector: c } = await load()
      return c.reconnect(params)
    },
    disconnect: async (namespace) => {
      if (!loaded) {
        for (const key of Object.values(LoginCacheKeys)) options.storage.removeItem(key)
        return
      }
      await loaded.connector.disconnect(namespace)
    },
    getProvider: (namespace) => loaded?.connector.getProvider(namespace),
    subscribe: events.subscribe,
    connectEmail: async (email) => (await load()).connector.connectEmail(email),
    connectDevice: async () => (await load()).connector.connectDevice(),
    connectOtp: async (otp) => (await load()).connector.connectOtp(otp),
    updateEmail: async (email) => (await load()).connector.updateEmail(email),
    updateEmailPrimaryOtp: async (otp) => (await load()).connector.updateEmailPrimaryOtp(otp),
    updateEmailSecondaryOtp: async (otp) => (await load()).connector.updateEmailSecondaryOtp(otp),
    exportKeys: async (exportOptions) => (await load()).connector.exportKeys(exportOptions),
    getSocialRedirectUri: async (provider, redirectOptions) => (await load()).connector.getSocialRedirectUri(provider, redirectOptions),
    connectSocial: async (uri, connectOptions) => (await load()).connector.connectSocial(uri, connectOptions),
    getFarcasterUri: async () => (await load()).connector.getFarcasterUri(),
    connectFarcaster: async (connectOptions) => (await load()).connector.connectFarcaster(connectOptions),
    getEmail: () => options.storage.getItem(LoginCacheKeys.email) ?? undefined,
    getSocialLogin: () => socialLoginOf(options.storage),
    emailCooldownMs(now = Date.now()) {
      const last = Number(options.storage.getItem(LoginCacheKeys.lastEmailLoginTime))
      return Number.isFinite(last) && last > 0 ? Math.max(0, last + EMAIL_COOLDOWN_MS - now) : 0
    },
    setPreferredAccountType: async (type) => (await load()).connector.setPreferredAccountType?.(type),
    showFrame: (rect) => loaded?.connector.showFrame(rect),
    subscribeRequests: requests.subscribe,
  }
  return {
    watch(onChange) {
      onChange([connector])
      return () => undefined
    },
  }
}
