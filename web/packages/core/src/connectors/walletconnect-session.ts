/*
 * The WalletConnect session behind the connector (loaded on demand): the official SDK
 * (@walletconnect/sign-client, pinned to 2.21.8, the last Apache-2.0 release) pointed at the
 * Sigil relay with telemetry off and Verify served by the Sigil server; a pairing URI per attempt,
 * offered for 4 minutes (less a 10 s margin) and then replaced; a proposal for every family the
 * host configured an adapter with a session capability for; and the relay's trouble passed on.
 * The session is a transport and knows no family: each namespace's accounts, provider and
 * events are its family's (the adapter's `session`), loaded with this module.
 */
import { SignClient as SignClientClass } from '@walletconnect/sign-client'
import type { SessionTypes } from '@walletconnect/types'
import type { FamilySession, SessionBinding } from '../adapter.js'
import { SigilError, UserRejectedRequestError, WalletConnectError } from '../errors.js'
import { errors } from '../messages/core.js'
import type { CaipNetwork, ChainNamespace } from '../types.js'
import { orderAccounts } from '../session.js'
import { servedNamespaces, type SessionNamespace, type SessionTransport } from './transport.js'
import type { Connection, ConnectParams } from './types.js'
import type { WalletConnectSession, WalletConnectSessionHost } from './walletconnect.js'

type SignClient = InstanceType<typeof SignClientClass>

/** How long a pairing URI is offered, and the margin before its end at which it counts as expired (spec section 4). */
export const PAIRING_LIFETIME_MS = 4 * 60 * 1000
export const PAIRING_EXPIRY_MARGIN_MS = 10 * 1000

/** Where a family keeps what it learnt of a session for a reload: `sigil:wc-<name>`, per session topic. */
const KEPT_PREFIX = 'sigil:wc-'

/** Whether a relay refusal says this device's sign-in token is expired or not yet valid (its clock is off). */
export function isClockRefusal(error: unknown): boolean {
  const text = error instanceof Error ? error.message : String(error)
  return /JWT Token is expired|JWT Token is not yet valid|JWT.*(expired|not yet valid)/i.test(text)
}

/** The Sigil server's RPC proxy for a chain (CAIP-2). */
export function proxyUrl(apiUrl: string, projectId: string, chainId: string): string {
  const url = new URL('/v1', apiUrl)
  url.searchParams.set('chainId', chainId)
  url.searchParams.set('projectId', projectId)
  return url.toString()
}

interface SessionLink {
  client: { request(args: { topic: string; chainId: string; request: { method: string; params: unknown } }): Promise<unknown> }
  topic: string
  namespaces: SessionTypes.Namespaces
}

/** A request to the wallet through the session; a wallet's JSON-RPC error keeps its code. */
async function walletRequest(link: SessionLink, chainId: string, method: string, params: unknown): Promise<unknown> {
  try {
    return await link.client.request({ topic: link.topic, chainId, request: { method, params } })
  } catch (error) {
    // The SDK rejects with the wallet's JSON-RPC error ({ code, message }).
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
    if (typeof code === 'number') throw Object.assign(new Error(typeof message === 'string' ? message : 'Wallet error'), { code })
    throw error
  }
}

/** A read through the Sigil server's RPC proxy; a node's JSON-RPC error keeps its code. */
async function proxyRead(rpc: { apiUrl: string; projectId: string; fetch?: typeof fetch }, chainId: string, method: string, params: unknown) {
  const doFetch = rpc.fetch ?? fetch
  const res = await doFetch(proxyUrl(rpc.apiUrl, rpc.projectId, chainId), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params ?? [] }),
  })
  const body = (await res.json().catch(() => undefined)) as { result?: unknown; error?: { code: number; message: string } } | undefined
  if (!res.ok && !body?.error) throw new SigilError(`RPC proxy answered ${res.status}`, 503)
  if (body?.error) throw Object.assign(new Error(body.error.message), { code: body.error.code })
  return body?.result
}

/** A session's part for `namespace`: its keys may be the namespace or one of its chains (`eip155:1`). */
function namespaceOf(namespaces: SessionTypes.Namespaces, namespace: ChainNamespace): SessionNamespace | undefined {
  const parts = Object.entries(namespaces).filter(([key]) => key === namespace || key.startsWith(`${namespace}:`))
  if (!parts.length) return undefined
  const accounts = parts.flatMap(([, ns]) => ns.accounts ?? []).filter((a) => a.startsWith(`${namespace}:`))
  const fromAccounts = accounts.map((a) => a.split(':').slice(0, 2).join(':'))
  return {
    chains: [...new Set([...parts.flatMap(([, ns]) => ns.chains ?? []), ...fromAccounts])],
    accounts,
    methods: [...new Set(parts.flatMap(([, ns]) => ns.methods ?? []))],
  }
}

/**
 * The session as a transport: requests to the wallet, reads to the Sigil server's RPC proxy, and
 * what the families keep of it for a reload (in localStorage, for this session's topic only).
 */
export function sessionTransport(
  link: SessionLink,
  rpc: { apiUrl: string; projectId: string; fetch?: typeof fetch },
  peer: SessionTransport['peer'],
): SessionTransport {
  return {
    peer,
    namespace: (namespace) => namespaceOf(link.namespaces, namespace),
    request: (chainId, method, params) => walletRequest(link, chainId, method, params ?? []),
    read: (chainId, method, params) => proxyRead(rpc, chainId, method, params),
    recall(name) {
      try {
        const kept = JSON.parse(globalThis.localStorage?.getItem(KEPT_PREFIX + name) ?? 'null') as { topic?: string; value?: unknown } | null
        return kept?.topic === link.topic ? kept.value : undefined
      } catch {
        return undefined
      }
    },
    remember(name, value) {
      try {
        globalThis.localStorage?.setItem(KEPT_PREFIX + name, JSON.stringify({ topic: link.topic, value }))
      } catch {
        // Private mode or no storage: a reload starts without it.
      }
    },
  }
}

/**
 * The proposal's optional namespaces: one per namespace asked for that a family serves and the
 * host has networks in, with the CAIP-2 chains of those networks (`solana:<genesis-hash prefix>`,
 * `bip122:<genesis prefix>`) and the family's methods and events.
 */
export function proposalNamespaces(
  families: Partial<Record<ChainNamespace, Pick<FamilySession, 'methods' | 'events'>>>,
  namespaces: readonly ChainNamespace[],
  networks: readonly CaipNetwork[],
): Record<string, { chains: string[]; methods: string[]; events: string[] }> {
  const out: Record<string, { chains: string[]; methods: string[]; events: string[] }> = {}
  for (const namespace of namespaces) {
    const family = families[namespace]
    const chains = networks.filter((n) => n.chainNamespace === namespace).map((n) => n.caipNetworkId)
    if (!family || !chains.length) continue
    out[namespace] = { chains, methods: [...family.methods], events: [...family.events] }
  }
  return out
}

/** The settled session: its link (namespaces change with session_update), transport and each namespace's binding. */
interface CurrentSession {
  topic: string
  link: SessionLink
  transport: SessionTransport
  bindings: Map<ChainNamespace, { family: FamilySession; binding: SessionBinding }>
}

/** The session module: one SDK client per connector, made on first use. */
export function createWalletConnectSession(host: WalletConnectSessionHost): WalletConnectSession {
  const { options } = host
  let clientPromise: Promise<SignClient> | undefined
  let current: CurrentSession | undefined
  let cancelPending: ((error: Error) => void) | undefined
  let attempt = 0

  const onRelayError = (error: unknown) => {
    host.setState({ relay: 'disconnected', error: isClockRefusal(error) ? WalletConnectError.sessionExpired(error) : WalletConnectError.relayLost(error) })
  }

  /** A wallet event goes to the first bound family that knows it; the modal hears what it moved. */
  const onSessionEvent = (session: CurrentSession, name: string, data: unknown, chainId: string | undefined) => {
    for (const [namespace, { binding }] of session.bindings) {
      const moved = binding.event?.(name, data, chainId)
      if (!moved) continue
      host.emit(
        'accounts' in moved ? { type: 'accountsChanged', namespace, accounts: moved.accounts } : { type: 'chainChanged', namespace, chainId: moved.chainId },
      )
      return
    }
  }

  /** The session's namespaces changed: each bound namespace hears its accounts now (none: the modal disconnects it). */
  const onSessionUpdate = (session: CurrentSession, namespaces: SessionTypes.Namespaces) => {
    session.link.namespaces = namespaces
    for (const [namespace, { family, binding }] of session.bindings) {
      const accounts = binding.update?.() ?? [...new Set(family.accounts(session.transport).map((a) => a.address))]
      host.emit({ type: 'accountsChanged', namespace, accounts })
    }
  }

  const getClient = () => {
    clientPromise ??= (async () => {
      const client = await SignClientClass.init({
        projectId: options.projectId,
        relayUrl: options.relayUrl,
        ...(options.metadata ? { metadata: options.metadata } : {}),
        telemetryEnabled: false,
        customStoragePrefix: 'sigil',
        logger: 'silent',
      })
      // Verify: the attestation frame comes from the Sigil server, never the vendor's host.
      ;(client.core.verify as unknown as { verifyUrlV3: string }).verifyUrlV3 = `${options.verifyUrl}/v3`
      const relayer = client.core.relayer
      // A socket that opens is not yet admitted: a refused token ('Session Expired') stays shown until a new attempt.
      relayer.on('relayer_connect', () =>
        host.setState({ relay: 'connected', ...(host.getState().error?.code === 'SESSION_EXPIRED' ? {} : { error: undefined }) }),
      )
      relayer.on('relayer_disconnect', () => {
        if (current || host.getState().pairing === 'ready') host.setState({ relay: 'reconnecting' })
      })
      relayer.on('relayer_error', onRelayError)
      client.on('session_event', ({ topic, params }) => {
        if (current && topic === current.topic) onSessionEvent(current, params.event.name, params.event.data, params.chainId)
      })
      client.on('session_update', ({ topic, params }) => {
        if (current && topic === current.topic) onSessionUpdate(current, params.namespaces)
      })
      const ended = ({ topic }: { topic: string }) => {
        if (!current || topic !== current.topic) return
        const { bindings } = current
        current = undefined
        host.setState({ relay: 'idle' })
        for (const { binding } of bindings.values()) binding.end?.({ code: 4900, message: errors.walletSessionEnded })
        host.emit({ type: 'disconnect' })
      }
      client.on('session_delete', ended)
      client.on('session_expire', ended)
      return client
    })()
    clientPromise.catch(() => (clientPromise = undefined))
    return clientPromise
  }

  /** The families the session can serve among those asked for, their code loaded. */
  const familiesFor = async (params: ConnectParams) =>
    Promise.all(
      servedNamespaces(host.families, params.networks)
        .filter((ns) => params.namespaces.includes(ns))
        .map(async (namespace) => [namespace, await (host.families[namespace]?.load() as Promise<FamilySession>)] as const),
    )

  /**
   * The connection a session gives: its accounts in the namespaces asked for, and each
   * namespace's family bound to it (its provider and events). A new session's families first
   * ask the wallet what they need to know once (`fresh`).
   */
  const connectionOf = async (client: SignClient, session: SessionTypes.Struct, params: ConnectParams, fresh: boolean): Promise<Connection | undefined> => {
    const link: SessionLink = { client, topic: session.topic, namespaces: session.namespaces }
    const peer = session.peer.metadata
    const icon = peer.icons?.[0]
    const transport = sessionTransport(link, options, { connectorId: host.connectorId, type: 'WALLET_CONNECT', name: peer.name, ...(icon ? { icon } : {}) })
    const families = (await familiesFor(params)).filter(([namespace]) => transport.namespace(namespace))
    if (fresh) await Promise.all(families.map(([, family]) => family.prepare?.(transport)))
    const accounts = orderAccounts(
      families.flatMap(([, family]) => family.accounts(transport)),
      params.networks,
    )
    if (!accounts.length) return undefined
    const bindings: CurrentSession['bindings'] = new Map()
    for (const [namespace, family] of families) {
      const own = accounts.filter((a) => a.namespace === namespace)
      const first = own[0]
      if (!first) continue
      const network = params.networks.find((n) => n.chainNamespace === namespace && String(n.id) === String(first.chainId))
      bindings.set(namespace, { family, binding: family.open(transport, { network, accounts: own }) })
    }
    current = { topic: session.topic, link, transport, bindings }
    return {
      connectorId: host.connectorId,
      accounts,
      walletInfo: { name: peer.name, ...(icon ? { icon } : {}) },
    }
  }

  const proposal = async (params: ConnectParams) => proposalNamespaces(Object.fromEntries(await familiesFor(params)), params.namespaces, params.networks)

  /** One pairing: resolves with the session, or rejects on expiry ('expired'), cancel or refusal. */
  const pair = async (client: SignClient, params: ConnectParams): Promise<SessionTypes.Struct | 'expired'> => {
    const { uri, approval } = await client.connect({ optionalNamespaces: await proposal(params) })
    if (!uri) throw WalletConnectError.relayUnreachable()
    const expiresAt = Date.now() + PAIRING_LIFETIME_MS - PAIRING_EXPIRY_MARGIN_MS
    host.setState({ pairing: 'ready', uri, expiresAt, relay: client.core.relayer.connected ? 'connected' : 'reconnecting', error: undefined })
    let timer: ReturnType<typeof setTimeout> | undefined
    // A proposal given up on (expired URI, view left) still settles later: nobody waits for it then.
    const approved = approval()
    approved.catch(() => undefined)
    try {
      return await Promise.race([
        approved,
        new Promise<'expired'>((resolve) => {
          timer = setTimeout(() => resolve('expired'), Math.max(0, expiresAt - Date.now()))
        }),
        new Promise<never>((_, reject) => {
          cancelPending = reject
        }),
      ])
    } finally {
      clearTimeout(timer)
      cancelPending = undefined
    }
  }

  return {
    async connect(params) {
      const id = ++attempt
      let client: SignClient
      try {
        client = await getClient()
      } catch (error) {
        const failed = error instanceof WalletConnectError ? error : WalletConnectError.relayUnreachable(error)
        host.setState({ pairing: 'error', error: failed })
        throw failed
      }
      for (;;) {
        if (id !== attempt) throw WalletConnectError.cancelled()
        let result: SessionTypes.Struct | 'expired'
        try {
          result = await pair(client, params)
        } catch (error) {
          if (id !== attempt) throw WalletConnectError.cancelled()
          const state = host.getState()
          const failed =
            error instanceof SigilError
              ? error
              : state?.error?.code === 'SESSION_EXPIRED' || isClockRefusal(error)
                ? WalletConnectError.sessionExpired(error)
                : (error as { code?: unknown })?.code === 5000 || /reject/i.test(String((error as Error)?.message))
                  ? new UserRejectedRequestError(error)
                  : WalletConnectError.relayUnreachable(error)
          host.setState({ pairing: 'error', uri: undefined, expiresAt: undefined, error: failed instanceof WalletConnectError ? failed : undefined })
          throw failed
        }
        if (result === 'expired') {
          // Spec: the URI is treated as expired within 10 s of its end, and a new one is made.
          host.setState({ pairing: 'expired' })
          continue
        }
        const connection = await connectionOf(client, result, params, true)
        host.setState({ pairing: 'idle', uri: undefined, expiresAt: undefined, relay: 'connected' })
        if (!connection) throw new SigilError(`The wallet approved no account in ${params.namespaces.join(', ')}.`, 'NO_ACCOUNTS')
        return connection
      }
    },
    async reconnect(params) {
      const client = await getClient()
      const now = Date.now() / 1000
      const sessions = client.session.getAll().filter((s) => s.acknowledged && s.expiry > now && params.namespaces.some((ns) => s.namespaces[ns]))
      const session = sessions.at(-1)
      if (!session) return undefined
      return connectionOf(client, session, params, false)
    },
    async disconnect() {
      const ending = current
      current = undefined
      host.setState({ relay: 'idle' })
      if (!ending || !clientPromise) return
      const client = await clientPromise
      await client.disconnect({ topic: ending.topic, reason: { code: 6000, message: 'User disconnected.' } })
    },
    provider: (namespace) => current?.bindings.get(namespace)?.binding.provider,
    cancel() {
      attempt++
      cancelPending?.(WalletConnectError.cancelled())
      host.setState({ pairing: 'idle', uri: undefined, expiresAt: undefined })
    },
    async warmUp() {
      await getClient()
    },
    async retryRelay() {
      const client = await getClient()
      host.setState({ relay: 'reconnecting', error: undefined })
      try {
        await client.core.relayer.restartTransport()
      } catch (error) {
        onRelayError(error)
        throw host.getState().error ?? WalletConnectError.relayUnreachable(error)
      }
    },
  }
}
