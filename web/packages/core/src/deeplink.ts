/*
 * Spec section 2: on mobile, choosing Phantom without its extension, or Coinbase Wallet on
 * Solana without its Solana provider, opens the current page in that wallet's own browser. The
 * rule is data: which wallet, on which family (any when none is named), and its link.
 */
import type { ChainNamespace, Connector, Wallet } from './types.js'

interface WalletBrowser {
  name: string
  rdns: string
  /** Only while this family is active, and only without a connector of the wallet for it; any family without one when absent. */
  namespace?: ChainNamespace
  link(pageUrl: string): string
}

const WALLET_BROWSERS: readonly WalletBrowser[] = [
  {
    name: 'phantom',
    rdns: 'app.phantom',
    link: (page) => `https://phantom.app/ul/browse/${encodeURIComponent(page)}?ref=${encodeURIComponent(new URL(page).origin)}`,
  },
  { name: 'coinbase wallet', rdns: 'com.coinbase.wallet', namespace: 'solana', link: (page) => `https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(page)}` },
]

const isWallet = (browser: WalletBrowser) => (x: { name: string; rdns?: string | null | undefined }) =>
  x.name.trim().toLowerCase() === browser.name || x.rdns?.toLowerCase() === browser.rdns

/** The deep link to follow instead of connecting, or undefined when the wallet connects as usual. */
export function walletBrowserLink(wallet: Wallet, connectors: readonly Connector[], activeNamespace: ChainNamespace, pageUrl: string): string | undefined {
  const browser = WALLET_BROWSERS.find((b) => isWallet(b)(wallet))
  if (!browser || (browser.namespace && browser.namespace !== activeNamespace)) return undefined
  const own = connectors.filter(isWallet(browser))
  const present = browser.namespace ? own.some((c) => c.namespaces.includes(browser.namespace as ChainNamespace)) : own.length > 0
  return present ? undefined : browser.link(pageUrl)
}
