/*
 * Contract calls from the connected account over any EIP-1193 provider (the swap feature's
 * approve and swap, and a host app's EIP-5792 calls through core's sendCalls): one atomic
 * EIP-5792 batch (`wallet_sendCalls`, one confirmation) where the wallet's
 * `wallet_getCapabilities` says `atomic` is `supported` or `ready` on the chain, else one
 * `eth_sendTransaction` after the other, each waiting for the one before it to be on chain.
 * Loaded with the first swap or the first host call only.
 */
import type { CallBatch, CallsReceipt, CallsRequest, CallsStatus, CaipNetwork, Eip1193Provider, FamilyCalls, HostCall, WalletCapabilities } from '@sigil/core'
import { sendAndWait } from './send.js'

const hex = (value: bigint) => `0x${value.toString(16)}`
const chainHex = (network: CaipNetwork) => hex(BigInt(network.id))

/** What a wallet's capabilities say of atomic batches on one chain (EIP-5792; `atomicBatch.supported` is the older form). */
type ChainCapabilities = { atomic?: { status?: string }; atomicBatch?: { supported?: boolean } }

/** The wallet's EIP-5792 capabilities for `address` on `chainIds` (hex), as it answers (`wallet_getCapabilities`). */
export async function evmCapabilities(provider: Eip1193Provider, address: string, chainIds?: readonly string[]): Promise<WalletCapabilities> {
  const answer = await provider.request({ method: 'wallet_getCapabilities', params: chainIds ? [address, chainIds] : [address] })
  return typeof answer === 'object' && answer !== null ? (answer as WalletCapabilities) : {}
}

/** Whether capabilities say atomic batches are sent on `chain` (hex): `atomic` `supported` or `ready`, or the older `atomicBatch`. */
export function atomicIn(capabilities: WalletCapabilities, chain: string): boolean {
  const own = (capabilities[chain] ?? capabilities[String(Number(chain))] ?? capabilities['0x0']) as ChainCapabilities | undefined
  const status = own?.atomic?.status
  return status === 'supported' || status === 'ready' || own?.atomicBatch?.supported === true
}

/** Whether the wallet sends atomic batches on `network` for `from`; no when it cannot say. */
export async function evmAtomic(provider: Eip1193Provider, from: string, network: CaipNetwork): Promise<boolean> {
  const chain = chainHex(network)
  const answer = await evmCapabilities(provider, from, [chain]).catch(() => ({}))
  return atomicIn(answer, chain)
}

/** A status as wallets answer it: EIP-5792 v2 (numbers) or v1 ('PENDING' | 'CONFIRMED'). */
interface WalletCallsStatus {
  status?: number | string
  receipts?: { transactionHash?: string; status?: string }[]
}

/** Reads a batch's status until it is final (up to `timeoutMs`); resolves to the last receipt's hash. */
async function waitForBatch(provider: Eip1193Provider, id: string, timeoutMs: number, onSubmitted?: (hash: string) => void): Promise<string> {
  const deadline = Date.now() + timeoutMs
  let delay = 250
  let told: string | undefined
  while (Date.now() < deadline) {
    const answer = (await provider.request({ method: 'wallet_getCallsStatus', params: [id] }).catch(() => null)) as WalletCallsStatus | null
    const receipts = answer?.receipts ?? []
    const last = receipts[receipts.length - 1]?.transactionHash
    if (last && last !== told) {
      told = last
      onSubmitted?.(last)
    }
    const status = answer?.status
    // EIP-5792 v2: 1xx pending, 200 confirmed, 4xx refused off chain, 5xx/6xx reverted; v1: 'PENDING' | 'CONFIRMED'.
    const code = typeof status === 'number' ? status : status === 'CONFIRMED' ? 200 : status === 'PENDING' ? 100 : undefined
    const reverted = receipts.some((r) => r.status === '0x0')
    if (reverted || (code !== undefined && code >= 500)) throw Object.assign(new Error(`execution reverted (batch ${id})`), { code: 3 })
    if (code !== undefined && code >= 400) throw Object.assign(new Error(`The wallet did not send the batch (status ${code})`), { code: 5000 })
    if (code === 200 && last) return last
    await new Promise((resolve) => setTimeout(resolve, delay))
    delay = Math.min(delay * 2, 2000)
  }
  if (told) return told
  throw Object.assign(new Error('The request took too long to respond.'), { code: 5000 })
}

/**
 * A call's gas limit, asked once the calls before it are on chain: the node's estimate and a
 * fifth more (the send's rule: a first swap through a Uniswap V2 pool in a new block writes its
 * price accumulators, which an estimate in the last block's time leaves out), or `given` (the
 * server's) when that is more; `given` alone when the node cannot say; else the wallet's own.
 */
async function gasLimit(provider: Eip1193Provider, call: object, given: bigint | undefined): Promise<bigint | undefined> {
  const estimated = await provider.request({ method: 'eth_estimateGas', params: [call] }).then(
    (g) => (BigInt(String(g)) * 6n) / 5n,
    () => undefined,
  )
  if (estimated === undefined) return given
  return given !== undefined && given > estimated ? given : estimated
}

/** The `wallet_sendCalls` (EIP-5792 2.0.0) call for `request`: values in hex, no gas (the wallet sets the batch's). */
export async function sendEvmBundle(provider: Eip1193Provider, request: CallsRequest): Promise<{ id: string; capabilities?: Record<string, unknown> }> {
  const { from, chainId, atomicRequired, id, capabilities } = request
  const answer = (await provider.request({
    method: 'wallet_sendCalls',
    params: [
      {
        version: '2.0.0',
        chainId,
        from,
        atomicRequired,
        calls: request.calls.map(wireCall),
        ...(id !== undefined ? { id } : {}),
        ...(capabilities ? { capabilities } : {}),
      },
    ],
  })) as { id?: string; capabilities?: Record<string, unknown> } | string
  // EIP-5792 v1 wallets answer with the id alone.
  if (typeof answer === 'string') return { id: answer }
  return { id: String(answer?.id), ...(answer?.capabilities ? { capabilities: answer.capabilities } : {}) }
}

/** A bundle's status as the wallet answers `wallet_getCallsStatus`. */
export async function evmBundleStatus(provider: Eip1193Provider, id: string): Promise<CallsStatus> {
  return (await provider.request({ method: 'wallet_getCallsStatus', params: [id] })) as CallsStatus
}

const wireCall = (c: HostCall) => ({ to: c.to, ...(c.data ? { data: c.data } : {}), ...(c.value ? { value: hex(c.value) } : {}) })

/**
 * Sends one call from `from` as its own transaction with its gas limit (see gasLimit; `gas`: the
 * server's), its hash to `onSubmitted` once the wallet accepted it; resolves to the hash once
 * the chain has it (a revert rejects with code 3).
 */
export async function sendEvmCall(
  provider: Eip1193Provider,
  from: string,
  call: HostCall & { gas?: bigint },
  options: { timeoutMs?: number; onSubmitted?: ((hash: string) => void) | undefined } = {},
): Promise<string> {
  const wire = wireCall(call)
  const gas = await gasLimit(provider, { from, ...wire }, call.gas)
  const transaction = { from, ...wire, ...(gas !== undefined ? { gas: hex(gas) } : {}) }
  return sendAndWait(provider, transaction, { timeoutMs: options.timeoutMs ?? 120_000, onSubmitted: options.onSubmitted })
}

/** A transaction's receipt in EIP-5792's shape; undefined while the chain does not have it. */
export async function evmReceipt(provider: Eip1193Provider, hash: string): Promise<CallsReceipt | undefined> {
  const r = (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as Partial<CallsReceipt> | null
  if (!r) return undefined
  return {
    logs: (r.logs ?? []).map((l) => ({ address: l.address, data: l.data, topics: l.topics })),
    status: String(r.status),
    blockHash: String(r.blockHash),
    blockNumber: String(r.blockNumber),
    gasUsed: String(r.gasUsed),
    transactionHash: r.transactionHash ?? hash,
  }
}

/**
 * Sends the batch's calls: as one atomic `wallet_sendCalls` (version 2.0.0, `atomicRequired`)
 * when `batch.atomic`, followed through `wallet_getCallsStatus`; else each as its own
 * transaction (sendEvmCall), the next once the one before has its receipt. Resolves to the last
 * call's transaction hash; a revert rejects with code 3.
 */
export async function sendEvmCalls(provider: Eip1193Provider, batch: CallBatch, options: { timeoutMs?: number } = {}): Promise<string> {
  const timeoutMs = options.timeoutMs ?? 120_000
  if (batch.atomic) {
    const { id } = await sendEvmBundle(provider, { from: batch.from, chainId: chainHex(batch.network), atomicRequired: true, calls: batch.calls })
    return waitForBatch(provider, id, timeoutMs, batch.onSubmitted)
  }
  let hash = ''
  for (const [i, call] of batch.calls.entries()) {
    const last = i === batch.calls.length - 1
    hash = await sendEvmCall(provider, batch.from, call, { timeoutMs, ...(last ? { onSubmitted: batch.onSubmitted } : {}) })
  }
  return hash
}

/** The eip155 calls capability. */
export const evmCalls: FamilyCalls<Eip1193Provider> = {
  atomic: evmAtomic,
  send: sendEvmCalls,
  capabilities: evmCapabilities,
  sendBundle: sendEvmBundle,
  bundleStatus: evmBundleStatus,
  sendCall: (provider, from, call, options) => sendEvmCall(provider, from, call, options),
  receipt: evmReceipt,
}
