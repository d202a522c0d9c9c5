/**
 * A WalletConnect wallet in Node: the official @walletconnect/sign-client 2.21.8 (as a mobile
 * wallet runs it), on the Sigil relay, holding an anvil key. It pairs with a URI read from the
 * page, approves eip155 accounts, answers personal_sign and typed data by signing with the key,
 * sends transactions through anvil, and can change account or chain, or end the session.
 * When the proposal asks for solana or bip122 it approves those too, with an ed25519 key
 * (solana_signMessage answered for real) and a P2WPKH regtest key (signMessage BIP-322 or
 * ECDSA, getAccountAddresses), derived from labels as the injected test wallets' keys are.
 * Storage is in memory (nothing written to disk); telemetry is off.
 */
import { SignClient } from '@walletconnect/sign-client'
import type { SessionTypes, SignClientTypes } from '@walletconnect/types'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { bip322Sign, bitcoinKey, ecdsaSign } from './bitcoin-wallet.js'
import { rpc } from './chain.js'
import { base58, solanaKey } from './solana-wallet.js'

/** The Node wallet's Solana (ed25519) and Bitcoin (P2WPKH, regtest) keys, derived from these labels. */
export const WC_SOLANA_LABEL = 'sigil e2e walletconnect solana'
export const WC_BITCOIN_LABEL = 'sigil e2e walletconnect bitcoin'

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
/** Base58 to bytes (the dapp sends solana_signMessage's message in base58). */
export function fromBase58(text: string): Uint8Array {
  let n = 0n
  for (const char of text) {
    const digit = ALPHABET.indexOf(char)
    if (digit < 0) throw new Error(`not base58: ${text}`)
    n = n * 58n + BigInt(digit)
  }
  const bytes: number[] = []
  while (n > 0n) {
    bytes.unshift(Number(n & 0xffn))
    n >>= 8n
  }
  for (const char of text) {
    if (char !== '1') break
    bytes.unshift(0)
  }
  return Uint8Array.from(bytes)
}

/** anvil's well-known dev keys (accounts 0 and 1). */
export const ANVIL_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
] as const satisfies readonly Hex[]

export const NODE_WALLET_NAME = 'Node Test Wallet'

/** The SDK keeps one Core per storage prefix in the process: each client gets its own. */
let instances = 0
export const uniquePrefix = (name: string) => `${name}-${process.pid}-${++instances}`

class MemoryStorage {
  private map = new Map<string, unknown>()
  async getKeys() {
    return [...this.map.keys()]
  }
  async getEntries<T = unknown>(): Promise<[string, T][]> {
    return [...this.map.entries()] as [string, T][]
  }
  async getItem<T = unknown>(key: string): Promise<T | undefined> {
    return this.map.get(key) as T | undefined
  }
  async setItem<T = unknown>(key: string, value: T) {
    this.map.set(key, value)
  }
  async removeItem(key: string) {
    this.map.delete(key)
  }
}

export interface WalletRequest {
  method: string
  chainId: string
  outcome: 'ok' | 'error'
}

export interface NodeWallet {
  client: InstanceType<typeof SignClient>
  address: string
  /** Requests the dapp sent through the session, in order. */
  log: WalletRequest[]
  /** Pairs with `uri` and approves the proposal with this key's account on `chains`. */
  approve(uri: string, chains: number[]): Promise<SessionTypes.Struct>
  /** Pairs with `uri` and rejects the proposal. */
  reject(uri: string): Promise<void>
  /** The session, once approved. */
  session(): SessionTypes.Struct
  /** The Solana address and Bitcoin payment address it approves when asked for those namespaces. */
  solanaAddress: string
  bitcoinAddress: string
  emitAccounts(addresses: string[], chainId: number): Promise<void>
  emitChain(chainId: number): Promise<void>
  /** Any session event, e.g. Solana's accountsChanged or bip122_addressesChanged, on a CAIP-2 chain. */
  emitEvent(name: string, data: unknown, chainId: string): Promise<void>
  /** The wallet ends the session. */
  disconnect(): Promise<void>
  /** Resolves when the dapp ends the session. */
  ended(): Promise<void>
  close(): Promise<void>
}

export async function startNodeWallet(options: {
  relayUrl: string
  projectId: string
  rpcUrl: string
  key?: Hex
  solanaLabel?: string
  bitcoinLabel?: string
}): Promise<NodeWallet> {
  const account: PrivateKeyAccount = privateKeyToAccount(options.key ?? ANVIL_KEYS[0])
  const solanaLabel = options.solanaLabel ?? WC_SOLANA_LABEL
  const bitcoinLabel = options.bitcoinLabel ?? WC_BITCOIN_LABEL
  const sol = solanaKey(solanaLabel)
  const btc = bitcoinKey(bitcoinLabel)
  const client = await SignClient.init({
    projectId: options.projectId,
    relayUrl: options.relayUrl,
    metadata: { name: NODE_WALLET_NAME, description: 'A wallet in Node for the tests', url: 'http://127.0.0.1', icons: [] },
    // biome-ignore lint/suspicious/noExplicitAny: the SDK's storage interface, implemented in memory
    storage: new MemoryStorage() as any,
    telemetryEnabled: false,
    logger: 'silent',
    customStoragePrefix: uniquePrefix('node-wallet'),
  })
  // A dapp page's proposal carries a Verify attestation: the wallet checks it with the key the
  // Sigil server publishes (/v3/public-key), never the vendor's host.
  const verifyUrl = `${options.relayUrl.replace(/^ws/, 'http').replace(/\/relay$/, '')}/v3`
  ;(client.core.verify as unknown as { verifyUrlV3: string }).verifyUrlV3 = verifyUrl
  const log: WalletRequest[] = []
  let current: SessionTypes.Struct | undefined
  let endedResolve: () => void = () => undefined
  let endedPromise = new Promise<void>((r) => (endedResolve = r))

  client.on('session_delete', ({ topic }) => {
    if (topic === current?.topic) {
      current = undefined
      endedResolve()
    }
  })

  client.on('session_request', async ({ id, topic, params }: SignClientTypes.EventArguments['session_request']) => {
    const { request, chainId } = params
    const p = (request.params ?? []) as unknown[]
    try {
      let result: unknown
      switch (request.method) {
        case 'personal_sign':
          result = await account.signMessage({ message: { raw: p[0] as Hex } })
          break
        case 'eth_signTypedData_v4':
          result = await account.signTypedData(JSON.parse(p[1] as string))
          break
        case 'eth_sendTransaction':
          // anvil's accounts are unlocked: the chain signs for this key's account.
          result = await rpc(options.rpcUrl, 'eth_sendTransaction', [{ ...(p[0] as object), from: account.address }])
          break
        case 'solana_signMessage': {
          // WalletConnect's Solana RPC: { message (base58), pubkey } -> { signature (base58) }
          const { message, pubkey } = request.params as { message: string; pubkey: string }
          if (pubkey !== sol.address) throw Object.assign(new Error(`Unknown account ${pubkey}`), { code: 4100 })
          result = { signature: base58(sol.sign(fromBase58(message))) }
          break
        }
        case 'signMessage': {
          // WalletConnect's Bitcoin RPC: { account, address, message, protocol } -> { address, signature, messageHash }
          const { address, message, protocol } = request.params as { address?: string; message: string; protocol?: string }
          if (address && address !== btc.address) throw Object.assign(new Error(`Unknown address ${address}`), { code: 4100 })
          const signature = protocol === 'ecdsa' ? ecdsaSign(bitcoinLabel, message) : bip322Sign(bitcoinLabel, message)
          result = { address: btc.address, signature, messageHash: '' }
          break
        }
        case 'getAccountAddresses':
          result = [{ address: btc.address, publicKey: btc.publicKey, path: "m/84'/1'/0'/0/0", intention: 'payment' }]
          break
        default:
          throw Object.assign(new Error(`Unsupported method ${request.method}`), { code: 4200 })
      }
      log.push({ method: request.method, chainId, outcome: 'ok' })
      await client.respond({ topic, response: { id, jsonrpc: '2.0', result } })
    } catch (error) {
      log.push({ method: request.method, chainId, outcome: 'error' })
      const code = (error as { code?: number }).code ?? 5000
      await client.respond({ topic, response: { id, jsonrpc: '2.0', error: { code, message: (error as Error).message } } })
    }
  })

  const session = () => {
    if (!current) throw new Error('the Node wallet has no session')
    return current
  }

  const proposal = (uri: string) =>
    new Promise<SignClientTypes.EventArguments['session_proposal']>((resolve, reject) => {
      client.once('session_proposal', resolve)
      client.core.pairing.pair({ uri }).catch(reject)
    })

  return {
    client,
    address: account.address,
    log,
    async approve(uri, chains) {
      const { id, params } = await proposal(uri)
      const wanted = params.optionalNamespaces.eip155 ?? params.requiredNamespaces.eip155
      const asked = (ns: string) => params.optionalNamespaces[ns] ?? params.requiredNamespaces[ns]
      // Solana and Bitcoin accounts on every chain the dapp asked for there.
      const family = (ns: string, address: string) => {
        const proposal = asked(ns)
        if (!proposal?.chains?.length) return {}
        return {
          [ns]: { chains: proposal.chains, accounts: proposal.chains.map((c) => `${c}:${address}`), methods: proposal.methods, events: proposal.events },
        }
      }
      const { acknowledged } = await client.approve({
        id,
        namespaces: {
          eip155: {
            chains: chains.map((c) => `eip155:${c}`),
            accounts: chains.map((c) => `eip155:${c}:${account.address}`),
            methods: wanted?.methods ?? ['personal_sign', 'eth_sendTransaction'],
            events: wanted?.events ?? ['accountsChanged', 'chainChanged'],
          },
          ...family('solana', sol.address),
          ...family('bip122', btc.address),
        },
      })
      current = await acknowledged()
      endedPromise = new Promise<void>((r) => (endedResolve = r))
      return current
    },
    async reject(uri) {
      const { id } = await proposal(uri)
      await client.reject({ id, reason: { code: 5000, message: 'User rejected.' } })
    },
    session,
    solanaAddress: sol.address,
    bitcoinAddress: btc.address,
    async emitEvent(name, data, chainId) {
      const { topic } = session()
      await client.emit({ topic, event: { name, data }, chainId })
    },
    async emitAccounts(addresses, chainId) {
      const { topic } = session()
      await client.emit({ topic, event: { name: 'accountsChanged', data: addresses }, chainId: `eip155:${chainId}` })
    },
    async emitChain(chainId) {
      const { topic } = session()
      await client.emit({ topic, event: { name: 'chainChanged', data: chainId }, chainId: `eip155:${chainId}` })
    },
    async disconnect() {
      const { topic } = session()
      current = undefined
      await client.disconnect({ topic, reason: { code: 6000, message: 'User disconnected.' } })
    },
    ended: () => endedPromise,
    async close() {
      await client.core.relayer.transportClose().catch(() => undefined)
    },
  }
}
