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

/** Where the bearer token of the active session is kept (the host page sends it to its backend). */
export const SIWX_TOKEN_KEY = '@appkit/siwx-auth-token'
/** Where each chain's token is kept, by CAIP-10 account: a chain signed before is found again. */
export const SIWX_TOKENS_KEY = '@appkit/siwx-auth-tokens'

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

/** A token's key among a page's tokens: the CAIP-10 account, the address in lower case. */
const accountKey = (chainId: string, address: string) => `${chainId}:${address.toLowerCase()}`

type Impl = Omit<SIWXConfig, 'getRequired' | 'signOutOnDisconnect' | 'sessionScope'>

/**
 * The server-backed implementation of every SIWXConfig method. Each session has its own bearer
 * token, kept by account and chain, so coming back to a chain signed before finds its session;
 * the token of the session in use is also kept under SIWX_TOKEN_KEY for the host page.
 */
export function createServerSiwxImpl(settings: ServerSiwxSettings): Impl {
  const api = createAuthApi(settings)
  const { storage } = settings
  const current = () => storage.getItem(SIWX_TOKEN_KEY) ?? undefined
  const tokens = (): Record<string, string> => {
    try {
      const parsed = JSON.parse(storage.getItem(SIWX_TOKENS_KEY) ?? '{}') as unknown
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {}
    } catch {
      return {}
    }
  }
  const writeTokens = (next: Record<string, string>) => {
    if (Object.keys(next).length) storage.setItem(SIWX_TOKENS_KEY, JSON.stringify(next))
    else storage.removeItem(SIWX_TOKENS_KEY)
  }
  /** Forgets `token` wherever it is kept. */
  const forget = (token: string) => {
    writeTokens(Object.fromEntries(Object.entries(tokens()).filter(([, t]) => t !== token)))
    if (current() === token) storage.removeItem(SIWX_TOKEN_KEY)
  }
  /** The token kept for the account on the chain; a token kept before tokens were kept by chain counts too. */
  const candidates = (chainId: string, address: string): string[] => {
    const all = tokens()
    const own = all[accountKey(chainId, address)]
    const active = current()
    const unfiled = active && !Object.values(all).includes(active) ? active : undefined
    return [own, unfiled].filter((t): t is string => t !== undefined)
  }
  const signOut = async (token: string) => {
    forget(token)
    try {
      await api.signout(token)
    } catch (error) {
      // Already gone on the server: nothing left to revoke.
      if (!(error instanceof SiwxApiError && error.status === 401)) throw error
    }
  }

  const impl: Impl = {
    async createMessage(input) {
      const { nonce } = await api.nonce()
      return buildMessage(input, { nonce, statement: settings.statement, expirationMinutes: settings.expirationMinutes })
    },
    async addSession(session) {
      const { token: issued } = await api.authenticate(session.message, session.signature)
      writeTokens({ ...tokens(), [accountKey(session.data.chainId, session.data.accountAddress)]: issued })
      storage.setItem(SIWX_TOKEN_KEY, issued)
    },
    async getSessions(chainId, address) {
      for (const token of candidates(chainId, address)) {
        let session: ServerSession
        try {
          session = await api.session(token)
        } catch (error) {
          // Revoked, expired or unknown: the token is worthless.
          if (error instanceof SiwxApiError && error.status === 401) {
            forget(token)
            continue
          }
          throw error
        }
        if (!sameAccount(session.data, chainId, address) || expiryMs(session.expiresAt) <= Date.now()) continue
        // Found: it is the session in use now, and kept by its chain from here on.
        writeTokens({ ...tokens(), [accountKey(chainId, address)]: token })
        storage.setItem(SIWX_TOKEN_KEY, token)
        return [toSession(session)]
      }
      return []
    },
    async revokeSession(chainId, address) {
      for (const token of candidates(chainId, address)) await signOut(token)
    },
    async setSessions(sessions) {
      const [first] = sessions
      if (!first) {
        // None: every session this page holds ends.
        const all = new Set([...Object.values(tokens()), current()].filter((t): t is string => t !== undefined))
        for (const token of all) await signOut(token)
        return
      }
      await impl.addSession({ ...first, data: plainData(first.data) })
    },
  }
  return impl
}
