/*
 * Solana over a chain-neutral session (WalletConnect, the embedded wallet's frame), loaded with
 * the transport: what a WalletConnect proposal asks for in solana (the WalletConnect Solana RPC
 * reference's methods and events), the session's Solana accounts, and a Wallet Standard wallet
 * over the transport that the adapter wraps like any other:
 *   solana:signMessage            -> solana_signMessage { message, pubkey } (base58) -> { signature } (base58)
 *   solana:signTransaction        -> solana_signTransaction { transaction } (base64 wire) -> { transaction } or { signature },
 *                                    several at once through solana_signAllTransactions where the wallet allows it
 *   solana:signAndSendTransaction -> solana_signAndSendTransaction, where the wallet allows it (otherwise the
 *                                    provider signs, then sends through the network's RPC endpoint)
 * Encodings are @solana/kit's codecs.
 */
import { emitter, InternalRpcError } from '@sigil/core'
import { eventAddresses, namespaceAccounts, type FamilySession, type SessionTransport } from '@sigil/core/session'
import { getBase58Decoder, getBase58Encoder, getBase64Decoder, getBase64Encoder, getTransactionDecoder, getTransactionEncoder } from '@solana/kit'
import type { Wallet, WalletAccount } from '@wallet-standard/base'
import { standardWalletProvider } from './adapter.js'
import { standardChain } from './chains.js'
import type { SolanaProvider } from './provider.js'

export const SOLANA_METHODS = ['solana_signMessage', 'solana_signTransaction', 'solana_signAndSendTransaction', 'solana_signAllTransactions']
export const SOLANA_EVENTS = ['accountsChanged', 'chainChanged']

export const encodeBase58 = (bytes: Uint8Array): string => getBase58Decoder().decode(bytes)
/** The bytes of a base58 string (a Solana address or signature); throws on a character outside the alphabet. */
export function decodeBase58(text: string): Uint8Array {
  try {
    return new Uint8Array(getBase58Encoder().encode(text))
  } catch (error) {
    throw new Error(`Invalid base58 "${text}"`, { cause: error })
  }
}
export const bytesToBase64 = (bytes: Uint8Array): string => getBase64Decoder().decode(bytes)
export const base64ToBytes = (text: string): Uint8Array => new Uint8Array(getBase64Encoder().encode(text))

/** The Wallet Standard chain of a CAIP-2 Solana chain: a public cluster by name, any other 'solana:localnet'. */
export const standardSolanaChain = (caip: string): string => standardChain({ id: caip.split(':')[1] ?? '' })

/**
 * Puts `signature` into a wire transaction's signature slot for `signer` (wallets answering
 * solana_signTransaction with the signature only). Throws when `signer` does not sign it.
 */
export function addSignature(wire: Uint8Array, signer: Uint8Array, signature: Uint8Array): Uint8Array {
  const transaction = getTransactionDecoder().decode(wire)
  const address = encodeBase58(signer)
  if (!(address in transaction.signatures)) throw new Error('The transaction has no signature slot for this account')
  const signed = { ...transaction, signatures: { ...transaction.signatures, [address]: signature.subarray(0, 64) } }
  return new Uint8Array(getTransactionEncoder().encode(signed as typeof transaction))
}

type StandardAccount = WalletAccount
type ChangeListener = (properties: { accounts?: readonly StandardAccount[] }) => void

/** The session's Solana accounts as a Wallet Standard wallet (what the adapter wraps in its provider). */
export interface SolanaSessionWallet extends Wallet {
  /** The wallet's accountsChanged: the addresses it now shares. */
  setAddresses(addresses: readonly string[]): void
  /** The CAIP-2 chain the provider follows (messages are signed on it). */
  useChain(caip: string): void
}

const SIGNING_FEATURES = ['solana:signMessage', 'solana:signTransaction'] as const

export function solanaSessionWallet(session: SessionTransport): SolanaSessionWallet {
  let override: string[] | undefined
  let current: string | undefined
  const changes = emitter<{ accounts?: readonly StandardAccount[] }>()
  const part = () => session.namespace('solana')
  const chains = () => [...(part()?.chains ?? [])]
  const methods = () => part()?.methods ?? []
  const canSend = () => methods().includes('solana_signAndSendTransaction')
  const standardChains = () => [...new Set(chains().map(standardSolanaChain))] as `${string}:${string}`[]
  const accounts = (): StandardAccount[] => {
    const addresses = override ?? [...new Set(namespaceAccounts(part()?.accounts ?? [], 'solana').map((a) => a.address))]
    const features = [...SIGNING_FEATURES, ...(canSend() ? ['solana:signAndSendTransaction' as const] : [])]
    return addresses.map((address) => ({ address, publicKey: decodeBase58(address), chains: standardChains(), features }))
  }
  /** The CAIP-2 chain for a Wallet Standard chain ('solana:localnet', …) or a CAIP-2 one: the followed one first. */
  const caipChain = (chain: string | undefined): string => {
    const all = chains()
    const followed = current && all.includes(current) ? current : undefined
    const found = chain
      ? (all.find((c) => c === chain) ?? (followed && standardSolanaChain(followed) === chain ? followed : all.find((c) => standardSolanaChain(c) === chain)))
      : followed
    const first = found ?? all[0]
    if (!first) throw new Error('The session has no Solana chain')
    return first
  }
  const signOne = async (transaction: Uint8Array, account: StandardAccount, chain: string | undefined): Promise<Uint8Array> => {
    const answer = (await session.request(caipChain(chain), 'solana_signTransaction', { transaction: bytesToBase64(transaction) })) as {
      signature?: string
      transaction?: string
    }
    if (answer?.transaction) return base64ToBytes(answer.transaction)
    if (!answer?.signature) throw new Error('the wallet returned no signature')
    return addSignature(transaction, new Uint8Array(account.publicKey), decodeBase58(answer.signature))
  }
  const features: Record<string, unknown> = {
    'standard:connect': { version: '1.0.0', connect: async () => ({ accounts: accounts() }) },
    'standard:events': {
      version: '1.0.0',
      on: (event: string, listener: ChangeListener) => (event === 'change' ? changes.subscribe(listener) : () => undefined),
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
          const signature = decodeBase58(answer.signature)
          // An ed25519 signature is 64 bytes: anything else is not one.
          if (signature.length !== 64) throw new InternalRpcError()
          out.push({ signedMessage: message, signature })
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
  }
  return {
    version: '1.0.0',
    name: session.peer.name,
    icon: (session.peer.icon ?? '') as Wallet['icon'],
    get chains() {
      return standardChains()
    },
    get accounts() {
      return accounts()
    },
    get features() {
      // The wallet signs and sends itself only where the session allows it.
      if (canSend()) return features as Wallet['features']
      const { 'solana:signAndSendTransaction': _left, ...rest } = features
      return rest as Wallet['features']
    },
    setAddresses(addresses) {
      override = [...addresses]
      changes.emit({ accounts: accounts() })
    },
    useChain(caip) {
      current = caip
    },
  }
}

/** The solana family's part of a session. */
export const solanaSession: FamilySession<SolanaProvider> = {
  methods: SOLANA_METHODS,
  events: SOLANA_EVENTS,
  accounts: (transport) =>
    namespaceAccounts(transport.namespace('solana')?.accounts ?? [], 'solana').map(({ chainId, address }) => ({
      namespace: 'solana' as const,
      address,
      type: 'eoa' as const,
      chainId,
    })),
  open(transport, start) {
    const wallet = solanaSessionWallet(transport)
    const provider = standardWalletProvider(wallet, start.network) as SolanaProvider
    if (start.network) wallet.useChain(start.network.caipNetworkId)
    const follow = provider.useNetwork.bind(provider)
    provider.useNetwork = (network) => {
      follow(network)
      wallet.useChain(network.caipNetworkId)
    }
    return {
      provider,
      event(name, data, chainId) {
        if (!chainId?.startsWith('solana:')) return undefined
        if (name === 'accountsChanged') {
          const accounts = eventAddresses(data)
          wallet.setAddresses(accounts)
          return { accounts }
        }
        if (name !== 'chainChanged') return undefined
        // The wallet's cluster: its CAIP-2 id or the reference alone.
        const reference = typeof data === 'string' ? (data.startsWith('solana:') ? data.slice(7) : data) : undefined
        return reference ? { chainId: reference } : undefined
      },
      update() {
        const addresses = [...new Set(solanaSession.accounts(transport).map((a) => a.address))]
        wallet.setAddresses(addresses)
        return addresses
      },
    }
  },
}
