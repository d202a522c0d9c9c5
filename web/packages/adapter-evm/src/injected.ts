/*
 * Browser-extension wallets: EIP-6963 announcements (through mipd), each with its own name,
 * icon and rdns, and the legacy `window.ethereum` when no announcement carries that object.
 * An injected wallet connects eip155 accounts over its EIP-1193 provider.
 */
import {
  emitter,
  isEip1193Provider,
  NoAccountsError,
  toSigilError,
  type Connection,
  type Connector,
  type ConnectorEvent,
  type ConnectorSource,
  type Eip1193Provider,
  type WalletConnector,
} from '@sigil/core'
import { createStore, type EIP6963ProviderDetail } from 'mipd'
import { parseChainId } from './provider.js'

/** Connector id of the legacy `window.ethereum` provider. */
export const LEGACY_INJECTED_ID = 'injected'
export const LEGACY_INJECTED_NAME = 'Browser Wallet'

export interface InjectedConnectorsOptions {
  /** Where to look for `window.ethereum`; the global object by default. */
  window?: { ethereum?: unknown }
}

const accountsOf = (value: unknown): string[] => (Array.isArray(value) ? value.filter((a): a is string => typeof a === 'string') : [])

/** One injected wallet as a connector. It listens to its wallet only while connected. */
export function injectedConnector(info: Connector, provider: Eip1193Provider): WalletConnector {
  const { emit, subscribe } = emitter<ConnectorEvent>()
  let connected = false
  const onAccounts = (accounts: unknown) => emit({ type: 'accountsChanged', namespace: 'eip155', accounts: accountsOf(accounts) })
  const onChain = (chainId: unknown) => {
    try {
      emit({ type: 'chainChanged', namespace: 'eip155', chainId: parseChainId(chainId) })
    } catch {
      // A malformed chain id from the wallet is ignored rather than breaking the page.
    }
  }
  const onDisconnect = () => {
    detach()
    emit({ type: 'disconnect' })
  }
  const attach = () => {
    if (connected) return
    connected = true
    provider.on?.('accountsChanged', onAccounts)
    provider.on?.('chainChanged', onChain)
    provider.on?.('disconnect', onDisconnect)
  }
  const detach = () => {
    connected = false
    provider.removeListener?.('accountsChanged', onAccounts)
    provider.removeListener?.('chainChanged', onChain)
    provider.removeListener?.('disconnect', onDisconnect)
  }

  const connection = async (accounts: string[]): Promise<Connection> => {
    const chainId = parseChainId(await provider.request({ method: 'eth_chainId' }))
    attach()
    return {
      connectorId: info.id,
      accounts: accounts.map((address) => ({ namespace: 'eip155', address, type: 'eoa', chainId })),
      walletInfo: { name: info.name, ...(info.imageUrl ? { icon: info.imageUrl } : {}), ...(info.rdns ? { rdns: info.rdns } : {}) },
    }
  }

  return {
    info,
    async connect() {
      try {
        const accounts = accountsOf(await provider.request({ method: 'eth_requestAccounts' }))
        if (!accounts.length) throw new NoAccountsError()
        return await connection(accounts)
      } catch (error) {
        throw toSigilError(error)
      }
    },
    async reconnect() {
      // eth_accounts never prompts: it lists accounts only if the site is still authorised.
      const accounts = accountsOf(await provider.request({ method: 'eth_accounts' }))
      return accounts.length ? connection(accounts) : undefined
    },
    async disconnect() {
      const was = connected
      detach()
      if (!was) return
      try {
        // Lets wallets that support it (EIP-2255) forget the site, so a reload won't reconnect.
        await provider.request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] })
      } catch {
        // Most wallets lack this method; the local disconnect stands.
      }
    },
    getProvider: (namespace) => (connected && namespace === 'eip155' ? provider : undefined),
    subscribe,
  }
}

/**
 * The page's injected wallets. Announced wallets are keyed by rdns, which stays the same across
 * reloads (uuid does not); each provider keeps one connector object for the page's life.
 */
export function injectedConnectors(options: InjectedConnectorsOptions = {}): ConnectorSource {
  const made = new WeakMap<object, WalletConnector>()
  const connectorFor = (info: Connector, provider: Eip1193Provider) => {
    let connector = made.get(provider)
    if (!connector || connector.info.id !== info.id) {
      connector = injectedConnector(info, provider)
      made.set(provider, connector)
    }
    return connector
  }
  return {
    watch(onChange) {
      const mipd = createStore()
      const win = options.window ?? (globalThis as { ethereum?: unknown })
      const list = () => {
        const announced = mipd
          .getProviders()
          .map(({ info, provider }: EIP6963ProviderDetail) =>
            connectorFor(
              { id: info.rdns, name: info.name, imageUrl: info.icon, rdns: info.rdns, chain: 'eip155', namespaces: ['eip155'], type: 'ANNOUNCED' },
              provider as Eip1193Provider,
            ),
          )
        const legacy = win.ethereum
        if (isEip1193Provider(legacy) && !mipd.getProviders().some((d) => d.provider === legacy)) {
          announced.push(
            connectorFor({ id: LEGACY_INJECTED_ID, name: LEGACY_INJECTED_NAME, chain: 'eip155', namespaces: ['eip155'], type: 'INJECTED' }, legacy),
          )
        }
        return announced
      }
      onChange(list())
      const unsubscribe = mipd.subscribe(() => onChange(list()))
      return () => {
        unsubscribe()
        mipd.destroy()
      }
    },
  }
}
