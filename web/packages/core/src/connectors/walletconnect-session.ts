/*
 * The WalletConnect session behind the connector (loaded on demand): the official SDK
 * (@walletconnect/sign-client, pinned to 2.21.8, the last Apache-2.0 release) pointed at the
 * Sigil relay with telemetry off and Verify served by the Sigil server; a pairing URI per attempt,
 * offered for 4 minutes (less a 10 s margin) and then replaced; the approved session mapped to
 * accounts per namespace; an EIP-1193 provider over it (wallet methods go through the session,
 * reads to the Sigil server's RPC proxy); and the wallet's events and the relay's trouble passed
 * on.
 */
import { SignClient as SignClientClass } from '@walletconnect/sign-client'
import type { SessionTypes } from '@walletconnect/types'
import { SigilError, UserRejectedRequestError, WalletConnectError } from '../errors.js'
import { errors } from '../messages/core.js'
import { parseChainId, type Eip1193Listener, type Eip1193Provider } from './eip1193.js'
import type { Connection, ConnectionAccount, ConnectParams } from './types.js'
import type { WalletConnectSession, WalletConnectSessionHost } from './walletconnect.js'

type SignClient = InstanceType<typeof SignClientClass>

/** How long a pairing URI is offered, and the margin before its end at which it counts as expired (spec section 4). */
export const PAIRING_LIFETIME_MS = 4 * 60 * 1000
export const PAIRING_EXPIRY_MARGIN_MS = 10 * 1000

/** Methods the dapp asks the wallet to allow; everything else a provider is asked goes to the RPC proxy. */
export const EIP155_METHODS = [
  'eth_sendTransaction',
  'personal_sign',
  'eth_sign',
  'eth_signTypedData',
  'eth_signTypedData_v4',
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
  'wallet_getCapabilities',
  'wallet_sendCalls',
  'wallet_getCallsStatus',
] as const
const EIP155_EVENTS = ['accountsChanged', 'chainChanged']
/** Methods only the wallet can answer, whatever the session lists. */
const WALLET_ONLY = new Set<string>(EIP155_METHODS)

/** The eip155 accounts a session holds: CAIP-10 `eip155:<chain>:<address>`, in the wallet's order. */
export function sessionAccounts(namespaces: SessionTypes.Namespaces): ConnectionAccount[] {
  const out: ConnectionAccount[] = []
  for (const [key, ns] of Object.entries(namespaces)) {
    for (const caip of ns.accounts ?? []) {
      const [namespace, reference, address] = caip.split(':')
      if (namespace !== 'eip155' || key !== 'eip155' || !reference || !address) continue
      out.push({ namespace: 'eip155', address, type: 'eoa', chainId: Number(reference) })
    }
  }
  return out
}

/** The accounts to connect with: those on the first of the host's networks the session has, first. */
export function orderAccounts(accounts: readonly ConnectionAccount[], networks: ConnectParams['networks']): ConnectionAccount[] {
  const preferred = networks.map((n) => n.id).find((id) => accounts.some((a) => String(a.chainId) === String(id)))
  if (preferred === undefined) return [...accounts]
  const onPreferred = accounts.filter((a) => String(a.chainId) === String(preferred))
  return onPreferred
}

/** Addresses from an accountsChanged event: plain addresses or CAIP-10 ones. */
export function eventAddresses(data: unknown): string[] {
  if (!Array.isArray(data)) return []
  return data.filter((a): a is string => typeof a === 'string').map((a) => (a.includes(':') ? (a.split(':')[2] ?? '') : a))
}

/** Whether a relay refusal says this device's sign-in token is expired or not yet valid (its clock is off). */
export function isClockRefusal(error: unknown): boolean {
  const text = error instanceof Error ? error.message : String(error)
  return /JWT Token is expired|JWT Token is not yet valid|JWT.*(expired|not yet valid)/i.test(text)
}

/** The Sigil server's RPC proxy for a chain. */
export function proxyUrl(apiUrl: string, projectId: string, chainId: number): string {
  const url = new URL('/v1', apiUrl)
  url.searchParams.set('chainId', `eip155:${chainId}`)
  url.searchParams.set('projectId', projectId)
  return url.toString()
}

interface SessionLink {
  client: SignClient
  topic: string
  namespaces: SessionTypes.Namespaces
}

/** An EIP-1193 provider over a WalletConnect session. */
export class SessionProvider implements Eip1193Provider {
  private listeners = new Map<string, Set<Eip1193Listener>>()
  constructor(
    private link: SessionLink,
    public chainId: number,
    private rpc: { apiUrl: string; projectId: string; fetch?: typeof fetch },
  ) {}

  setLink(link: SessionLink) {
    this.link = link
  }

  accounts(chainId = this.chainId): string[] {
    return sessionAccounts(this.link.namespaces)
      .filter((a) => a.chainId === chainId)
      .map((a) => a.address)
  }

  chains(): number[] {
    const ns = this.link.namespaces.eip155
    const fromAccounts = sessionAccounts(this.link.namespaces).map((a) => Number(a.chainId))
    const fromChains = (ns?.chains ?? []).map((c) => Number(c.split(':')[1]))
    return [...new Set([...fromAccounts, ...fromChains])].filter((c) => Number.isSafeInteger(c))
  }

  emit(event: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args)
  }

  on(event: string, listener: Eip1193Listener) {
    const set = this.listeners.get(event) ?? new Set()
    set.add(listener)
    this.listeners.set(event, set)
    return this
  }

  removeListener(event: string, listener: Eip1193Listener) {
    this.listeners.get(event)?.delete(listener)
    return this
  }

  /** Moves to another chain the session has accounts on; false when it has none there. */
  useChain(chainId: number): boolean {
    if (!this.chains().includes(chainId)) return false
    if (chainId !== this.chainId) {
      this.chainId = chainId
      this.emit('chainChanged', `0x${chainId.toString(16)}`)
    }
    return true
  }

  async request({ method, params }: { method: string; params?: readonly unknown[] | Record<string, unknown> }): Promise<unknown> {
    switch (method) {
      case 'eth_accounts':
      case 'eth_requestAccounts':
        return this.accounts()
      case 'eth_chainId':
        return `0x${this.chainId.toString(16)}`
      case 'net_version':
        return String(this.chainId)
      case 'wallet_switchEthereumChain': {
        const wanted = parseChainId((Array.isArray(params) ? (params[0] as { chainId?: unknown }) : undefined)?.chainId)
        if (this.useChain(wanted)) return null
        await this.toWallet(method, params)
        this.chainId = wanted
        this.emit('chainChanged', `0x${wanted.toString(16)}`)
        return null
      }
    }
    const allowed = this.link.namespaces.eip155?.methods ?? []
    if (WALLET_ONLY.has(method) || allowed.includes(method)) return this.toWallet(method, params)
    return this.toProxy(method, params)
  }

  private async toWallet(method: string, params: unknown) {
    try {
      return await this.link.client.request({ topic: this.link.topic, chainId: `eip155:${this.chainId}`, request: { method, params: params ?? [] } })
    } catch (error) {
      // The SDK rejects with the wallet's JSON-RPC error ({ code, message }).
      const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
      if (typeof code === 'number') throw Object.assign(new Error(typeof message === 'string' ? message : 'Wallet error'), { code })
      throw error
    }
  }

  private async toProxy(method: string, params: unknown) {
    const doFetch = this.rpc.fetch ?? fetch
    const res = await doFetch(proxyUrl(this.rpc.apiUrl, this.rpc.projectId, this.chainId), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params ?? [] }),
    })
    const body = (await res.json().catch(() => undefined)) as { result?: unknown; error?: { code: number; message: string } } | undefined
    if (!res.ok && !body?.error) throw new SigilError(`RPC proxy answered ${res.status}`, 503)
    if (body?.error) throw Object.assign(new Error(body.error.message), { code: body.error.code })
    return body?.result
  }
}

/** The session module: one SDK client per connector, made on first use. */
export function createWalletConnectSession(host: WalletConnectSessionHost): WalletConnectSession {
  const { options } = host
  let clientPromise: Promise<SignClient> | undefined
  let current: { topic: string; provider: SessionProvider } | undefined
  let cancelPending: ((error: Error) => void) | undefined
  let attempt = 0

  const onRelayError = (error: unknown) => {
    host.setState({ relay: 'disconnected', error: isClockRefusal(error) ? WalletConnectError.sessionExpired(error) : WalletConnectError.relayLost(error) })
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
        if (!current || topic !== current.topic) return
        const { name, data } = params.event
        if (name === 'accountsChanged') {
          const accounts = eventAddresses(data)
          host.emit({ type: 'accountsChanged', namespace: 'eip155', accounts })
          current.provider.emit('accountsChanged', accounts)
        } else if (name === 'chainChanged') {
          try {
            const chainId = parseChainId(data)
            current.provider.chainId = chainId
            current.provider.emit('chainChanged', `0x${chainId.toString(16)}`)
            host.emit({ type: 'chainChanged', namespace: 'eip155', chainId })
          } catch {
            // A malformed chain id from the wallet is ignored.
          }
        }
      })
      client.on('session_update', ({ topic, params }) => {
        if (!current || topic !== current.topic) return
        current.provider.setLink({ client, topic, namespaces: params.namespaces })
        const accounts = current.provider.accounts()
        host.emit({ type: 'accountsChanged', namespace: 'eip155', accounts })
        current.provider.emit('accountsChanged', accounts)
      })
      const ended = ({ topic }: { topic: string }) => {
        if (!current || topic !== current.topic) return
        const provider = current.provider
        current = undefined
        host.setState({ relay: 'idle' })
        provider.emit('disconnect', { code: 4900, message: errors.walletSessionEnded })
        host.emit({ type: 'disconnect' })
      }
      client.on('session_delete', ended)
      client.on('session_expire', ended)
      return client
    })()
    clientPromise.catch(() => (clientPromise = undefined))
    return clientPromise
  }

  const connectionOf = (client: SignClient, session: SessionTypes.Struct, params: ConnectParams): Connection | undefined => {
    const accounts = orderAccounts(sessionAccounts(session.namespaces), params.networks)
    const [first] = accounts
    if (!first) return undefined
    const provider = new SessionProvider({ client, topic: session.topic, namespaces: session.namespaces }, Number(first.chainId), options)
    current = { topic: session.topic, provider }
    const peer = session.peer.metadata
    return {
      connectorId: host.connectorId,
      accounts,
      walletInfo: { name: peer.name, ...(peer.icons?.[0] ? { icon: peer.icons[0] } : {}) },
    }
  }

  /** One pairing: resolves with the session, or rejects on expiry ('expired'), cancel or refusal. */
  const pair = async (client: SignClient, params: ConnectParams): Promise<SessionTypes.Struct | 'expired'> => {
    const chains = params.networks.filter((n) => n.chainNamespace === 'eip155').map((n) => n.caipNetworkId)
    const { uri, approval } = await client.connect({
      optionalNamespaces: { eip155: { chains, methods: [...EIP155_METHODS], events: EIP155_EVENTS } },
    })
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
        const connection = connectionOf(client, result, params)
        host.setState({ pairing: 'idle', uri: undefined, expiresAt: undefined, relay: 'connected' })
        if (!connection) throw new SigilError('The wallet approved no eip155 account.', 'NO_ACCOUNTS')
        return connection
      }
    },
    async reconnect(params) {
      const client = await getClient()
      const now = Date.now() / 1000
      const sessions = client.session.getAll().filter((s) => s.acknowledged && s.expiry > now && s.namespaces.eip155)
      const session = sessions.at(-1)
      if (!session) return undefined
      return connectionOf(client, session, params)
    },
    async disconnect() {
      const ending = current
      current = undefined
      host.setState({ relay: 'idle' })
      if (!ending || !clientPromise) return
      const client = await clientPromise
      await client.disconnect({ topic: ending.topic, reason: { code: 6000, message: 'User disconnected.' } })
    },
    provider: (namespace) => (namespace === 'eip155' ? current?.provider : undefined),
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
