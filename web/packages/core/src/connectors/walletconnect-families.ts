/*
 * The Solana and Bitcoin parts of a WalletConnect session (loaded with the session module, never
 * with the page). What the proposal asks of each namespace (the WalletConnect Solana and Bitcoin
 * RPC references: methods, events, CAIP-2 chains from the host's networks), the session's
 * accounts in every namespace, and, per namespace, what the session hands its chain adapter:
 *   - solana: a Wallet Standard wallet whose solana:signMessage, solana:signTransaction and
 *     solana:signAndSendTransaction features send solana_signMessage (base58 message and pubkey,
 *     base58 signature), solana_signTransaction / solana_signAllTransactions (base64 wire
 *     transactions) and solana_signAndSendTransaction through the session;
 *   - bip122: a Bitcoin backend (accounts, signMessage, signPsbt, account changes) over the
 *     session's signMessage, signPsbt and getAccountAddresses.
 * The adapters wrap these in their providers (their `wrapProvider`); nothing here knows what a
 * namespace does with its wallet.
 */
import type { ProposalTypes, SessionTypes } from '@walletconnect/types'
import { decodeBase58 as decodeOrUndefined, encodeBase58 } from '../base58.js'
import type { CaipNetwork, ChainNamespace, Connector } from '../types.js'
import type { ConnectionAccount } from './types.js'

/** Methods the dapp asks the wallet to allow; everything else an EVM provider is asked goes to the RPC proxy. */
export const EIP155_METHODS = [
  'eth_sendTransaction',
  'personal_sign',
  'eth_sign',
  'eth_signTypedData',
  'eth_signTypedData_v4',
  'wallet_switchEthereumChain',
  'wallet_addEthereumChain',
  'wallet_getCapabilities',
  'wallet_sendCalls',
  'wallet_getCallsStatus',
] as const
export const EIP155_EVENTS = ['accountsChanged', 'chainChanged']
export const SOLANA_METHODS = ['solana_signMessage', 'solana_signTransaction', 'solana_signAndSendTransaction', 'solana_signAllTransactions']
export const SOLANA_EVENTS = ['accountsChanged', 'chainChanged']
export const BIP122_METHODS = ['signMessage', 'signPsbt', 'sendTransfer', 'getAccountAddresses']
export const BIP122_EVENTS = ['bip122_addressesChanged']
export const BIP122_ADDRESSES_CHANGED = 'bip122_addressesChanged'

const PROPOSED: Partial<Record<ChainNamespace, { methods: readonly string[]; events: string[] }>> = {
  eip155: { methods: EIP155_METHODS, events: EIP155_EVENTS },
  solana: { methods: SOLANA_METHODS, events: SOLANA_EVENTS },
  bip122: { methods: BIP122_METHODS, events: BIP122_EVENTS },
}

/**
 * The proposal's optional namespaces: one per namespace asked for that the host has networks in,
 * with the CAIP-2 chains of those networks (`solana:<genesis-hash prefix>`, `bip122:<genesis prefix>`).
 */
export function proposalNamespaces(namespaces: readonly ChainNamespace[], networks: readonly CaipNetwork[]): ProposalTypes.OptionalNamespaces {
  const out: ProposalTypes.OptionalNamespaces = {}
  for (const namespace of namespaces) {
    const proposed = PROPOSED[namespace]
    const chains = networks.filter((n) => n.chainNamespace === namespace).map((n) => n.caipNetworkId)
    if (!proposed || !chains.length) continue
    out[namespace] = { chains, methods: [...proposed.methods], events: [...proposed.events] }
  }
  return out
}

/** What a Bitcoin wallet says an address is for (the Bitcoin RPC's `intention`). */
export type AddressIntention = 'payment' | 'ordinal'

/**
 * The accounts a session holds, in every namespace it has: CAIP-10 `<namespace>:<chain>:<address>`
 * in the wallet's order. EVM and Solana accounts are 'eoa'; Bitcoin ones 'payment' unless the
 * wallet said an address is for ordinals.
 */
export function sessionAccounts(namespaces: SessionTypes.Namespaces, intentions?: ReadonlyMap<string, AddressIntention>): ConnectionAccount[] {
  const out: ConnectionAccount[] = []
  for (const [key, ns] of Object.entries(namespaces)) {
    for (const caip of ns.accounts ?? []) {
      const [namespace, reference, address, ...rest] = caip.split(':')
      if (!namespace || !reference || !address || rest.length || (namespace !== key && !key.startsWith(`${namespace}:`))) continue
      if (namespace === 'eip155') {
        const chainId = Number(reference)
        if (Number.isSafeInteger(chainId)) out.push({ namespace, address, type: 'eoa', chainId })
      } else if (namespace === 'solana') {
        out.push({ namespace, address, type: 'eoa', chainId: reference })
      } else if (namespace === 'bip122') {
        out.push({ namespace, address, type: intentions?.get(address) === 'ordinal' ? 'ordinal' : 'payment', chainId: reference })
      }
    }
  }
  return out
}

/**
 * The accounts to connect with: per namespace, those on the first of the host's networks the
 * session has accounts on (all of the namespace's when it has none of them); Bitcoin payment
 * addresses before ordinals ones.
 */
export function orderAccounts(accounts: readonly ConnectionAccount[], networks: readonly Pick<CaipNetwork, 'id' | 'chainNamespace'>[]): ConnectionAccount[] {
  const out: ConnectionAccount[] = []
  for (const namespace of new Set(accounts.map((a) => a.namespace))) {
    const own = accounts.filter((a) => a.namespace === namespace)
    const preferred = networks
      .filter((n) => n.chainNamespace === namespace)
      .map((n) => String(n.id))
      .find((id) => own.some((a) => String(a.chainId) === id))
    const kept = preferred === undefined ? own : own.filter((a) => String(a.chainId) === preferred)
    out.push(...kept.filter((a) => a.type !== 'ordinal'), ...kept.filter((a) => a.type === 'ordinal'))
  }
  return out
}

/** Addresses from an accountsChanged event: plain addresses or CAIP-10 ones. */
export function eventAddresses(data: unknown): string[] {
  if (!Array.isArray(data)) return []
  return data.filter((a): a is string => typeof a === 'string').map((a) => (a.includes(':') ? (a.split(':')[2] ?? '') : a))
}

/** The entries of a bip122_addressesChanged event ({ address, intention? } objects, or addresses). */
export function bitcoinEventAddresses(data: unknown): { address: string; intention?: AddressIntention; publicKey?: string }[] {
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

/** How the session module lets a namespace's part reach the wallet. */
export interface SessionAccess {
  /** The session's namespaces as now settled (they change with session_update). */
  namespaces(): SessionTypes.Namespaces
  /** A request to the wallet on `chainId` (CAIP-2); rejects with the wallet's error. */
  request(chainId: string, method: string, params: unknown): Promise<unknown>
}

/** The namespace's CAIP-2 chains in a session: those it lists, then those of its accounts. */
function sessionChains(namespaces: SessionTypes.Namespaces, namespace: string): string[] {
  const ns = namespaces[namespace]
  const fromAccounts = (ns?.accounts ?? []).map((a) => a.split(':').slice(0, 2).join(':'))
  return [...new Set([...(ns?.chains ?? []), ...fromAccounts])]
}

// --- encodings -------------------------------------------------------------------------------

export { encodeBase58 }

/** The bytes of a base58 string (a Solana address or signature); throws on a character outside the alphabet. */
export function decodeBase58(text: string): Uint8Array {
  const bytes = decodeOrUndefined(text)
  if (!bytes) throw new Error(`Invalid base58 "${text}"`)
  return bytes
}

export const bytesToBase64 = (bytes: Uint8Array): string => {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}
export const base64ToBytes = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))

/** Reads a Solana compact-u16 at `offset`: [value, offset after it]. */
function shortVec(bytes: Uint8Array, offset: number): [number, number] {
  let value = 0
  for (let i = 0; i < 3; i++) {
    const byte = bytes[offset + i]
    if (byte === undefined) throw new Error('Truncated transaction')
    value |= (byte & 0x7f) << (7 * i)
    if (!(byte & 0x80)) return [value, offset + i + 1]
  }
  return [value, offset + 3]
}

/**
 * Puts `signature` into a wire transaction's signature slot for `signer` (wallets answering
 * solana_signTransaction with the signature only). Throws when `signer` does not sign it.
 */
export function addSignature(wire: Uint8Array, signer: Uint8Array, signature: Uint8Array): Uint8Array {
  const [count, sigStart] = shortVec(wire, 0)
  const message = sigStart + 64 * count
  // A versioned message starts with 0x80 | version before its header.
  let at = message + ((wire[message] ?? 0) & 0x80 ? 1 : 0)
  const required = wire[at] ?? 0
  at += 3
  const [keys, keyStart] = shortVec(wire, at)
  for (let i = 0; i < Math.min(required, keys, count); i++) {
    const key = wire.subarray(keyStart + 32 * i, keyStart + 32 * i + 32)
    if (key.length === 32 && key.every((b, j) => b === signer[j])) {
      const out = new Uint8Array(wire)
      out.set(signature.subarray(0, 64), sigStart + 64 * i)
      return out
    }
  }
  throw new Error('The transaction has no signature slot for this account')
}

// --- Solana ----------------------------------------------------------------------------------

/** Wallet Standard names of the public Solana clusters, by CAIP-2 reference (the genesis-hash prefix). */
const CLUSTERS: Record<string, string> = {
  '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'solana:mainnet',
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1: 'solana:devnet',
  '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': 'solana:testnet',
}
/** The Wallet Standard chain of a CAIP-2 Solana chain: a public cluster by name, any other 'solana:localnet'. */
export const standardSolanaChain = (caip: string): string => CLUSTERS[caip.split(':')[1] ?? ''] ?? 'solana:localnet'

interface StandardAccount {
  readonly address: string
  readonly publicKey: Uint8Array
  readonly chains: readonly `${string}:${string}`[]
  readonly features: readonly `${string}:${string}`[]
}
type ChangeListener = (properties: { accounts?: readonly StandardAccount[] }) => void

/** The session's Solana accounts as a Wallet Standard wallet (what adapter-solana wraps). */
export interface SolanaSessionWallet {
  readonly version: '1.0.0'
  readonly name: string
  readonly icon: `data:${string}` | string
  readonly chains: readonly `${string}:${string}`[]
  readonly accounts: readonly StandardAccount[]
  readonly features: Record<string, unknown>
  /** The wallet's accountsChanged: the addresses it now shares. */
  setAddresses(addresses: readonly string[]): void
}

const SOLANA_FEATURES = ['solana:signMessage', 'solana:signTransaction', 'solana:signAndSendTransaction'] as const

export function solanaSessionWallet(session: SessionAccess, peer: { name: string; icon?: string }): SolanaSessionWallet {
  let override: string[] | undefined
  const listeners = new Set<ChangeListener>()
  const chains = () => sessionChains(session.namespaces(), 'solana')
  const accounts = (): StandardAccount[] => {
    const addresses = override ?? [...new Set(sessionAccounts(session.namespaces()).flatMap((a) => (a.namespace === 'solana' ? [a.address] : [])))]
    const standard = [...new Set(chains().map(standardSolanaChain))] as `${string}:${string}`[]
    return addresses.map((address) => ({ address, publicKey: decodeBase58(address), chains: standard, features: [...SOLANA_FEATURES] }))
  }
  /** The CAIP-2 chain for a Wallet Standard chain ('solana:localnet', …) or a CAIP-2 one. */
  const caipChain = (chain: string | undefined): string => {
    const all = chains()
    const found = chain ? (all.find((c) => c === chain) ?? all.find((c) => standardSolanaChain(c) === chain)) : undefined
    const first = found ?? all[0]
    if (!first) throw new Error('The session has no Solana chain')
    return first
  }
  const methods = () => session.namespaces().solana?.methods ?? []
  const signOne = async (transaction: Uint8Array, account: StandardAccount, chain: string | undefined): Promise<Uint8Array> => {
    const answer = (await session.request(caipChain(chain), 'solana_signTransaction', { transaction: bytesToBase64(transaction) })) as {
      signature?: string
      transaction?: string
    }
    if (answer?.transaction) return base64ToBytes(answer.transaction)
    if (!answer?.signature) throw new Error('the wallet returned no signature')
    return addSignature(transaction, account.publicKey, decodeBase58(answer.signature))
  }
  const wallet: SolanaSessionWallet = {
    version: '1.0.0',
    name: peer.name,
    icon: peer.icon ?? '',
    get chains() {
      return [...new Set(chains().map(standardSolanaChain))] as `${string}:${string}`[]
    },
    get accounts() {
      return accounts()
    },
    features: {
      'standard:connect': { version: '1.0.0', connect: async () => ({ accounts: accounts() }) },
      'standard:events': {
        version: '1.0.0',
        on(event: string, listener: ChangeListener) {
          if (event !== 'change') return () => undefined
          listeners.add(listener)
          return () => listeners.delete(listener)
        },
      },
      'solana:signMessage': {
        version: '1.0.0',
        async signMessage(...inputs: { account: StandardAccount; message: Uint8Array }[]) {
          const out = []
          for (const { account, message } of inputs) {
            const answer = (await session.request(caipChain(undefined), 'solana_signMessage', {
              message: encodeBase58(message),
              pubkey: account.address,
            })) as { signature?: string }
            if (!answer?.signature) throw new Error('the wallet returned no signature')
            out.push({ signedMessage: message, signature: decodeBase58(answer.signature) })
          }
          return out
        },
      },
      'solana:signTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        async signTransaction(...inputs: { account: StandardAccount; transaction: Uint8Array; chain?: string }[]) {
          if (inputs.length > 1 && methods().includes('solana_signAllTransactions')) {
            const answer = (await session.request(caipChain(inputs[0]?.chain), 'solana_signAllTransactions', {
              transactions: inputs.map((i) => bytesToBase64(i.transaction)),
            })) as { transactions?: string[] }
            if (answer?.transactions?.length !== inputs.length) throw new Error('the wallet returned no transactions')
            return answer.transactions.map((t) => ({ signedTransaction: base64ToBytes(t) }))
          }
          const out = []
          for (const { account, transaction, chain } of inputs) out.push({ signedTransaction: await signOne(transaction, account, chain) })
          return out
        },
      },
      'solana:signAndSendTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        async signAndSendTransaction(...inputs: { account: StandardAccount; transaction: Uint8Array; chain: string; options?: Record<string, unknown> }[]) {
          const out = []
          for (const { transaction, chain, options } of inputs) {
            const answer = (await session.request(caipChain(chain), 'solana_signAndSendTransaction', {
              transaction: bytesToBase64(transaction),
              ...(options ? { sendOptions: options } : {}),
            })) as { signature?: string }
            if (!answer?.signature) throw new Error('the wallet returned no signature')
            out.push({ signature: decodeBase58(answer.signature) })
          }
          return out
        },
      },
    },
    setAddresses(addresses) {
      override = [...addresses]
      const now = accounts()
      for (const listener of [...listeners]) listener({ accounts: now })
    },
  }
  return wallet
}

// --- Bitcoin ---------------------------------------------------------------------------------

/** A Bitcoin account as adapter-bitcoin's backends give them. */
export interface SessionBitcoinAccount {
  address: string
  purpose: 'payment' | 'ordinals'
  publicKey?: string
}

/** The session's bip122 part as a Bitcoin backend (what adapter-bitcoin wraps). */
export interface BitcoinSessionBackend {
  readonly info: Connector
  connect(): Promise<SessionBitcoinAccount[]>
  accounts(): Promise<SessionBitcoinAccount[]>
  disconnect(): Promise<void>
  signMessage(account: SessionBitcoinAccount, message: string, protocol: 'bip322' | 'ecdsa'): Promise<string>
  signPsbt(params: { psbt: string; signInputs?: Record<string, number[]>; broadcast?: boolean }): Promise<{ psbt: string; txid?: string }>
  watch(onAccounts: (accounts: SessionBitcoinAccount[]) => void): () => void
  /** The wallet's bip122_addressesChanged. */
  setAddresses(entries: readonly { address: string; intention?: AddressIntention; publicKey?: string }[]): void
}

export function bitcoinSessionBackend(
  session: SessionAccess,
  info: Connector,
  /** What the wallet said each address is for (getAccountAddresses, bip122_addressesChanged); kept up to date here. */
  intentions: Map<string, AddressIntention>,
): BitcoinSessionBackend {
  let override: { address: string; publicKey?: string }[] | undefined
  const keys = new Map<string, string>()
  let watcher: ((accounts: SessionBitcoinAccount[]) => void) | undefined
  const list = (): SessionBitcoinAccount[] => {
    const entries =
      override ??
      [...new Set(sessionAccounts(session.namespaces()).flatMap((a) => (a.namespace === 'bip122' ? [a.address] : [])))].map((address) => ({ address }))
    const accounts = entries.map(({ address }) => {
      const publicKey = keys.get(address)
      return { address, purpose: intentions.get(address) === 'ordinal' ? ('ordinals' as const) : ('payment' as const), ...(publicKey ? { publicKey } : {}) }
    })
    return [...accounts.filter((a) => a.purpose === 'payment'), ...accounts.filter((a) => a.purpose !== 'payment')]
  }
  /** The chain an address is on in the session (its CAIP-10 account), else the session's first bip122 chain. */
  const chainOf = (address: string): string => {
    const namespaces = session.namespaces()
    const own = (namespaces.bip122?.accounts ?? []).find((a) => a.split(':')[2] === address)
    const chain = own ? own.split(':').slice(0, 2).join(':') : sessionChains(namespaces, 'bip122')[0]
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
export async function askAddressIntentions(
  session: SessionAccess,
  timeoutMs: number,
): Promise<{ address: string; intention?: AddressIntention; publicKey?: string }[]> {
  const namespaces = session.namespaces()
  const ns = namespaces.bip122
  const first = sessionAccounts(namespaces).find((a) => a.namespace === 'bip122')
  if (!ns?.methods.includes('getAccountAddresses') || !first) return []
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
