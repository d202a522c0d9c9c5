import type { ConnectorSource, WalletConnector } from '@sigil/core'
import { getWallets } from '@wallet-standard/app'
import {
  isBitcoinStandardWallet,
  satsConnectBackend,
  unisatBackend,
  walletStandardBitcoinBackend,
  type SatsConnectProviderInfo,
  type UnisatApi,
} from './backends.js'
import { bitcoinConnector } from './connector.js'

export interface BitcoinConnectorsOptions {
  /** Where to look for `btc_providers` and `unisat`; the global object by default. */
  window?: { btc_providers?: unknown; unisat?: unknown }
  /** Look for Wallet Standard wallets with bitcoin chains (default true). */
  walletStandard?: boolean
}

const isSatsInfo = (p: unknown): p is SatsConnectProviderInfo =>
  typeof p === 'object' && p !== null && typeof (p as SatsConnectProviderInfo).id === 'string' && typeof (p as SatsConnectProviderInfo).name === 'string'

const isUnisat = (u: unknown): u is UnisatApi => typeof u === 'object' && u !== null && typeof (u as UnisatApi).requestAccounts === 'function'

/**
 * The page's Bitcoin wallets: sats-connect providers (`window.btc_providers`), Unisat
 * (`window.unisat`) and Wallet Standard wallets with bitcoin chains. Injected wallets are read
 * when watching starts and again on each Wallet Standard registration and on page load.
 */
export function bitcoinConnectors(options: BitcoinConnectorsOptions = {}): ConnectorSource {
  const made = new Map<string, WalletConnector>()
  const keep = (id: string, make: () => WalletConnector) => {
    let connector = made.get(id)
    if (!connector) {
      connector = make()
      made.set(id, connector)
    }
    return connector
  }
  return {
    watch(onChange) {
      const win = options.window ?? (globalThis as BitcoinConnectorsOptions['window'] & object)
      const wallets = options.walletStandard === false ? undefined : getWallets()
      const list = () => {
        const found: WalletConnector[] = []
        const sats = Array.isArray(win.btc_providers) ? win.btc_providers.filter(isSatsInfo) : []
        for (const info of sats) found.push(keep(`sats-connect:${info.id}`, () => bitcoinConnector(satsConnectBackend(info))))
        if (isUnisat(win.unisat)) {
          const unisat = win.unisat
          found.push(keep('unisat', () => bitcoinConnector(unisatBackend(unisat))))
        }
        for (const wallet of wallets?.get().filter(isBitcoinStandardWallet) ?? []) {
          found.push(keep(`ws:${wallet.name}`, () => bitcoinConnector(walletStandardBitcoinBackend(wallet))))
        }
        return found
      }
      onChange(list())
      const offs = wallets ? [wallets.on('register', () => onChange(list())), wallets.on('unregister', () => onChange(list()))] : []
      const onLoad = () => onChange(list())
      const target = globalThis as { addEventListener?: (t: string, l: () => void) => void; removeEventListener?: (t: string, l: () => void) => void }
      target.addEventListener?.('load', onLoad)
      return () => {
        for (const off of offs) off()
        target.removeEventListener?.('load', onLoad)
      }
    },
  }
}
