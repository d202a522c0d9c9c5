/*
 * Contract calls from the connected account over any EIP-1193 provider (the swap feature's
 * approve and swap): one atomic EIP-5792 batch (`wallet_sendCalls`, one confirmation) where the
 * wallet's `wallet_getCapabilities` says `atomic` is `supported` or `ready` on the chain, else
 * one `eth_sendTransaction` after the other, each waiting for the one before it to be on chain.
 * Loaded with the first swap only.
 */
import type { CallBatch, CaipNetwork, Eip1193Provider, FamilyCalls } from '@sigil/core'
import { sendAndWait } from './send.js'

const hex = (value: bigint) => `0x${value.toString(16)}`
const chainHex = (network: CaipNetwork) => hex(BigInt(network.id))

/** What a wallet's capabilities say of atomic batches on one chain (EIP-5792; `atomicBatch.supported` is the older form). */
type ChainCapabilities = { atomic?: { status?: string }; atomicBatch?: { supported?: boolean } }

/** Whether the wallet sends atomic batches on `network` for `from`; no when it cannot say. */
export async function evmAtomic(provider: Eip1193Provider, from: string, network: CaipNetwork): Promise<boolean> {
  const chain = chainHex(network)
  const answer = (await provider.request({ method: 'wallet_getCapabilities', params: [from, [chain]] }).catch(() => undefined)) as
    | Record<string, ChainCapabilities>
    | undefined
  const own = answer?.[chain] ?? answer?.[String(network.id)] ?? answer?.['0x0']
  const status = own?.atomic?.status
  return status === 'supported' || status === 'ready' || own?.atomicBatch?.supported === true
}

interface CallsStatus {
  status?: number | string
  receipts?: { transactionHash?: string; status?: string }[]
}

/** Reads a batch's status until it is final (up to `timeoutMs`); resolves to the last receipt's hash. */
async function waitForBatch(provider: Eip1193Provider, id: string, timeoutMs: number, onSubmitted?: (hash: string) => void): Promise<string> {
  const deadline = Date.now() + timeoutMs
  let delay = 250
  let told: string | undefined
  while (Date.now() < deadline) {
    const answer = (await provider.request({ method: 'wallet_getCallsStatus', params: [id] }).catch(() => null)) as CallsStatus | null
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

/**
 * Sends the batch's calls: as one atomic `wallet_sendCalls` (version 2.0.0, `atomicRequired`)
 * when `batch.atomic`, followed through `wallet_getCallsStatus`; else each as its own
 * transaction with its gas limit (see gasLimit), the next once the one before has its receipt. Resolves to the last call's
 * transaction hash; a revert rejects with code 3.
 */
export async function sendEvmCalls(provider: Eip1193Provider, batch: CallBatch, options: { timeoutMs?: number } = {}): Promise<string> {
  const timeoutMs = options.timeoutMs ?? 120_000
  const calls = batch.calls.map((c) => ({ to: c.to, data: c.data, ...(c.value ? { value: hex(c.value) } : {}) }))
  if (batch.atomic) {
    // EIP-5792 calls carry no gas: the wallet sets the batch's.
    const answer = (await provider.request({
      method: 'wallet_sendCalls',
      params: [{ version: '2.0.0', chainId: chainHex(batch.network), from: batch.from, atomicRequired: true, calls }],
    })) as { id?: string } | string
    const id = typeof answer === 'string' ? answer : String(answer?.id)
    return waitForBatch(provider, id, timeoutMs, batch.onSubmitted)
  }
  let hash = ''
  for (const [i, call] of calls.entries()) {
    const last = i === calls.length - 1
    const gas = await gasLimit(provider, { from: batch.from, ...call }, batch.calls[i]?.gas)
    const transaction = { from: batch.from, ...call, ...(gas !== undefined ? { gas: hex(gas) } : {}) }
    hash = await sendAndWait(provider, transaction, { timeoutMs, ...(last ? { onSubmitted: batch.onSubmitted } : {}) })
  }
  return hash
}

/** The eip155 calls capability. */
export const evmCalls: FamilyCalls<Eip1193Provider> = { atomic: evmAtomic, send: sendEvmCalls }
