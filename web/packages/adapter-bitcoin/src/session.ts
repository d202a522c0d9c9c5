/*
 * Bitcoin over a chain-neutral session (WalletConnect), loaded with the transport: what a
 * WalletConnect proposal asks for in bip122 (the WalletConnect Bitcoin RPC reference's methods
 * and events), the session's accounts (payment unless the wallet said an address is for
 * ordinals), and a Bitcoin backend over the session's signMessage, signPsbt and
 * getAccountAddresses that the adapter wraps like any other backend.
 */
import type { Connector } from '@sigil/core'
import { namespaceAccounts, type FamilySession, type SessionTransport } from '@sigil/core/session'
import { backendProvider } from './adapter.js'
import type { BitcoinBackend } from './connector.js'
import type { BitcoinProvider } from './provider.js'

export const BIP122_METHODS = ['signMessage', 'signPsbt', 'sendTransfer', 'getAccountAddresses']
export const BIP122_ADDRESSES_CHANGED = 'bip122_addressesChanged'
export const BIP122_EVENTS = [BIP122_ADDRESSES_CHANGED]

/** How long connecting waits for the wallet to say what its addresses are for. */
const INTENTIONS_WAIT_MS = 3000
/** What the wallet said of its addresses, kept with the session for a reload (the session does not hold it). */
const INTENTIONS = 'bip122-intentions'

/** What a Bitcoin wallet says an address is for (the Bitcoin RPC's `intention`). */
export type AddressIntention = 'payment' | 'ordinal'

/** An address as a bip122_addressesChanged event or getAccountAddresses gives it. */
export interface AddressEntry {
  address: string
  intention?: AddressIntention
  publicKey?: string
}

/** A Bitcoin account as the backends give them. */
export interface SessionBitcoinAccount {
  address: string
  purpose: 'payment' | 'ordinals'
  publicKey?: string
}

/** The session's bip122 part as a Bitcoin backend (what the adapter wraps). */
export interface BitcoinSessionBackend extends BitcoinBackend {
  watch(onAccounts: (accounts: SessionBitcoinAccount[]) => void): () => void
  /** The wallet's bip122_addressesChanged. */
  setAddresses(entries: readonly AddressEntry[]): void
}

/** The entries of a bip122_addressesChanged event ({ address, intention? } objects, or addresses). */
export function bitcoinEventAddresses(data: unknown): AddressEntry[] {
  if (!Array.isArray(data)) return []
  return data.flatMap((entry) => {
    if (typeof entry === 'string') return entry ? [{ address: entry.includes(':') ? (entry.split(':')[2] ?? '') : entry }] : []
    const { address, intention, publicKey } = (entry ?? {}) as { address?: unknown; intention?: unknown; publicKey?: unknown }
    if (typeof address !== 'string' || !address) return []
    return [
      {
        address,
        ...(intention === 'payment' || intention === 'ordinal' ? { intention } : {}),
        ...(typeof publicKey === 'string' ? { publicKey } : {}),
      },
    ]
  })
}

/** The session's bip122 accounts in the wallet's order. */
const sessionAddresses = (session: SessionTransport) => namespaceAccounts(session.namespace('bip122')?.accounts ?? [], 'bip122')

/** What the wallet said of the session's addresses, as kept for a reload. */
const keptIntentions = (session: SessionTransport) => new Map(Object.entries((session.recall(INTENTIONS) ?? {}) as Record<string, AddressIntention>))

export function bitcoinSessionBackend(
  session: SessionTransport,
  info: Connector,
  /** What the wallet said each address is for (getAccountAddresses, bip122_addressesChanged); kept up to date here. */
  intentions: Map<string, AddressIntention>,
): BitcoinSessionBackend {
  let override: { address: string }[] | undefined
  const keys = new Map<string, string>()
  let watcher: ((accounts: SessionBitcoinAccount[]) => void) | undefined
  const list = (): SessionBitcoinAccount[] => {
    const entries = override ?? [...new Set(sessionAddresses(session).map((a) => a.address))].map((address) => ({ address }))
    const accounts = entries.map(({ address }) => {
      const publicKey = keys.get(address)
      return { address, purpose: intentions.get(address) === 'ordinal' ? ('ordinals' as const) : ('payment' as const), ...(publicKey ? { publicKey } : {}) }
    })
    return [...accounts.filter((a) => a.purpose === 'payment'), ...accounts.filter((a) => a.purpose !== 'payment')]
  }
  /** The chain an address is on in the session (its CAIP-10 account), else the session's first bip122 chain. */
  const chainOf = (address: string): string => {
    const own = sessionAddresses(session).find((a) => a.address === address)
    const chain = own ? `bip122:${own.chainId}` : session.namespace('bip122')?.chains[0]
    if (!chain) throw new Error('The session has no Bitcoin chain')
    return chain
  }
  /** The Bitcoin RPC's account: the wallet's first external (payment) address. */
  const accountId = () => list()[0]?.address ?? ''
  return {
    info,
    connect: async () => list(),
    accounts: async () => list(),
    // The session ends with the connector's disconnect; the backend has nothing of its own to end.
    disconnect: async () => undefined,
    async signMessage(account, message, protocol) {
      const answer = (await session.request(chainOf(account.address), 'signMessage', {
        account: accountId(),
        address: account.address,
        message,
        protocol,
      })) as { signature?: string }
      if (!answer?.signature) throw new Error('the wallet returned no signature')
      return answer.signature
    },
    async signPsbt({ psbt, signInputs, broadcast }) {
      const inputs = Object.entries(signInputs ?? {}).flatMap(([address, indexes]) => indexes.map((index) => ({ address, index })))
      const answer = (await session.request(chainOf(accountId()), 'signPsbt', {
        account: accountId(),
        psbt,
        signInputs: inputs,
        broadcast: broadcast ?? false,
      })) as { psbt?: string; txid?: string }
      if (!answer?.psbt) throw new Error('the wallet returned no PSBT')
      return { psbt: answer.psbt, ...(answer.txid ? { txid: answer.txid } : {}) }
    },
    // WalletConnect's bip122 sendTransfer (in the session's methods): the wallet picks inputs and fee.
    async sendTransfer({ to, amount }) {
      const answer = (await session.request(chainOf(accountId()), 'sendTransfer', {
        account: accountId(),
        recipientAddress: to,
        amount: amount.toString(),
      })) as {
        txid?: string
      }
      if (!answer?.txid) throw new Error('the wallet returned no transaction id')
      return answer.txid
    },
    watch(onAccounts) {
      watcher = onAccounts
      return () => {
        if (watcher === onAccounts) watcher = undefined
      }
    },
    setAddresses(entries) {
      for (const { address, intention, publicKey } of entries) {
        if (intention) intentions.set(address, intention)
        if (publicKey) keys.set(address, publicKey)
      }
      override = entries.map(({ address }) => ({ address }))
      watcher?.(list())
    },
  }
}

/**
 * Asks the wallet what its session's Bitcoin addresses are for (getAccountAddresses), when the
 * session allows it; resolves to the wallet's entries, or none when it cannot say in `timeoutMs`.
 */
export async function askAddressIntentions(session: SessionTransport, timeoutMs: number): Promise<AddressEntry[]> {
  const [first] = sessionAddresses(session)
  if (!session.namespace('bip122')?.methods.includes('getAccountAddresses') || !first) return []
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    const answer = await Promise.race([
      session.request(`bip122:${first.chainId}`, 'getAccountAddresses', { account: first.address }),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), timeoutMs)
      }),
    ])
    return bitcoinEventAddresses(answer)
  } catch {
    return []
  } finally {
    clearTimeout(timer)
  }
}

/** The bip122 family's part of a session. */
export const bitcoinSession: FamilySession<BitcoinProvider> = {
  methods: BIP122_METHODS,
  events: BIP122_EVENTS,
  accounts(transport) {
    const intentions = keptIntentions(transport)
    const accounts = sessionAddresses(transport).map(({ chainId, address }) => ({
      namespace: 'bip122' as const,
      address,
      type: intentions.get(address) === 'ordinal' ? ('ordinal' as const) : ('payment' as const),
      chainId,
    }))
    // Payment addresses first: the first account is the active one.
    return [...accounts.filter((a) => a.type !== 'ordinal'), ...accounts.filter((a) => a.type === 'ordinal')]
  },
  async prepare(transport) {
    const intentions = new Map<string, AddressIntention>()
    for (const { address, intention } of await askAddressIntentions(transport, INTENTIONS_WAIT_MS)) if (intention) intentions.set(address, intention)
    if (intentions.size) transport.remember(INTENTIONS, Object.fromEntries(intentions))
  },
  open(transport, { network, accounts }) {
    const intentions = keptIntentions(transport)
    const { connectorId, type, name, icon } = transport.peer
    const backend = bitcoinSessionBackend(
      transport,
      { id: connectorId, name, chain: 'bip122', namespaces: ['bip122'], type, ...(icon ? { imageUrl: icon } : {}) },
      intentions,
    )
    const provider = backendProvider(backend, network, accounts) as BitcoinProvider
    return {
      provider,
      event(name, data) {
        if (name !== BIP122_ADDRESSES_CHANGED) return undefined
        const entries = bitcoinEventAddresses(data)
        backend.setAddresses(entries)
        transport.remember(INTENTIONS, Object.fromEntries(intentions))
        return { accounts: [...entries.filter((e) => e.intention !== 'ordinal'), ...entries.filter((e) => e.intention === 'ordinal')].map((e) => e.address) }
      },
      update() {
        const addresses = [...new Set(bitcoinSession.accounts(transport).map((a) => a.address))]
        backend.setAddresses(addresses.map((address) => ({ address })))
        return addresses
      },
    }
  },
}
