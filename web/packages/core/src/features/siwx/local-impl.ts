/* Sessions kept in the browser (no signature verification). Loaded on demand by `localSiwx`. */
import { buildMessage, plainData, randomNonce } from './message.js'
import type { SIWXConfig, SIWXSession } from './types.js'
import type { KeyValueStorage } from '../../storage.js'

export const SIWX_LOCAL_KEY = '@appkit/siwx'

export function createLocalSiwxImpl(settings: {
  storage: KeyValueStorage
  statement?: string | undefined
  expirationMinutes?: number | undefined
}): Omit<SIWXConfig, 'getRequired' | 'signOutOnDisconnect'> {
  const { storage } = settings
  const read = (): SIWXSession[] => {
    try {
      const parsed = JSON.parse(storage.getItem(SIWX_LOCAL_KEY) ?? '[]') as unknown
      return Array.isArray(parsed) ? (parsed as SIWXSession[]) : []
    } catch {
      return []
    }
  }
  const write = (sessions: SIWXSession[]) => {
    if (sessions.length) storage.setItem(SIWX_LOCAL_KEY, JSON.stringify(sessions))
    else storage.removeItem(SIWX_LOCAL_KEY)
  }
  const matches = (s: SIWXSession, chainId: string, address: string) =>
    s.data.chainId === chainId && s.data.accountAddress.toLowerCase() === address.toLowerCase()
  const live = (s: SIWXSession) => !s.data.expirationTime || Date.parse(s.data.expirationTime) > Date.now()

  return {
    async createMessage(input) {
      return buildMessage(input, { nonce: randomNonce(), statement: settings.statement, expirationMinutes: settings.expirationMinutes })
    },
    async addSession(session) {
      const stored: SIWXSession = { ...session, data: plainData(session.data) }
      if (stored.data.expirationTime) stored.expiresAt = stored.data.expirationTime
      write([...read().filter((s) => !matches(s, session.data.chainId, session.data.accountAddress)), stored])
    },
    async getSessions(chainId, address) {
      return read().filter((s) => matches(s, chainId, address) && live(s))
    },
    async revokeSession(chainId, address) {
      write(read().filter((s) => !matches(s, chainId, address)))
    },
    async setSessions(sessions) {
      write(sessions.map((s) => ({ ...s, data: plainData(s.data) })))
    },
  }
}
