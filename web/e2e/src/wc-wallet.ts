/**
 * A WalletConnect wallet in Node: the official @walletconnect/sign-client 2.21.8 (as a mobile
 * wallet runs it), on the Sigil relay, holding an anvil key. It pairs with a URI read from the
 * page, approves eip155 accounts, answers personal_sign and typed data by signing with the key,
 * sends transactions through anvil, and can change account or chain, or end the session.
 * Storage is in memory (nothing written to disk); telemetry is off.
 */
import { SignClient } from '@walletconnect/sign-client'
import type { SessionTypes, SignClientTypes } from '@walletconnect/types'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import type { Hex } from 'viem'
import { rpc } from './chain.js'

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
  emitAccounts(addresses: string[], chainId: number): Promise<void>
  emitChain(chainId: number): Promise<void>
  /** The wallet ends the session. */
  disconnect(): Promise<void>
  /** Resolves when the dapp ends the session. */
  ended(): Promise<void>
  close(): Promise<void>
}

export async function startNodeWallet(options: { relayUrl: string; projectId: string; rpcUrl: string; key?: Hex }): Promise<NodeWallet> {
  const account: PrivateKeyAccount = privateKeyToAccount(options.key ?? ANVIL_KEYS[0])
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
      const { acknowledged } = await client.approve({
        id,
        namespaces: {
          eip155: {
            chains: chains.map((c) => `eip155:${c}`),
            accounts: chains.map((c) => `eip155:${c}:${account.address}`),
            methods: wanted?.methods ?? ['personal_sign', 'eth_sendTransaction'],
            events: wanted?.events ?? ['accountsChanged', 'chainChanged'],
          },
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
