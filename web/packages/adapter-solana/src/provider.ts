import { rpcUrlOf, toSigilError, UnsupportedChainError, type CaipNetwork } from '@sigil/core'
import type { Transaction } from '@solana/kit'
import type { Wallet, WalletAccount } from '@wallet-standard/base'
import { encodeBase58 } from './base58.js'
import { standardChain, type SolanaChain } from './chains.js'
import { call } from './rpc.js'

/** Options of signAndSendTransaction (spec section 3: the frame's Solana RPC methods take the same). */
export interface SendOptions {
  skipPreflight?: boolean
  preflightCommitment?: 'processed' | 'confirmed' | 'finalized'
  maxRetries?: number
  minContextSlot?: number
}

/**
 * What `useAppKitProvider('solana')` gives while a Solana wallet is connected: the wallet's
 * account on the modal's active Solana network, signing through the wallet's Wallet Standard
 * features. Transactions are @solana/kit `Transaction`s.
 */
export interface SolanaProvider {
  readonly walletName: string
  /** The account's base58 address. */
  readonly address: string
  /** The account's public key bytes. */
  readonly publicKey: Uint8Array
  /** The Wallet Standard chain the provider signs for ('solana:devnet', …). */
  readonly chain: SolanaChain
  /** The modal's network it follows. */
  readonly network: CaipNetwork | undefined
  /** Signs `message` (text is UTF-8 encoded); resolves to the 64-byte ed25519 signature. */
  signMessage(message: Uint8Array | string): Promise<Uint8Array>
  /** Has the wallet sign a transaction; resolves to it with the account's signature added. */
  signTransaction<T extends Transaction>(transaction: T): Promise<T>
  /** Has the wallet sign several transactions, in order. */
  signAllTransactions<T extends Transaction>(transactions: readonly T[]): Promise<T[]>
  /** Has the wallet sign and send a transaction on its chain; resolves to its base58 signature. */
  signAndSendTransaction(transaction: Transaction, options?: SendOptions): Promise<string>
  /** @internal Follows the modal's network (the adapter's switchNetwork). */
  useNetwork(network: CaipNetwork): void
}

interface SignMessageFeature {
  signMessage(...inputs: { account: WalletAccount; message: Uint8Array }[]): Promise<readonly { signedMessage: Uint8Array; signature: Uint8Array }[]>
}
interface SignTransactionFeature {
  signTransaction(...inputs: { account: WalletAccount; transaction: Uint8Array; chain?: string }[]): Promise<readonly { signedTransaction: Uint8Array }[]>
}
interface SignAndSendFeature {
  signAndSendTransaction(
    ...inputs: { account: WalletAccount; transaction: Uint8Array; chain: string; options?: SendOptions }[]
  ): Promise<readonly { signature: Uint8Array }[]>
}

/** A feature of the wallet, or a SigilError when it lacks it. */
function feature<T>(wallet: Wallet, name: string): T {
  const found = (wallet.features as Record<string, unknown>)[name]
  if (!found) throw toSigilError(new Error(`${wallet.name} does not support ${name}`))
  return found as T
}

/** A provider over `wallet` whose account is whatever `account()` currently gives. */
export function createSolanaProvider(wallet: Wallet, account: () => WalletAccount, network: CaipNetwork | undefined): SolanaProvider {
  let current = network
  const chain = (): SolanaChain => (current ? standardChain(current) : 'solana:mainnet')
  const wrap = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      throw toSigilError(error)
    }
  }
  const signAll = async <T extends Transaction>(transactions: readonly T[]): Promise<T[]> => {
    const { getTransactionDecoder, getTransactionEncoder } = await import('@solana/kit')
    const encoder = getTransactionEncoder()
    const decoder = getTransactionDecoder()
    return wrap(async () => {
      const signed = await feature<SignTransactionFeature>(wallet, 'solana:signTransaction').signTransaction(
        ...transactions.map((tx) => ({ account: account(), transaction: new Uint8Array(encoder.encode(tx)), chain: chain() })),
      )
      return signed.map(({ signedTransaction }) => decoder.decode(signedTransaction) as T)
    })
  }
  return {
    walletName: wallet.name,
    get address() {
      return account().address
    },
    get publicKey() {
      return new Uint8Array(account().publicKey)
    },
    get chain() {
      return chain()
    },
    get network() {
      return current
    },
    signMessage: (message) =>
      wrap(async () => {
        const bytes = typeof message === 'string' ? new TextEncoder().encode(message) : message
        const [out] = await feature<SignMessageFeature>(wallet, 'solana:signMessage').signMessage({ account: account(), message: bytes })
        if (!out) throw new Error('the wallet returned no signature')
        return out.signature
      }),
    signTransaction: async (transaction) => {
      const [signed] = await signAll([transaction])
      return signed as typeof transaction
    },
    signAllTransactions: signAll,
    async signAndSendTransaction(transaction, options) {
      if (!(wallet.features as Record<string, unknown>)['solana:signAndSendTransaction']) {
        // A wallet that only signs (the embedded wallet): signed there, sent here through the
        // network's RPC endpoint (the Sigil server's proxy).
        const { getBase64EncodedWireTransaction } = await import('@solana/kit')
        const [signed] = await signAll([transaction])
        const rpcUrl = current ? rpcUrlOf(current) : undefined
        if (!signed || !rpcUrl) throw new UnsupportedChainError('solana')
        return wrap(() => call<string>(rpcUrl, 'sendTransaction', [getBase64EncodedWireTransaction(signed), { encoding: 'base64', ...options }]))
      }
      const { getTransactionEncoder } = await import('@solana/kit')
      const bytes = new Uint8Array(getTransactionEncoder().encode(transaction))
      return wrap(async () => {
        const [out] = await feature<SignAndSendFeature>(wallet, 'solana:signAndSendTransaction').signAndSendTransaction({
          account: account(),
          transaction: bytes,
          chain: chain(),
          ...(options ? { options } : {}),
        })
        if (!out) throw new Error('the wallet returned no signature')
        return encodeBase58(out.signature)
      })
    },
    useNetwork(network) {
      current = network
    },
  }
}
