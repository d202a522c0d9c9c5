/*
 * Spec section 2: on mobile, choosing Phantom without its extension, or Coinbase Wallet on
 * Solana without its Solana provider, opens the current page in that wallet's own browser.
 */
import { connectorFamilies } from './router.js'
import type { ChainNamespace, Connector, Wallet } from './types.js'

const isNamed = (name: string, rdns: string) => (x: { name: string; rdns?: string | null | undefined }) =>
  x.name.trim().toLowerCase() === name || x.rdns?.toLowerCase() === rdns

const isPhantom = isNamed('phantom', 'app.phantom')
const isCoinbase = isNamed('coinbase wallet', 'com.coinbase.wallet')

/** The deep link to follow instead of connecting, or undefined when the wallet connects as usual. */
export function walletBrowserLink(wallet: Wallet, connectors: readonly Connector[], activeNamespace: ChainNamespace, pageUrl: string): string | undefined {
  if (isPhantom(wallet) && !connectors.some(isPhantom)) {
    const origin = new URL(pageUrl).origin
    return `https://phantom.app/ul/browse/${encodeURIComponent(pageUrl)}?ref=${encodeURIComponent(origin)}`
  }
  if (isCoinbase(wallet) && activeNamespace === 'solana' && !connectors.some((c) => isCoinbase(c) && connectorFamilies(c).includes('solana'))) {
    return `https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(pageUrl)}`
  }
  return undefined
}
