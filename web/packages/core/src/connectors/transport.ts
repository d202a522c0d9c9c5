/*
 * A chain-neutral way to a wallet that holds accounts in several families: a WalletConnect
 * session, the embedded wallet's frame. A transport carries requests and knows no family; what
 * a namespace's requests mean, its accounts and its provider are the family's (its adapter's
 * `session` capability).
 */
import type { ChainAdapter, SessionCapability } from '../adapter.js'
import type { ChainNamespace, ConnectorType } from '../types.js'

/** A session's part for one namespace. */
export interface SessionNamespace {
  /** CAIP-2 chains. */
  readonly chains: readonly string[]
  /** CAIP-10 accounts, in the wallet's order. */
  readonly accounts: readonly string[]
  /** The methods the wallet allows. */
  readonly methods: readonly string[]
}

export interface SessionTransport {
  /** The wallet at the other end, as the views name it, and the connector it is reached through. */
  readonly peer: { connectorId: string; type: ConnectorType; name: string; icon?: string }
  /** The session's part for `namespace`; undefined when it has none. */
  namespace(namespace: ChainNamespace): SessionNamespace | undefined
  /** A request the wallet answers, on `chainId` (CAIP-2); rejects with the wallet's error, its code kept. */
  request(chainId: string, method: string, params: unknown): Promise<unknown>
  /** A read the chain answers without the wallet (WalletConnect: the Sigil server's RPC proxy). */
  read(chainId: string, method: string, params: unknown): Promise<unknown>
  /** Moves the session to `chainId` (CAIP-2) itself (the frame); without it, the family asks the wallet. */
  switchChain?(chainId: string): Promise<void>
  /** A value kept with this session across reloads (the session itself does not hold it). */
  recall(name: string): unknown
  remember(name: string, value: unknown): void
}

/** The families a transport can serve: each namespace's session capability. */
export type SessionFamilies = Partial<Record<ChainNamespace, SessionCapability>>

/** The session capabilities of `adapters`, by namespace. */
export function sessionFamilies(adapters: Iterable<ChainAdapter | undefined>): SessionFamilies {
  const families: SessionFamilies = {}
  for (const adapter of adapters) if (adapter?.session) families[adapter.namespace] = adapter.session
  return families
}

/** The namespaces of `networks` (in order, once each) that one of `families` serves. */
export function servedNamespaces(families: SessionFamilies, networks: readonly { chainNamespace: ChainNamespace }[]): ChainNamespace[] {
  return [...new Set(networks.map((n) => n.chainNamespace))].filter((ns) => families[ns] !== undefined)
}
