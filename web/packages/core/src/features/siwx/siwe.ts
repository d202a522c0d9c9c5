/*
 * An older AppKit `siweConfig` (getNonce, createMessage, verifyMessage, getSession, signOut) as
 * the `siwx` machinery's implementation: the controller, its views and the host's hooks then
 * treat it as any other sign-in. Loaded on demand by `siweSiwx`.
 */
import { localized } from '../../messages/active.js'
import { featureErrors as englishFeatureErrors } from '../../messages/features.js'
import { rfc3339, toSiwxMessage } from './message.js'
import type { SIWEConfig, SIWESession, SIWXConfig, SIWXMessageData, SIWXSession } from './types.js'

/** Its words in the visitor's locale (English until the modal loads one). */
const featureErrors = localized('featureErrors', englishFeatureErrors)

type Impl = Omit<SIWXConfig, 'getRequired' | 'signOutOnDisconnect' | 'sessionScope' | 'view'>

const isEvm = (chainId: string) => chainId.startsWith('eip155:')

/** The config's session, when it has one (`{ authenticated: false }` and the like count as none). */
async function sessionOf(siwe: SIWEConfig): Promise<SIWESession | undefined> {
  const session = await siwe.getSession()
  return session && typeof session.address === 'string' && session.address ? session : undefined
}

/** A stored session as the `siwx` machinery keeps it; the config keeps no message or signature to give back. */
function asSession(data: Pick<SIWXMessageData, 'accountAddress' | 'chainId'>): SIWXSession {
  return { data: { ...data, domain: '', uri: '', version: '1', nonce: '' }, message: '', signature: '' }
}

export function createSiweImpl(siwe: SIWEConfig): Impl {
  const location = (globalThis as { location?: { host?: string; origin?: string } }).location
  return {
    async createMessage(input) {
      const params = (await siwe.getMessageParams?.()) ?? {}
      const nonce = await siwe.getNonce(input.accountAddress)
      const data: SIWXMessageData = {
        accountAddress: input.accountAddress,
        chainId: input.chainId,
        domain: params.domain ?? location?.host ?? '',
        uri: params.uri ?? location?.origin ?? '',
        version: '1',
        nonce,
        issuedAt: params.iat ?? rfc3339(new Date()),
      }
      if (params.statement) data.statement = params.statement
      if (params.exp) data.expirationTime = params.exp
      if (params.nbf) data.notBefore = params.nbf
      if (params.requestId) data.requestId = params.requestId
      if (params.resources?.length) data.resources = params.resources
      const text = siwe.createMessage({
        address: `did:pkh:${input.chainId}:${input.accountAddress}`,
        chainId: Number(input.chainId.split(':')[1]),
        domain: data.domain,
        uri: data.uri,
        nonce,
        version: '1',
        iat: data.issuedAt as string,
        ...(data.statement ? { statement: data.statement } : {}),
        ...(data.expirationTime ? { exp: data.expirationTime } : {}),
        ...(data.notBefore ? { nbf: data.notBefore } : {}),
        ...(data.requestId ? { requestId: data.requestId } : {}),
        ...(data.resources ? { resources: data.resources } : {}),
      })
      return { ...toSiwxMessage(data, input.accountLabel), toString: () => text }
    },

    async addSession(session) {
      const verified = await siwe.verifyMessage({
        message: session.message,
        signature: session.signature,
        ...(session.cacao ? { cacao: session.cacao } : {}),
      })
      if (!verified) throw new Error(featureErrors.siweNotVerified)
      siwe.onSignIn?.(await sessionOf(siwe).catch(() => undefined))
    },

    async getSessions(chainId, address) {
      // Sign-in with Ethereum: accounts of other families are not asked to sign in.
      if (!isEvm(chainId)) return [asSession({ accountAddress: address, chainId })]
      const session = await sessionOf(siwe)
      if (!session || session.address.toLowerCase() !== address.toLowerCase() || `eip155:${session.chainId}` !== chainId) return []
      return [asSession({ accountAddress: session.address, chainId })]
    },

    async revokeSession(chainId, address) {
      if (!isEvm(chainId)) return
      const session = await sessionOf(siwe)
      if (session?.address.toLowerCase() !== address.toLowerCase()) return
      await siwe.signOut()
      siwe.onSignOut?.()
    },

    async setSessions(sessions) {
      const [first] = sessions.filter((s) => isEvm(s.data.chainId))
      if (!first) {
        if (await sessionOf(siwe)) {
          await siwe.signOut()
          siwe.onSignOut?.()
        }
        return
      }
      if (!(await siwe.verifyMessage({ message: first.message, signature: first.signature }))) throw new Error(featureErrors.siweNotVerified)
    },
  }
}
