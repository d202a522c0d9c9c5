import { FakeProvider } from './fake-provider.js'

export const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

export interface CallsWalletOptions {
  /** What `wallet_getCapabilities` says of atomic batches on the chain; no answer at all (code 4200) when `false`. */
  atomic?: 'supported' | 'ready' | 'unsupported' | false
  /** More capabilities of the chain (`paymasterService`, …). */
  capabilities?: Record<string, unknown>
  /** Each transaction is mined when sent unless `manual` (then `mine(n)` mines the n-th, 1-based). */
  mining?: 'auto' | 'manual'
  /** Transactions (1-based) whose receipt says reverted. */
  reverts?: number[]
}

/**
 * A fake EIP-1193 wallet on chain 1 that sends transactions (their hashes 0x…01, 0x…02, …) and
 * mines them, and, as capabilities say, EIP-5792 batches (`wallet_sendCalls` answering
 * 'wallet-bundle-1', …; `wallet_getCallsStatus` confirmed).
 */
export function callsWallet(options: CallsWalletOptions = {}) {
  const provider = new FakeProvider()
  const sent: { from: string; to: string; data?: string; value?: string }[] = []
  const receipts = new Map<string, Record<string, unknown>>()
  const bundles: Record<string, unknown>[] = []
  const reverts = new Set(options.reverts ?? [])
  const chain = () => `0x${provider.chainId.toString(16)}`
  const mine = (n: number) => {
    const hash = hashOf(n)
    receipts.set(hash, {
      status: reverts.has(n) ? '0x0' : '0x1',
      transactionHash: hash,
      blockHash: `0x${'b'.repeat(64)}`,
      blockNumber: `0x${n.toString(16)}`,
      gasUsed: '0x5208',
      logs: [],
    })
  }
  if (options.atomic !== false)
    provider.handlers.set('wallet_getCapabilities', () => ({
      [chain()]: { ...(options.atomic ? { atomic: { status: options.atomic } } : {}), ...options.capabilities },
    }))
  provider.handlers.set('eth_estimateGas', () => '0x5208')
  provider.handlers.set('eth_sendTransaction', (params) => {
    sent.push((params as [(typeof sent)[number]])[0])
    if (options.mining !== 'manual') mine(sent.length)
    return hashOf(sent.length)
  })
  provider.handlers.set('eth_getTransactionReceipt', (params) => receipts.get((params as [string])[0]) ?? null)
  if (options.atomic === 'supported' || options.atomic === 'ready') {
    provider.handlers.set('wallet_sendCalls', (params) => {
      bundles.push((params as [Record<string, unknown>])[0])
      return { id: `wallet-bundle-${bundles.length}` }
    })
    provider.handlers.set('wallet_getCallsStatus', (params) => {
      const id = (params as [string])[0]
      if (!/^wallet-bundle-\d+$/.test(id)) throw Object.assign(new Error('Unknown bundle id'), { code: 5730 })
      return { version: '2.0.0', id, chainId: chain(), status: 200, atomic: true, receipts: [] }
    })
  }
  return { provider, sent, bundles, mine, receipts }
}
