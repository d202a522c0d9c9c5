/*
 * One Bitcoin wallet as a connector for the bip122 namespace, whatever reaches it (sats-connect,
 * Unisat, Wallet Standard): a backend says how to ask the wallet for its accounts and
 * signatures; this turns that into a connection (payment and ordinals addresses as accounts,
 * payment first), a provider and events.
 */
import {
  emitter,
  NoAccountsError,
  toSigilError,
  type CaipNetwork,
  type Connection,
  type Connector,
  type ConnectorEvent,
  type WalletConnector,
} from '@sigil/core'
import { addressNetwork, isBitcoinAddress, referenceOf } from './address.js'
import type { BitcoinAccount, BitcoinProvider, MessageProtocol, SignPsbtParams } from './provider.js'

/** How one kind of Bitcoin wallet is asked for things. */
export interface BitcoinBackend {
  readonly info: Connector
  /** Prompts for the accounts (payment and ordinals where the wallet has both). */
  connect(): Promise<BitcoinAccount[]>
  /** The accounts the site may already use, without a prompt; empty when none. */
  accounts(): Promise<BitcoinAccount[]>
  disconnect(): Promise<void>
  signMessage(account: BitcoinAccount, message: string, protocol: MessageProtocol): Promise<string>
  signPsbt(params: SignPsbtParams): Promise<{ psbt: string; txid?: string }>
  /**
   * Has the wallet build, sign and broadcast a payment of `amount` satoshis to `to` from its
   * payment address; resolves to the txid. Absent where the wallet offers no such request.
   */
  sendTransfer?(params: { to: string; amount: bigint }): Promise<string>
  /** Wallet-side account changes (the new accounts; none means the site lost access). Returns a stop. */
  watch?(onAccounts: (accounts: BitcoinAccount[]) => void): () => void
}

/** The configured Bitcoin network the payment address belongs to, else the first configured. */
function networkFor(address: string, networks: readonly CaipNetwork[]): CaipNetwork | undefined {
  const bitcoin = networks.filter((n) => n.chainNamespace === 'bip122')
  const kind = addressNetwork(address)
  return (kind && bitcoin.find((n) => String(n.id) === referenceOf(kind))) ?? bitcoin[0]
}

/** Runs a wallet call, its failure as a SigilError. */
async function wrap<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw toSigilError(error)
  }
}

/**
 * What `useAppKitProvider('bip122')` gives over a backend: signing with the accounts `accounts()`
 * currently gives, on the network the modal follows (starting at `network`).
 */
export function bitcoinProvider(backend: BitcoinBackend, accounts: () => readonly BitcoinAccount[], network: CaipNetwork | undefined): BitcoinProvider {
  let current = network
  return {
    walletName: backend.info.name,
    get accounts() {
      return accounts()
    },
    get network() {
      return current
    },
    signMessage: ({ address, message, protocol = 'bip322' }) =>
      wrap(() => {
        const account = accounts().find((a) => a.address === address)
        if (!account) throw new Error(`${address} is not an account of this wallet`)
        return backend.signMessage(account, message, protocol)
      }),
    signPsbt: (params) => wrap(() => backend.signPsbt(params)),
    ...(backend.sendTransfer
      ? { sendTransfer: (params: { to: string; amount: bigint }) => wrap(() => (backend.sendTransfer as NonNullable<BitcoinBackend['sendTransfer']>)(params)) }
      : {}),
    useNetwork(next) {
      current = next
    },
  }
}

/** Payment addresses first, then ordinals ones; addresses that are not Bitcoin ones left out. */
export const orderedAccounts = (accounts: BitcoinAccount[]) =>
  accounts.filter((a) => isBitcoinAddress(a.address)).sort((a, b) => Number(a.purpose !== 'payment') - Number(b.purpose !== 'payment'))

export function bitcoinConnector(backend: BitcoinBackend): WalletConnector {
  const { emit, subscribe } = emitter<ConnectorEvent>()
  let accounts: BitcoinAccount[] = []
  let provider: BitcoinProvider | undefined
  let stop: (() => void) | undefined

  const detach = () => {
    stop?.()
    stop = undefined
    provider = undefined
    accounts = []
  }
  const onAccounts = (next: BitcoinAccount[]) => {
    const list = orderedAccounts(next)
    if (!list.length) {
      detach()
      emit({ type: 'disconnect', namespace: 'bip122' })
      return
    }
    const changed = list.map((a) => a.address).join() !== accounts.map((a) => a.address).join()
    accounts = list
    if (changed) emit({ type: 'accountsChanged', namespace: 'bip122', accounts: list.map((a) => a.address) })
  }

  const connection = (found: BitcoinAccount[], networks: readonly CaipNetwork[]): Connection | undefined => {
    const list = orderedAccounts(found)
    const [first] = list
    if (!first) return undefined
    accounts = list
    const network = networkFor(first.address, networks)
    provider = bitcoinProvider(backend, () => accounts, network)
    stop?.()
    stop = backend.watch?.(onAccounts)
    return {
      connectorId: backend.info.id,
      accounts: list.map((a) => ({
        namespace: 'bip122',
        address: a.address,
        type: a.purpose === 'payment' ? 'payment' : 'ordinal',
        chainId: network?.id ?? '',
      })),
      walletInfo: { name: backend.info.name, ...(backend.info.imageUrl ? { icon: backend.info.imageUrl } : {}) },
    }
  }

  return {
    info: backend.info,
    async connect({ networks }) {
      return wrap(async () => {
        const made = connection(await backend.connect(), networks)
        if (!made) throw new NoAccountsError()
        return made
      })
    },
    async reconnect({ networks }) {
      try {
        return connection(await backend.accounts(), networks)
      } catch {
        return undefined
      }
    },
    async disconnect() {
      const was = provider !== undefined
      detach()
      if (!was) return
      try {
        await backend.disconnect()
      } catch {
        // The local disconnect stands.
      }
    },
    getProvider: (namespace) => (namespace === 'bip122' ? provider : undefined),
    subscribe,
  }
}
