/*
 * Solana wallets found through the Wallet Standard (@wallet-standard/app): each registered
 * wallet with `standard:connect` and a solana: chain is a connector for the solana namespace.
 * Connecting gives its Solana accounts; `standard:events` changes become account events, and a
 * wallet left with no account ends the connection.
 */
import {
  emitter,
  NoAccountsError,
  toSigilError,
  type CaipNetwork,
  type Connection,
  type ConnectorEvent,
  type ConnectorSource,
  type WalletConnector,
} from '@sigil/core'
import { getWallets } from '@wallet-standard/app'
import type { Wallet, WalletAccount } from '@wallet-standard/base'
import { isSolanaAddress } from './address.js'
import { isSolanaChain, standardChain } from './chains.js'
import { createSolanaProvider, type SolanaProvider } from './provider.js'

interface ConnectFeature {
  connect(input?: { silent?: boolean }): Promise<{ accounts: readonly WalletAccount[] }>
}
interface DisconnectFeature {
  disconnect(): Promise<void>
}
interface EventsFeature {
  on(event: 'change', listener: (properties: { accounts?: readonly WalletAccount[]; chains?: readonly string[] }) => void): () => void
}

const features = (wallet: Wallet) => wallet.features as Record<string, unknown>

/** Whether a registered wallet can connect Solana accounts. */
export function isSolanaWallet(wallet: Wallet): boolean {
  return Boolean(features(wallet)['standard:connect']) && wallet.chains.some(isSolanaChain)
}

/** Connector id of a Wallet Standard wallet: its name, which stays the same across reloads. */
export const walletStandardId = (wallet: Wallet) => `wallet-standard:${wallet.name.toLowerCase().replace(/\s+/g, '-')}`

/** A wallet's accounts that hold a Solana chain and a base58 address. */
export const solanaAccounts = (accounts: readonly WalletAccount[]) => accounts.filter((a) => a.chains.some(isSolanaChain) && isSolanaAddress(a.address))

/** The Solana network to start on: the first the host configured that the account supports, else the first. */
function networkFor(account: WalletAccount, networks: readonly CaipNetwork[]): CaipNetwork | undefined {
  const solana = networks.filter((n) => n.chainNamespace === 'solana')
  return solana.find((n) => account.chains.includes(standardChain(n))) ?? solana[0]
}

/** One Wallet Standard wallet as a connector for the solana namespace. */
export function walletStandardConnector(wallet: Wallet): WalletConnector {
  const { emit, subscribe } = emitter<ConnectorEvent>()
  let accounts: WalletAccount[] = []
  let provider: SolanaProvider | undefined
  let stopEvents: (() => void) | undefined

  const onChange = (properties: { accounts?: readonly WalletAccount[] }) => {
    if (!provider || !properties.accounts) return
    const next = solanaAccounts(properties.accounts)
    if (!next.length) {
      detach()
      emit({ type: 'disconnect', namespace: 'solana' })
      return
    }
    const changed = next.map((a) => a.address).join() !== accounts.map((a) => a.address).join()
    accounts = next
    if (changed) emit({ type: 'accountsChanged', namespace: 'solana', accounts: next.map((a) => a.address) })
  }
  const detach = () => {
    stopEvents?.()
    stopEvents = undefined
    provider = undefined
    accounts = []
  }

  const connection = (found: readonly WalletAccount[], networks: readonly CaipNetwork[]): Connection | undefined => {
    const list = solanaAccounts(found)
    const [first] = list
    if (!first) return undefined
    const network = networkFor(first, networks)
    accounts = list
    provider = createSolanaProvider(wallet, () => accounts[0] ?? first, network)
    stopEvents?.()
    stopEvents = (features(wallet)['standard:events'] as EventsFeature | undefined)?.on('change', onChange)
    return {
      connectorId: walletStandardId(wallet),
      accounts: list.map((a) => ({ namespace: 'solana', address: a.address, type: 'eoa', chainId: network?.id ?? 'mainnet' })),
      walletInfo: { name: wallet.name, icon: wallet.icon },
    }
  }

  return {
    info: { id: walletStandardId(wallet), name: wallet.name, imageUrl: wallet.icon, chain: 'solana', namespaces: ['solana'], type: 'ANNOUNCED' },
    async connect({ networks }) {
      try {
        const { accounts: found } = await (features(wallet)['standard:connect'] as ConnectFeature).connect()
        const made = connection(found, networks)
        if (!made) throw new NoAccountsError()
        return made
      } catch (error) {
        throw toSigilError(error)
      }
    },
    async reconnect({ networks }) {
      // Accounts the wallet already shares, else a silent connect: neither prompts.
      const shared = solanaAccounts(wallet.accounts)
      if (shared.length) return connection(shared, networks)
      try {
        const { accounts: found } = await (features(wallet)['standard:connect'] as ConnectFeature).connect({ silent: true })
        return connection(found, networks)
      } catch {
        return undefined
      }
    },
    async disconnect() {
      const was = provider !== undefined
      detach()
      if (!was) return
      try {
        await (features(wallet)['standard:disconnect'] as DisconnectFeature | undefined)?.disconnect()
      } catch {
        // The local disconnect stands.
      }
    },
    getProvider: (namespace) => (namespace === 'solana' ? provider : undefined),
    subscribe,
  }
}

/** The page's Wallet Standard wallets with Solana accounts, as they register. */
export function solanaConnectors(): ConnectorSource {
  const made = new WeakMap<Wallet, WalletConnector>()
  const connectorFor = (wallet: Wallet) => {
    let connector = made.get(wallet)
    if (!connector) {
      connector = walletStandardConnector(wallet)
      made.set(wallet, connector)
    }
    return connector
  }
  return {
    watch(onChange) {
      const wallets = getWallets()
      const list = () => wallets.get().filter(isSolanaWallet).map(connectorFor)
      onChange(list())
      const offRegister = wallets.on('register', () => onChange(list()))
      const offUnregister = wallets.on('unregister', () => onChange(list()))
      return () => {
        offRegister()
        offUnregister()
      }
    },
  }
}
