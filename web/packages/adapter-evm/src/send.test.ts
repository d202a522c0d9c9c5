import type { Eip1193Provider, Transfer } from '@sigil/core'
import { sigilDev } from '@sigil/core/networks'
import { describe, expect, it, vi } from 'vitest'
import { evmAdapter } from './adapter.js'
import { erc20TransferData, evmTransferFee, sendEvmTransfer } from './send.js'

const FROM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SGL = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const HASH = `0x${'ab'.repeat(32)}`
const network = sigilDev()

function provider(answers: Record<string, (params: unknown) => unknown>) {
  const request = vi.fn(async ({ method, params }: { method: string; params?: unknown }) => {
    const answer = answers[method]
    if (!answer) throw Object.assign(new Error(`no ${method}`), { code: 4200 })
    return answer(params)
  })
  return { request } as unknown as Eip1193Provider & { request: typeof request }
}

const native: Transfer = { from: FROM, to: TO, amount: 10n ** 16n, network }
const token: Transfer = { from: FROM, to: TO, amount: 10n ** 18n, token: { address: SGL, decimals: 18 }, network }

describe('EVM sends', () => {
  it('the native currency is a value to the receiver; an ERC-20 its transfer(address,uint256) call', async () => {
    const p = provider({ eth_sendTransaction: () => HASH, eth_getTransactionReceipt: () => ({ status: '0x1' }) })
    expect(await evmAdapter().sendTransfer?.(p, native)).toBe(HASH)
    expect(p.request).toHaveBeenCalledWith({ method: 'eth_sendTransaction', params: [{ from: FROM, to: TO, value: '0x2386f26fc10000' }] })
    await sendEvmTransfer(p, token)
    expect(p.request).toHaveBeenCalledWith({
      method: 'eth_sendTransaction',
      params: [
        {
          from: FROM,
          to: SGL,
          data: '0xa9059cbb00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c80000000000000000000000000000000000000000000000000de0b6b3a7640000',
        },
      ],
    })
    expect(erc20TransferData(TO, 1n)).toMatch(/^0xa9059cbb[0-9a-f]{128}$/)
  })

  it('waits for the receipt; a receipt with status 0 is a revert (code 3)', async () => {
    let polls = 0
    const p = provider({ eth_sendTransaction: () => HASH, eth_getTransactionReceipt: () => (++polls < 2 ? null : { status: '0x0' }) })
    await expect(sendEvmTransfer(p, native)).rejects.toMatchObject({ code: 3, message: expect.stringContaining('execution reverted') })
    expect(polls).toBe(2)
  })

  it('hands the hash to onSubmitted as soon as the wallet has sent it, before any receipt', async () => {
    const seen: string[] = []
    let polls = 0
    const p = provider({ eth_sendTransaction: () => HASH, eth_getTransactionReceipt: () => (++polls < 2 ? null : { status: '0x1' }) })
    const onSubmitted = (hash: string) => seen.push(`${hash} after ${polls} polls`)
    expect(await sendEvmTransfer(p, { ...native, onSubmitted })).toBe(HASH)
    expect(seen).toEqual([`${HASH} after 0 polls`])
    // The transaction itself carries none of it.
    expect(p.request).toHaveBeenCalledWith({ method: 'eth_sendTransaction', params: [{ from: FROM, to: TO, value: '0x2386f26fc10000' }] })
  })

  it("a wallet's or node's refusal comes through as it is (core maps it)", async () => {
    const refusal = Object.assign(new Error('insufficient funds for gas * price + value'), { code: -32000 })
    const p = provider({
      eth_sendTransaction: () => {
        throw refusal
      },
    })
    await expect(sendEvmTransfer(p, native)).rejects.toBe(refusal)
  })

  it('the fee is the estimated gas (without the value) at the gas price on a legacy chain; 21000 or 100000 gas (a fifth more for a call) when it cannot be estimated', async () => {
    const p = provider({ eth_gasPrice: () => '0x3b9aca00', eth_estimateGas: () => '0x5208', eth_getBlockByNumber: () => ({ number: '0x1' }) })
    expect(await evmTransferFee(p, native)).toEqual({ fee: 21_000n * 1_000_000_000n, gas: { limit: 21_000n, gasPrice: 1_000_000_000n } })
    expect(p.request).toHaveBeenCalledWith({ method: 'eth_estimateGas', params: [{ from: FROM, to: TO }] })
    const failing = provider({
      eth_gasPrice: () => '0x2',
      eth_estimateGas: () => {
        throw new Error('execution reverted')
      },
    })
    expect((await evmAdapter().transferFee?.(failing, token))?.fee).toBe(240_000n)
    expect((await evmTransferFee(failing, native)).fee).toBe(42_000n)
  })

  it('on an EIP-1559 chain: gas times twice the base fee plus the tip, and the transaction carries those terms', async () => {
    const p = provider({
      eth_estimateGas: () => '0xc350', // 50000: a token call, so 60000
      eth_getBlockByNumber: () => ({ baseFeePerGas: '0x3b9aca00' }),
      eth_maxPriorityFeePerGas: () => '0x1',
      eth_sendTransaction: () => HASH,
      eth_getTransactionReceipt: () => ({ status: '0x1' }),
    })
    const quote = await evmTransferFee(p, token)
    expect(quote).toEqual({ fee: 60_000n * 2_000_000_001n, gas: { limit: 60_000n, maxFeePerGas: 2_000_000_001n, maxPriorityFeePerGas: 1n } })
    await sendEvmTransfer(p, { ...token, gas: quote.gas })
    expect(p.request).toHaveBeenCalledWith({
      method: 'eth_sendTransaction',
      params: [expect.objectContaining({ to: SGL, gas: '0xea60', maxFeePerGas: '0x77359401', maxPriorityFeePerGas: '0x1' })],
    })
  })
})
