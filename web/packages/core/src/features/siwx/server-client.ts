/*
 * The Sigil server's sign-in API (/auth/v1/*). Loaded on demand by `serverSiwx`: the host page
 * pays for it only once a wallet is connected.
 */
import { readServerResponse, serverUrl } from '../../api/http.js'
import { buildMessage, plainData } from './message.js'
import type { SIWXConfig, SIWXMessageData, SIWXSession } from './types.js'
import type { CaipNetworkId } from '../../types.js'
import type { KeyValueStorage } from '../../storage.js'

/** A refusal from the server: its `{"error":{"code","message"}}` carried as-is. */
export class SiwxApiError extends Error {
  override readonly name = 'SiwxApiError'
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(message)
  }
}

export interface AuthApiOptions {
  apiUrl: string
  projectId: string
  sdkType: string
  sdkVersion: string
  fetch?: typeof fetch
}

/** A session as the server returns it. */
export interface ServerSession {
  id: string
  data: SIWXMessageData & Record<string, unknown>
  message: string
  signature: string
  cacao?: unknown
  /** Milliseconds since the epoch (the server's form) or RFC 3339. */
  expiresAt: number | string
}

export interface AuthApi {
  nonce(): Promise<{ nonce: string; expiresAt: string }>
  authenticate(message: string, signature: string): Promise<{ session: ServerSession; token: string }>
  session(token: string): Promise<ServerSession>
  sessions(token: string, account: string): Promise<{ sessions: ServerSession[] }>
  signout(token: string): Promise<{ revoked: boolean }>
}

export function createAuthApi(options: AuthApiOptions): AuthApi {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const url = (path: string, params: Record<string, string> = {}) => serverUrl(options.apiUrl, path, options, params)
  const call = async <T>(method: string, path: string, init: { token?: string; body?: unknown; params?: Record<string, string> } = {}): Promise<T> => {
    const headers: Record<string, string> = {}
    if (init.body !== undefined) headers['content-type'] = 'application/json'
    if (init.token) headers.authorization = `Bearer ${init.token}`
    const response = await doFetch(url(path, init.params), {
      method,
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    })
    const result = await readServerResponse(response)
    if (!result.ok) throw new SiwxApiError(result.failure.message, result.failure.status, result.failure.code)
    return result.body as T
  }
  return {
    nonce: () => call('POST', '/auth/v1/nonce'),
    authenticate: (message, signature) => call('POST', '/auth/v1/authenticate', { body: { message, signature } }),
    session: (token) => call('GET', '/auth/v1/session', { token }),
    sessions: (token, account) => call('GET', '/auth/v1/sessions', { token, params: { account } }),
    signout: (token) => call('POST', '/auth/v1/signout', { token }),
  }
}

/** Where the bearer token is kept. */
export const SIWX_TOKEN_KEY = '@appkit/siwx-auth-token'

export interface ServerSiwxSettings extends AuthApiOptions {
  statement?: string | undefined
  expirationMinutes?: number | undefined
  storage: KeyValueStorage
}

/** An expiry as milliseconds since the epoch (NaN when unreadable). */
function expiryMs(value: number | string): number {
  return typeof value === 'number' ? value : Date.parse(value)
}

function toSession(server: ServerSession): SIWXSession {
  const ms = expiryMs(server.expiresAt)
  const session: SIWXSession = { data: server.data, message: server.message, signature: server.signature, id: server.id }
  if (Number.isFinite(ms)) session.expiresAt = new Date(ms).toISOString()
  if (server.cacao !== undefined) session.cacao = server.cacao
  return session
}

function sameAccount(data: SIWXMessageData, chainId: CaipNetworkId, address: string): boolean {
  return data.chainId === chainId && data.accountAddress.toLowerCase() === address.toLowerCase()
}

/** The server-backed implementation of every SIWXConfig method. */
export function createServerSiwxImpl(settings: ServerSiwxSettings): Omit<SIWXConfig, 'getRequired' | 'signOutOnDisconnect'> {
  const api = createAuthApi(settings)
  const { storage } = settings
  const token = () => storage.getItem(SIWX_TOKEN_KEY) ?? undefined

  const impl: Omit<SIWXConfig, 'getRequired' | 'signOutOnDisconnect'> = {
    async createMessage(input) {
      const { nonce } = await api.nonce()
      return buildMessage(input, { nonce, statement: settings.statement, expirationMinutes: settings.expirationMinutes })
    },
    async addSession(session) {
      const { token: issued } = await api.authenticate(session.message, session.signature)
      storage.setItem(SIWX_TOKEN_KEY, issued)
    },
    async getSessions(chainId, address) {
      const current = token()
      if (!current) return []
      let session: ServerSession
      try {
        session = await api.session(current)
      } catch (error) {
        // Revoked, expired or unknown: the token is worthless.
        if (error instanceof SiwxApiError && error.status === 401) {
          storage.removeItem(SIWX_TOKEN_KEY)
          return []
        }
        throw error
      }
      if (!sameAccount(session.data, chainId, address)) return []
      if (expiryMs(session.expiresAt) <= Date.now()) return []
      return [toSession(session)]
    },
    async revokeSession(_chainId, _address) {
      const current = token()
      if (!current) return
      storage.removeItem(SIWX_TOKEN_KEY)
      try {
        await api.signout(current)
      } catch (error) {
        // Already gone on the server: nothing left to revoke.
        if (!(error instanceof SiwxApiError && error.status === 401)) throw error
      }
    },
    async setSessions(sessions) {
      const [first] = sessions
      if (!first) return impl.revokeSession('' as CaipNetworkId, '')
      await impl.addSession({ ...first, data: plainData(first.data) })
    },
  }
  return impl
}
