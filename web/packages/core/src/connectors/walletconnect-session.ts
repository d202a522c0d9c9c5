/*
 * The WalletConnect session behind the connector (loaded on demand): the official SDK
 * (@walletconnect/sign-client, pinned to 2.21.8, the last Apache-2.0 release) pointed at the
 * Sigil relay with telemetry off and Verify served by the Sigil server; a pairing URI per attempt,
 * offered for 4 minutes (less a 10 s margin) and then replaced; a proposal for every family the
 * host configured; the approved session mapped to accounts in each namespace (eip155, solana,
 * bip122); an EIP-1193 provider over it (wallet methods go through the session, reads to the
 * Sigil server's RPC proxy), a Wallet Standard wallet for solana and a Bitcoin backend for bip122
 * (./walletconnect-families.ts); and the wallet's events, per namespace, and the relay's trouble
 * passed on.
 */
import { SignClient as SignClientClass } from '@walletconnect/sign-client'
import type { SessionTypes } from '@walletconnect/types'
import { SigilError, UserRejectedRequestError, WalletConnectError } from '../errors.js'
import { errors } from '../messages/core.js'
import { parseChainId, type Eip1193Listener, type Eip1193Provider } from './eip1193.js'
import type { ChainNamespace } from '../types.js'
import type { Connection, ConnectParams } from './types.js'
import type { WalletConnectSession, WalletConnectSessionHost } from './walletconnect.js'
import {
  askAddressIntentions,
  BIP122_ADDRESSES_CHANGED,
  bitcoinEventAddresses,
  bitcoinSessionBackend,
  EIP155_METHODS,
  eventAddresses,
  orderAccounts,
  proposalNamespaces,
  sessionAccounts,
  solanaSessionWallet,
  type AddressIntention,
  type BitcoinSessionBackend,
  type SessionAccess,
  type SolanaSessionWallet,
} from './walletconnect-families.js'

export { eventAddresses, orderAccounts, proposalNamespaces, sessionAccounts } from './walletconnect-families.js'

type SignClient = InstanceType<typeof SignClientClass>

/** How long a pairing URI is offered, and the margin before its end at which it counts as expired (spec section 4). */
export const PAIRING_LIFETIME_MS = 4 * 60 * 1000
export const PAIRING_EXPIRY_MARGIN_MS = 10 * 1000

/** Methods only the wallet can answer, whatever the session lists. */
const WALLET_ONLY = new Set<string>(EIP155_METHODS)
/** How long connecting waits for the wallet to say what its Bitcoin addresses are for. */
const INTENTIONS_WAIT_MS = 3000
/** Where what a Bitcoin wallet said of its addresses is kept for a reload (the session does not hold it). */
const INTENTIONS_KEY = 'sigil:wc-bip122-intentions'

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

/** What a Bitcoin wallet said of its addresses, kept for a reload: per session topic. */
function storedIntentions(topic: string): Map<string, AddressIntention> {
  try {
    const stored = JSON.parse(globalThis.localStorage?.getItem(INTENTIONS_KEY) ?? 'null') as {
      topic?: string
      intentions?: Record<string, AddressIntention>
    } | null
    return new Map(stored?.topic === topic ? Object.entries(stored.intentions ?? {}) : [])
  } catch {
    return new Map()
  }
}
function storeIntentions(topic: string, intentions: ReadonlyMap<string, AddressIntention>) {
  try {
    globalThis.localStorage?.setItem(INTENTIONS_KEY, JSON.stringify({ topic, intentions: Object.fromEntries(intentions) }))
  } catch {
    // Private mode or no storage: a reload shows payment addresses only.
  }
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
      .filter((a) => a.namespace === 'eip155' && a.chainId === chainId)
      .map((a) => a.address)
  }

  chains(): number[] {
    const ns = this.link.namespaces.eip155
    const fromAccounts = sessionAccounts(this.link.namespaces)
      .filter((a) => a.namespace === 'eip155')
      .map((a) => Number(a.chainId))
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

  private toWallet(method: string, params: unknown) {
    return walletRequest(this.link, `eip155:${this.chainId}`, method, params ?? [])
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

/** The settled session: its link (namespaces change with session_update) and what each namespace gets. */
interface CurrentSession {
  topic: string
  link: SessionLink
  /** eip155: an EIP-1193 provider, when the session has EVM accounts. */
  provider?: SessionProvider
  /** solana: a Wallet Standard wallet over the session. */
  solana?: SolanaSessionWallet
  /** bip122: a Bitcoin backend over the session. */
  bitcoin?: BitcoinSessionBackend
  intentions: Map<string, AddressIntention>
}

/** The namespace a session event is for (its CAIP-2 chain id); eip155 for an event without one. */
const eventNamespace = (chainId: string | undefined): string => chainId?.split(':')[0] || 'eip155'

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

  /** The wallet's accounts in `namespace` changed: the modal and that namespace's provider hear it. */
  const accountsChanged = (session: CurrentSession, namespace: ChainNamespace, accounts: string[]) => {
    if (namespace === 'eip155') session.provider?.emit('accountsChanged', accounts)
    host.emit({ type: 'accountsChanged', namespace, accounts })
  }

  const onSessionEvent = (session: CurrentSession, name: string, data: unknown, chainId: string | undefined) => {
    const namespace = eventNamespace(chainId)
    if (name === BIP122_ADDRESSES_CHANGED) {
      const entries = bitcoinEventAddresses(data)
      session.bitcoin?.setAddresses(entries)
      storeIntentions(session.topic, session.intentions)
      const ordered = [...entries.filter((e) => e.intention !== 'ordinal'), ...entries.filter((e) => e.intention === 'ordinal')]
      accountsChanged(
        session,
        'bip122',
        ordered.map((e) => e.address),
      )
    } else if (name === 'accountsChanged' && namespace === 'solana') {
      const accounts = eventAddresses(data)
      session.solana?.setAddresses(accounts)
      accountsChanged(session, 'solana', accounts)
    } else if (name === 'accountsChanged' && namespace === 'eip155') {
      accountsChanged(session, 'eip155', eventAddresses(data))
    } else if (name === 'chainChanged' && namespace === 'solana') {
      // The wallet's cluster: its CAIP-2 id or the reference alone.
      const reference = typeof data === 'string' ? (data.startsWith('solana:') ? data.slice(7) : data) : undefined
      if (reference) host.emit({ type: 'chainChanged', namespace: 'solana', chainId: reference })
    } else if (name === 'chainChanged' && namespace === 'eip155' && session.provider) {
      try {
        const evmChain = parseChainId(data)
        session.provider.chainId = evmChain
        session.provider.emit('chainChanged', `0x${evmChain.toString(16)}`)
        host.emit({ type: 'chainChanged', namespace: 'eip155', chainId: evmChain })
      } catch {
        // A malformed chain id from the wallet is ignored.
      }
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
        if (!current || topic !== current.topic) return
        const session = current
        const before = sessionAccounts(session.link.namespaces).map((a) => a.namespace)
        session.link.namespaces = params.namespaces
        session.provider?.setLink(session.link)
        const accounts = sessionAccounts(params.namespaces, session.intentions)
        // A namespace left without accounts hears an empty list (the modal disconnects it).
        for (const namespace of new Set([...before, ...accounts.map((a) => a.namespace)])) {
          const own = accounts.filter((a) => a.namespace === namespace)
          const addresses = namespace === 'eip155' && session.provider ? session.provider.accounts() : [...new Set(own.map((a) => a.address))]
          if (namespace === 'solana') session.solana?.setAddresses(addresses)
          if (namespace === 'bip122') session.bitcoin?.setAddresses(addresses.map((address) => ({ address })))
          accountsChanged(session, namespace, addresses)
        }
      })
      const ended = ({ topic }: { topic: string }) => {
        if (!current || topic !== current.topic) return
        const provider = current.provider
        current = undefined
        host.setState({ relay: 'idle' })
        provider?.emit('disconnect', { code: 4900, message: errors.walletSessionEnded })
        host.emit({ type: 'disconnect' })
      }
      client.on('session_delete', ended)
      client.on('session_expire', ended)
      return client
    })()
    clientPromise.catch(() => (clientPromise = undefined))
    return clientPromise
  }

  /**
   * The connection a session gives: its accounts in the namespaces asked for, and what each
   * namespace's adapter gets (an EIP-1193 provider, a Wallet Standard wallet, a Bitcoin backend).
   */
  const connectionOf = (
    client: SignClient,
    session: SessionTypes.Struct,
    params: ConnectParams,
    intentions: Map<string, AddressIntention>,
  ): Connection | undefined => {
    const accounts = orderAccounts(
      sessionAccounts(session.namespaces, intentions).filter((a) => params.namespaces.includes(a.namespace)),
      params.networks,
    )
    if (!accounts.length) return undefined
    const link: SessionLink = { client, topic: session.topic, namespaces: session.namespaces }
    const access: SessionAccess = { namespaces: () => link.namespaces, request: (chainId, method, p) => walletRequest(link, chainId, method, p) }
    const peer = session.peer.metadata
    const icon = peer.icons?.[0]
    const evm = accounts.find((a) => a.namespace === 'eip155')
    const has = (namespace: ChainNamespace) => accounts.some((a) => a.namespace === namespace)
    current = {
      topic: session.topic,
      link,
      intentions,
      ...(evm ? { provider: new SessionProvider(link, Number(evm.chainId), options) } : {}),
      ...(has('solana') ? { solana: solanaSessionWallet(access, { name: peer.name, ...(icon ? { icon } : {}) }) } : {}),
      ...(has('bip122')
        ? {
            bitcoin: bitcoinSessionBackend(
              access,
              { id: host.connectorId, name: peer.name, chain: 'bip122', type: 'WALLET_CONNECT', ...(icon ? { imageUrl: icon } : {}) },
              intentions,
            ),
          }
        : {}),
    }
    return {
      connectorId: host.connectorId,
      accounts,
      walletInfo: { name: peer.name, ...(icon ? { icon } : {}) },
    }
  }

  /** What the wallet says its session's Bitcoin addresses are for, asked once at connect and kept for a reload. */
  const learnIntentions = async (client: SignClient, session: SessionTypes.Struct): Promise<Map<string, AddressIntention>> => {
    const intentions = new Map<string, AddressIntention>()
    const link: SessionLink = { client, topic: session.topic, namespaces: session.namespaces }
    const entries = await askAddressIntentions(
      { namespaces: () => session.namespaces, request: (chainId, method, p) => walletRequest(link, chainId, method, p) },
      INTENTIONS_WAIT_MS,
    )
    for (const { address, intention } of entries) if (intention) intentions.set(address, intention)
    if (intentions.size) storeIntentions(session.topic, intentions)
    return intentions
  }

  /** One pairing: resolves with the session, or rejects on expiry ('expired'), cancel or refusal. */
  const pair = async (client: SignClient, params: ConnectParams): Promise<SessionTypes.Struct | 'expired'> => {
    const { uri, approval } = await client.connect({ optionalNamespaces: proposalNamespaces(params.namespaces, params.networks) })
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
        const connection = connectionOf(client, result, params, await learnIntentions(client, result))
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
      return connectionOf(client, session, params, storedIntentions(session.topic))
    },
    async disconnect() {
      const ending = current
      current = undefined
      host.setState({ relay: 'idle' })
      if (!ending || !clientPromise) return
      const client = await clientPromise
      await client.disconnect({ topic: ending.topic, reason: { code: 6000, message: 'User disconnected.' } })
    },
    provider: (namespace) =>
      namespace === 'eip155' ? current?.provider : namespace === 'solana' ? current?.solana : namespace === 'bip122' ? current?.bitcoin : undefined,
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
