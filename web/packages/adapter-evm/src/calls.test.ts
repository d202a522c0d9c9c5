import type { CallBatch, Eip1193Provider } from '@sigil/core'
import { sigilDev } from '@sigil/core/networks'
import { describe, expect, it, vi } from 'vitest'
import { evmAdapter } from './adapter.js'
import { evmAtomic, sendEvmCalls } from './calls.js'

const FROM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const ROUTER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`
const network = sigilDev()
const chain = `0x${Number(network.id).toString(16)}`

function provider(answers: Record<string, (params: unknown) => unknown>) {
  const request = vi.fn(async ({ method, params }: { method: string; params?: unknown }) => {
    const answer = answers[method]
    if (!answer) throw Object.assign(new Error(`no ${method}`), { code: 4200 })
    return answer(params)
  })
  return { request } as unknown as Eip1193Provider & { request: typeof request }
}

const batch = (atomic: boolean, onSubmitted?: (hash: string) => void): CallBatch => ({
  from: FROM,
  network,
  atomic,
  calls: [
    { to: TOKEN, data: '0x095ea7b3' },
    { to: ROUTER, data: '0x7ff36ab5', value: 16n, gas: 150_000n },
  ],
  onSubmitted,
})

describe('EVM calls (the swap’s approve and swap)', () => {
  it('the adapter offers the capability, loaded on first use', async () => {
    const calls = await evmAdapter().calls?.load()
    expect(typeof calls?.send).toBe('function')
    expect(typeof calls?.atomic).toBe('function')
  })

  it('batches atomically only where the wallet says atomic is supported or ready on the chain', async () => {
    for (const [status, expected] of [
      ['supported', true],
      ['ready', true],
      ['unsupported', false],
    ] as const) {
      const p = provider({ wallet_getCapabilities: () => ({ [chain]: { atomic: { status } } }) })
      expect(await evmAtomic(p, FROM, network)).toBe(expected)
      expect(p.request).toHaveBeenCalledWith({ method: 'wallet_getCapabilities', params: [FROM, [chain]] })
    }
    expect(await evmAtomic(provider({ wallet_getCapabilities: () => ({ [chain]: { atomicBatch: { supported: true } } }) }), FROM, network)).toBe(true)
    expect(await evmAtomic(provider({ wallet_getCapabilities: () => ({ '0x1': { atomic: { status: 'supported' } } }) }), FROM, network)).toBe(false)
    // A wallet without EIP-5792.
    expect(await evmAtomic(provider({}), FROM, network)).toBe(false)
  })

  it('an atomic batch is one wallet_sendCalls, followed to its receipts', async () => {
    let polls = 0
    const onSubmitted = vi.fn()
    const p = provider({
      wallet_sendCalls: () => ({ id: 'batch-1' }),
      wallet_getCallsStatus: () => (++polls < 2 ? { status: 100, receipts: [] } : { status: 200, receipts: [{ transactionHash: hashOf(2), status: '0x1' }] }),
    })
    expect(await sendEvmCalls(p, batch(true, onSubmitted))).toBe(hashOf(2))
    expect(p.request).toHaveBeenCalledWith({
      method: 'wallet_sendCalls',
      params: [
        {
          version: '2.0.0',
          chainId: chain,
          from: FROM,
          atomicRequired: true,
          calls: [
            { to: TOKEN, data: '0x095ea7b3' },
            { to: ROUTER, data: '0x7ff36ab5', value: '0x10' },
          ],
        },
      ],
    })
    expect(p.request.mock.calls.filter(([r]) => r.method === 'eth_sendTransaction')).toHaveLength(0)
    expect(onSubmitted).toHaveBeenCalledWith(hashOf(2))
  })

  it('without an estimate, the server’s gas limit, else the wallet’s own', async () => {
    const p = provider({ eth_sendTransaction: () => hashOf(9), eth_getTransactionReceipt: () => ({ status: '0x1' }) })
    await sendEvmCalls(p, batch(false))
    expect(p.request).toHaveBeenCalledWith({ method: 'eth_sendTransaction', params: [{ from: FROM, to: TOKEN, data: '0x095ea7b3' }] })
    expect(p.request).toHaveBeenCalledWith({
      method: 'eth_sendTransaction',
      params: [{ from: FROM, to: ROUTER, data: '0x7ff36ab5', value: '0x10', gas: '0x249f0' }],
    })
  })

  it('a reverted batch rejects as a revert', async () => {
    const p = provider({
      wallet_sendCalls: () => 'batch-2',
      wallet_getCallsStatus: () => ({ status: 500, receipts: [{ transactionHash: hashOf(3), status: '0x0' }] }),
    })
    await expect(sendEvmCalls(p, batch(true))).rejects.toMatchObject({ code: 3 })
  })

  it('otherwise one transaction after the other, the swap once the approval is on chain', async () => {
    const order: string[] = []
    let n = 0
    const onSubmitted = vi.fn()
    const p = provider({
      // 100,000 for the approval, 140,000 for the swap.
      eth_estimateGas: (params) => ((params as [{ to: string }])[0].to === TOKEN ? '0x186a0' : '0x222e0'),
      eth_sendTransaction: (params) => {
        const [tx] = params as [{ to: string }]
        order.push(`send ${tx.to}`)
        return hashOf(++n)
      },
      eth_getTransactionReceipt: (params) => {
        order.push(`receipt ${(params as [string])[0]}`)
        return { status: '0x1' }
      },
    })
    expect(await sendEvmCalls(p, batch(false, onSubmitted))).toBe(hashOf(2))
    expect(order).toEqual([`send ${TOKEN}`, `receipt ${hashOf(1)}`, `send ${ROUTER}`, `receipt ${hashOf(2)}`])
    // Each carries the node's estimate and a fifth more (120,000; 168,000), or the server's limit when that is more.
    expect(p.request).toHaveBeenCalledWith({ method: 'eth_sendTransaction', params: [{ from: FROM, to: TOKEN, data: '0x095ea7b3', gas: '0x1d4c0' }] })
    expect(p.request).toHaveBeenCalledWith({
      method: 'eth_sendTransaction',
      params: [{ from: FROM, to: ROUTER, data: '0x7ff36ab5', value: '0x10', gas: '0x29040' }],
    })
    // Only the swap's hash is the Activity entry's.
    expect(onSubmitted).toHaveBeenCalledTimes(1)
    expect(onSubmitted).toHaveBeenCalledWith(hashOf(2))
  })
})
