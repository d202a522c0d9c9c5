/*
 * The embedded wallet's Solana provider: the same shape as a Wallet Standard wallet's (see
 * @sigil/adapter-solana's SolanaProvider), so the solana adapter and `useAppKitProvider('solana')`
 * use either alike. The key stays with the Sigil server: messages and transactions go through
 * the frame, which asks the user first. Transactions are @solana/kit's shape (message bytes and
 * signatures by signer), put on the wire here so core needs no Solana library.
 */
import { decodeBase58, encodeBase58 } from '../base58.js'
import { SigilError } from '../errors.js'
import { errors, rpc } from '../messages/core.js'
import { rpcUrlOf } from '../networks.js'
import type { CaipNetwork } from '../types.js'

/** A transaction as @solana/kit holds it: the compiled message and a signature slot per signer, in order. */
export interface SolanaWireTransaction {
  readonly messageBytes: Uint8Array
  readonly signatures: Readonly<Record<string, Uint8Array | null>>
}

export interface EmbeddedSolanaProviderOptions {
  walletName: string
  /** The user's Solana address (base58), once logged in. */
  address(): string | undefined
  /** The network to start on. */
  network: CaipNetwork | undefined
  /** One request through the frame (approval for the signing methods). */
  request(method: string, params: Record<string, unknown>, chainId: string): Promise<unknown>
}

/** Mainnet's CAIP-2 id: what the server signs for when no Solana network is known. */
const MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'

function compactU16(n: number): number[] {
  const out: number[] = []
  let rest = n
  do {
    let byte = rest & 0x7f
    rest >>= 7
    if (rest) byte |= 0x80
    out.push(byte)
  } while (rest)
  return out
}

function toBase64(bytes: Uint8Array): string {
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary)
}

function fromBase64(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
}

/** Solana's wire format: the signature count, each signature (zeros where missing), the message. */
export function encodeWireTransaction(tx: SolanaWireTransaction): Uint8Array {
  const slots = Object.values(tx.signatures)
  const head = compactU16(slots.length)
  const out = new Uint8Array(head.length + slots.length * 64 + tx.messageBytes.length)
  out.set(head, 0)
  slots.forEach((sig, i) => {
    if (sig) out.set(sig, head.length + i * 64)
  })
  out.set(tx.messageBytes, head.length + slots.length * 64)
  return out
}

/** The signatures of a wire-format transaction put back on `tx`'s signers (same message, same order). */
export function withWireSignatures<T extends SolanaWireTransaction>(tx: T, wire: Uint8Array): T {
  let count = 0
  let used = 0
  for (let shift = 0; used < 3; shift += 7) {
    const byte = wire[used++] as number
    count |= (byte & 0x7f) << shift
    if (!(byte & 0x80)) break
  }
  const signers = Object.keys(tx.signatures)
  if (count !== signers.length) throw new SigilError(rpc[-32603] as string, -32603)
  const signatures: Record<string, Uint8Array | null> = {}
  signers.forEach((signer, i) => {
    const sig = wire.slice(used + i * 64, used + (i + 1) * 64)
    signatures[signer] = sig.some((b) => b !== 0) ? sig : null
  })
  return Object.freeze({ ...tx, signatures: Object.freeze(signatures) })
}

/** The embedded wallet's provider for the solana namespace. */
export function createEmbeddedSolanaProvider(options: EmbeddedSolanaProviderOptions) {
  let network = options.network
  const chainId = () => network?.caipNetworkId ?? MAINNET
  const address = () => {
    const found = options.address()
    if (!found) throw new SigilError(rpc[4100] as string, 4100)
    return found
  }
  const signOne = async <T extends SolanaWireTransaction>(tx: T): Promise<T> => {
    const reply = (await options.request('solana_signTransaction', { transaction: toBase64(encodeWireTransaction(tx)) }, chainId())) as {
      transaction: string
    }
    return withWireSignatures(tx, fromBase64(reply.transaction))
  }
  const provider = {
    walletName: options.walletName,
    get address() {
      return options.address() ?? ''
    },
    get publicKey() {
      return decodeBase58(options.address() ?? '') ?? new Uint8Array()
    },
    /** Wallet Standard's name for the cluster; the dev and custom ones are 'solana:localnet'. */
    get chain() {
      const ref = network?.id
      return ref === '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' || ref === undefined
        ? 'solana:mainnet'
        : ref === 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
          ? 'solana:devnet'
          : ref === '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z'
            ? 'solana:testnet'
            : 'solana:localnet'
    },
    get network() {
      return network
    },
    /** Signs `message` (text is UTF-8 encoded) with the user's ed25519 key; the 64-byte signature. */
    async signMessage(message: Uint8Array | string): Promise<Uint8Array> {
      const bytes = typeof message === 'string' ? new TextEncoder().encode(message) : message
      const reply = (await options.request('solana_signMessage', { message: encodeBase58(bytes), pubkey: address() }, chainId())) as { signature: string }
      const signature = decodeBase58(reply.signature)
      if (signature?.length !== 64) throw new SigilError(rpc[-32603] as string, -32603)
      return signature
    },
    signTransaction: signOne,
    async signAllTransactions<T extends SolanaWireTransaction>(transactions: readonly T[]): Promise<T[]> {
      const signed: T[] = []
      for (const tx of transactions) signed.push(await signOne(tx))
      return signed
    },
    /** Signs (with approval), then sends through the network's RPC URL (the Sigil server's proxy). */
    async signAndSendTransaction(transaction: SolanaWireTransaction, sendOptions: Record<string, unknown> = {}): Promise<string> {
      const signed = await signOne(transaction)
      const rpcUrl = network ? rpcUrlOf(network) : undefined
      if (!rpcUrl) throw new SigilError(errors.unsupportedChain, 4901)
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'sendTransaction',
          params: [toBase64(encodeWireTransaction(signed)), { encoding: 'base64', ...sendOptions }],
        }),
      })
      const answer = (await res.json()) as { result?: string; error?: { message?: string } }
      // The chain's own reason, as a wallet would pass it on.
      if (!answer.result) throw new SigilError(answer.error?.message ?? (rpc[-32603] as string), -32603)
      return answer.result
    },
    /** Follows the modal's network (the solana adapter's switchNetwork). */
    useNetwork(next: CaipNetwork) {
      network = next
    },
  }
  return provider
}

export type EmbeddedSolanaProvider = ReturnType<typeof createEmbeddedSolanaProvider>
