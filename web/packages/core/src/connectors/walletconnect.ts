/*
 * WalletConnect: a wallet on another device (a phone scanning the QR code, a desktop app opened
 * by a deep link) reached through a relay, by default the Sigil server's own. This part loads
 * with the page and stays small: the official SDK (@walletconnect/sign-client 2.21.8, about
 * 140 KB gzip) and the session logic are in ./walletconnect-session.ts, imported only when the
 * user picks or hovers WalletConnect (`preload()`), or a stored session is to be restored.
 */
import { emitter } from '../emitter.js'
import { WalletConnectError } from '../errors.js'
import type { ResolvedOptions, WalletConnectOptions } from '../options.js'
import type { ChainNamespace, Connector } from '../types.js'
import { servedNamespaces, type SessionFamilies } from './transport.js'
import type { Connection, ConnectorEvent, ConnectorSource, ConnectParams, WalletConnector } from './types.js'

export const WALLET_CONNECT_ID = 'walletConnect'
export const WALLET_CONNECT_NAME = 'WalletConnect'

/** The pairing on show: none yet, being made, its URI ready to scan, expired (a new one follows), or failed. */
export type PairingStatus = 'idle' | 'loading' | 'ready' | 'expired' | 'error'
/** The socket to the relay, while a pairing or a session needs it. */
export type RelayStatus = 'idle' | 'connected' | 'reconnecting' | 'disconnected'

export interface WalletConnectState {
  pairing: PairingStatus
  /** The `wc:` pairing URI the QR code and the deep links carry. */
  uri?: string
  /** When the URI stops being offered (ms since the epoch): its expiry less a 10 s margin. */
  expiresAt?: number
  relay: RelayStatus
  /** What went wrong last (relay unreachable or lost, 'Session Expired', SDK not loaded). */
  error?: WalletConnectError
}

/** What the lazily loaded session module provides (./walletconnect-session.ts). */
export interface WalletConnectSession {
  connect(params: ConnectParams): Promise<Connection>
  reconnect(params: ConnectParams): Promise<Connection | undefined>
  disconnect(): Promise<void>
  provider(namespace: ChainNamespace): unknown
  /** Stops waiting for the wallet: the pending connect() rejects ('cancelled'). */
  cancel(): void
  /** Reconnects the relay socket after it was lost. */
  retryRelay(): Promise<void>
  /** Starts the SDK client (storage, relay socket) ahead of a connect. */
  warmUp(): Promise<void>
}

export interface WalletConnectSessionHost {
  options: WalletConnectOptions & { projectId: string; apiUrl: string; metadata: ResolvedOptions['metadata'] }
  connectorId: string
  /** What each namespace's family does over the session (its adapter's session capability). */
  families: SessionFamilies
  getState(): WalletConnectState
  setState(patch: Partial<WalletConnectState>): void
  emit(event: ConnectorEvent): void
}

/** The WalletConnect connector: a WalletConnector plus the pairing state its views show. */
export interface WalletConnectConnector extends WalletConnector {
  getState(): WalletConnectState
  /** Called with the new state on each change. Returns an unsubscribe. */
  subscribeState(listener: (state: WalletConnectState) => void): () => void
  /** Loads the SDK ahead (when the modal is idle); with `start`, also starts its client (on hover or focus of the option). */
  preload(start?: boolean): Promise<unknown>
  /** Stops a pending connect (the view was left). */
  cancel(): void
  /** After relay trouble: reconnects the socket, or starts a new pairing when none is live. */
  retryRelay(): Promise<void>
}

export function isWalletConnectConnector(connector: unknown): connector is WalletConnectConnector {
  return typeof connector === 'object' && connector !== null && typeof (connector as WalletConnectConnector).subscribeState === 'function'
}

export interface WalletConnectConnectorOptions {
  /** The resolved modal options (relay, Verify, project id, metadata, networks). */
  options: ResolvedOptions
  /**
   * The families the session may hold (the host's adapters' session capabilities); the modal
   * gives its own to the connector source when it starts watching.
   */
  families?: SessionFamilies
  /** The session module; the SDK-backed one by default (a test passes a fake). */
  load?: () => Promise<(host: WalletConnectSessionHost) => WalletConnectSession>
}

/**
 * The WalletConnect connector for the namespaces the host configured and has a family with a
 * session capability for (EVM, Solana, Bitcoin with Sigil's adapters).
 */
export function walletConnectConnector({ options, families = {}, load }: WalletConnectConnectorOptions): WalletConnectConnector | undefined {
  const wc = options.walletConnect
  if (!wc) return undefined
  const namespaces = servedNamespaces(families, options.networks)
  const [chain] = namespaces
  if (!chain) return undefined
  // No image here: the modal draws WalletConnect's logo itself (the page does not carry it).
  const info: Connector = { id: WALLET_CONNECT_ID, name: WALLET_CONNECT_NAME, chain, namespaces, type: 'WALLET_CONNECT' }
  const events = emitter<ConnectorEvent>()
  const states = emitter<WalletConnectState>()
  let state: WalletConnectState = { pairing: 'idle', relay: 'idle' }
  const setState = (patch: Partial<WalletConnectState>) => {
    state = { ...state, ...patch }
    states.emit(state)
  }
  const host: WalletConnectSessionHost = {
    options: { ...wc, projectId: options.projectId, apiUrl: options.apiUrl, metadata: options.metadata },
    connectorId: info.id,
    families,
    getState: () => state,
    setState,
    emit: events.emit,
  }
  const importSession = load ?? (() => import('./walletconnect-session.js').then((m) => m.createWalletConnectSession))
  let session: Promise<WalletConnectSession> | undefined
  let loaded: WalletConnectSession | undefined
  const sessionModule = () => {
    session ??= importSession().then(
      (create) => (loaded = create(host)),
      (error: unknown) => {
        session = undefined
        const failed = WalletConnectError.sdkLoadFailed(error)
        setState({ pairing: 'error', error: failed })
        throw failed
      },
    )
    return session
  }
  return {
    info,
    getState: () => state,
    subscribeState: states.subscribe,
    preload: (start = false) =>
      sessionModule()
        .then((s) => (start ? s.warmUp() : undefined))
        .catch(() => undefined),
    async connect(params) {
      setState({ pairing: 'loading', uri: undefined, expiresAt: undefined, error: undefined })
      return (await sessionModule()).connect(params)
    },
    async reconnect(params) {
      return (await sessionModule()).reconnect(params)
    },
    async disconnect() {
      // Nothing loaded: nothing to end.
      if (session) await (await session).disconnect()
    },
    getProvider: (namespace) => loaded?.provider(namespace),
    subscribe: events.subscribe,
    cancel: () => loaded?.cancel(),
    async retryRelay() {
      await (await sessionModule()).retryRelay()
    },
  }
}

/**
 * The WalletConnect connector as a connector source (none when the host turned it off); it
 * serves the families the modal's adapters bring, unless given its own.
 */
export function walletConnectConnectors(options: WalletConnectConnectorOptions): ConnectorSource {
  let connector: WalletConnectConnector | undefined | null = null
  return {
    watch(onChange, context) {
      if (connector === null) connector = walletConnectConnector({ ...options, families: options.families ?? context?.families ?? {} })
      onChange(connector ? [connector] : [])
      return () => undefined
    },
  }
}
