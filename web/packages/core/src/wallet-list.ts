import type { ConnectMethod, ConnectorSection, Features } from './options.js'
import { findConnectorForWallet } from './router.js'
import type { SigilState } from './store.js'
import type { ChainNamespace, Connector, Wallet } from './types.js'

/** How many recommended wallets the Connect view shows (spec section 9). */
export const RECOMMENDED_WALLETS_COUNT = 4
/** Featured page size when the host names no featured wallets. */
export const DEFAULT_FEATURED_COUNT = 4

export type ConnectListItem =
  | { kind: 'connector'; section: 'walletConnect' | 'injected' | 'external'; connector: Connector }
  | { kind: 'wallet'; section: 'recent' | 'featured' | 'custom' | 'recommended'; wallet: Wallet; connector?: Connector }

export interface ConnectListInput {
  order: readonly ConnectorSection[]
  connectors: readonly Connector[]
  recent?: readonly Wallet[]
  featured?: readonly Wallet[]
  /** Host-defined wallets (not from the directory). */
  custom?: readonly Wallet[]
  /** Directory wallets, in directory order; the first few not shown elsewhere are recommended. */
  recommended?: readonly Wallet[]
  featuredWalletIds?: readonly string[]
  excludeWalletIds?: readonly string[]
  /**
   * The chain families listed: a recent wallet speaking none of them (by its connector, else by
   * its directory chains) is left out. All when absent.
   */
  namespaces?: ReadonlySet<ChainNamespace>
  /** Every connector of the page, those of families not listed too (what a recent wallet speaks); `connectors` when absent. */
  pageConnectors?: readonly Connector[]
}

/**
 * The Connect view's wallet list: sections in `order`, each wallet or connector shown once
 * (the first section to claim it wins), excluded wallet ids left out.
 */
export function buildConnectList(input: ConnectListInput): ConnectListItem[] {
  const excluded = new Set(input.excludeWalletIds ?? [])
  const shownWallets = new Set<string>()
  const shownConnectors = new Set<string>()
  const items: ConnectListItem[] = []

  const addWallet = (section: 'recent' | 'featured' | 'custom' | 'recommended', wallet: Wallet) => {
    if (excluded.has(wallet.id) || shownWallets.has(wallet.id)) return false
    const connector = connectorFor(input.connectors, wallet)
    if (connector && shownConnectors.has(connector.id)) return false
    shownWallets.add(wallet.id)
    if (connector) shownConnectors.add(connector.id)
    items.push(connector ? { kind: 'wallet', section, wallet, connector } : { kind: 'wallet', section, wallet })
    return true
  }
  const addConnector = (section: 'walletConnect' | 'injected' | 'external', connector: Connector) => {
    if (shownConnectors.has(connector.id)) return
    if (connector.explorerId && (excluded.has(connector.explorerId) || shownWallets.has(connector.explorerId))) return
    shownConnectors.add(connector.id)
    if (connector.explorerId) shownWallets.add(connector.explorerId)
    items.push({ kind: 'connector', section, connector })
  }

  for (const section of input.order) {
    switch (section) {
      case 'walletConnect':
        for (const c of input.connectors) if (c.type === 'WALLET_CONNECT') addConnector(section, c)
        break
      case 'recent':
        for (const w of (input.recent ?? []).filter((r) => speaksAny(r, input.pageConnectors ?? input.connectors, input.namespaces)).slice(0, 2)) {
          addWallet(section, w)
        }
        break
      case 'injected':
        // Announced (EIP-6963) wallets first: they name themselves; the legacy provider after.
        for (const c of input.connectors) if (c.type === 'ANNOUNCED') addConnector(section, c)
        for (const c of input.connectors) if (c.type === 'INJECTED') addConnector(section, c)
        break
      case 'featured': {
        const ids = input.featuredWalletIds ?? []
        const featured = [...(input.featured ?? [])].sort((a, b) => rank(ids, a.id) - rank(ids, b.id))
        for (const w of featured.slice(0, ids.length || DEFAULT_FEATURED_COUNT)) addWallet(section, w)
        break
      }
      case 'custom':
        for (const w of input.custom ?? []) addWallet(section, w)
        break
      case 'external':
        for (const c of input.connectors) if (c.type === 'EXTERNAL') addConnector(section, c)
        break
      case 'recommended': {
        let added = 0
        for (const w of input.recommended ?? []) {
          if (added >= RECOMMENDED_WALLETS_COUNT) break
          if (addWallet(section, w)) added++
        }
        break
      }
    }
  }
  return items
}

/**
 * The page connector of a listed wallet: the directory's match (explorer id, rdns, injected id),
 * else, for a wallet remembered from a page connector (a recent one), the connector's own id,
 * else the same name (one wallet reached through connectors of several families). Kept out of
 * the router's match, which loads with the page.
 */
function connectorFor(connectors: readonly Connector[], wallet: Wallet): Connector | undefined {
  const name = wallet.name.trim().toLowerCase()
  return findConnectorForWallet(connectors, wallet) ?? connectors.find((c) => c.id === wallet.id || c.name.trim().toLowerCase() === name)
}

/** Whether `wallet` speaks one of `namespaces`: by its page connector, else by its directory chains; unknown counts as yes. */
function speaksAny(wallet: Wallet, connectors: readonly Connector[], namespaces: ReadonlySet<ChainNamespace> | undefined): boolean {
  if (!namespaces) return true
  const connector = connectorFor(connectors, wallet)
  if (connector) return connector.namespaces.some((ns) => namespaces.has(ns))
  if (!wallet.chains?.length) return true
  return wallet.chains.some((chain) => namespaces.has(chain.split(':')[0] as ChainNamespace))
}

/**
 * The chain families the Connect view lists wallets for: the page's (in the order of its
 * networks), or, when the visitor connects a further family (the active one is not connected
 * while another is), that one alone.
 */
export function connectFamilies(state: Pick<SigilState, 'networks' | 'activeNamespace' | 'chains'>): ChainNamespace[] {
  const connected = (ns: ChainNamespace) => state.chains[ns]?.connectionStatus === 'connected'
  const page = [...new Set(state.networks.map((n) => n.chainNamespace))]
  const further = !connected(state.activeNamespace) && page.some(connected)
  return further ? [state.activeNamespace] : page
}

/**
 * The directory's wallets for several families as one list, taking from each in turn (the
 * first of each family, then the second, ...), each wallet once: every family gets featured.
 */
export function interleaveWallets(lists: readonly (readonly Wallet[])[]): Wallet[] {
  const out: Wallet[] = []
  const seen = new Set<string>()
  for (let i = 0; lists.some((l) => i < l.length); i++) {
    for (const list of lists) {
      const wallet = list[i]
      if (wallet && !seen.has(wallet.id)) {
        seen.add(wallet.id)
        out.push(wallet)
      }
    }
  }
  return out
}

function rank(ids: readonly string[], id: string): number {
  const i = ids.indexOf(id)
  return i === -1 ? ids.length : i
}

/** Connect methods to offer, in the configured order, leaving out the disabled ones. */
export function enabledConnectMethods(features: Pick<Features, 'connectMethodsOrder' | 'email' | 'socials'>): ConnectMethod[] {
  return features.connectMethodsOrder.filter((method) => {
    if (method === 'email') return features.email
    if (method === 'social') return Array.isArray(features.socials) && features.socials.length > 0
    return true
  })
}

/** The device a visitor would install a wallet on: the store differs. */
export type InstallPlatform = 'ios' | 'android' | 'desktop'

export function installPlatform(userAgent: string): InstallPlatform {
  if (/iPhone|iPad|iPod/i.test(userAgent)) return 'ios'
  if (/Android/i.test(userAgent)) return 'android'
  return 'desktop'
}

/**
 * Where to get `wallet` on this device, from its directory record: its app store on a phone,
 * its browser extension on a computer, else its site. Only https links.
 */
export function walletInstallLink(wallet: Wallet, platform: InstallPlatform): string | undefined {
  const store = platform === 'ios' ? wallet.app_store : platform === 'android' ? wallet.play_store : wallet.chrome_store
  return [store, wallet.homepage].find((link): link is string => typeof link === 'string' && /^https:\/\//i.test(link))
}
