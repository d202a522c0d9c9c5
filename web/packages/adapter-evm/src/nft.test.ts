import type { Eip1193Provider, NftTransfer } from '@sigil/core'
import { sigilDev } from '@sigil/core/networks'
import { describe, expect, it, vi } from 'vitest'
import { evmAdapter } from './adapter.js'
import { evmNftFee, nftTransferData, sendEvmNft } from './nft.js'

const FROM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const BADGE = '0x95401dc811bb5740090279Ba06cfA8fcF6113778'
const ITEMS = '0x4826533B4897376654Bb4d4AD88B7faFD0C98528'
const HASH = `0x${'cd'.repeat(32)}`
const network = sigilDev()

function provider(answers: Record<string, (params: unknown) => unknown>) {
  const request = vi.fn(async ({ method, params }: { method: string; params?: unknown }) => {
    const answer = answers[method]
    if (!answer) throw Object.assign(new Error(`no ${method}`), { code: 4200 })
    return answer(params)
  })
  return { request } as unknown as Eip1193Provider & { request: typeof request }
}

const badge: NftTransfer = { from: FROM, to: TO, contract: BADGE, tokenId: 300n, standard: 'erc721', amount: 1n, network }
const items: NftTransfer = { from: FROM, to: TO, contract: ITEMS, tokenId: 1n, standard: 'erc1155', amount: 2n, network }

// The ABI encodings, as viem's encodeFunctionData gives them for the same arguments.
const BADGE_DATA =
  '0x42842e0e000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb9226600000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8000000000000000000000000000000000000000000000000000000000000012c'
const ITEMS_DATA =
  '0xf242432a000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb9226600000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c80000000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000a00000000000000000000000000000000000000000000000000000000000000000'

describe('EVM NFT sends', () => {
  it('ERC-721: safeTransferFrom(address,address,uint256) (0x42842e0e); ERC-1155: safeTransferFrom(address,address,uint256,uint256,bytes) (0xf242432a) with empty bytes', () => {
    expect(nftTransferData(badge)).toBe(BADGE_DATA)
    expect(nftTransferData(items)).toBe(ITEMS_DATA)
  })

  it('is a call to the contract from the holder, with the quoted gas terms; waits for the receipt', async () => {
    let polls = 0
    const p = provider({ eth_sendTransaction: () => HASH, eth_getTransactionReceipt: () => (++polls < 2 ? null : { status: '0x1' }) })
    const gas = { limit: 90_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1n }
    expect(await evmAdapter().sendNft?.(p, { ...items, gas })).toBe(HASH)
    expect(p.request).toHaveBeenCalledWith({
      method: 'eth_sendTransaction',
      params: [{ from: FROM, to: ITEMS, data: ITEMS_DATA, gas: '0x15f90', maxFeePerGas: '0x77359400', maxPriorityFeePerGas: '0x1' }],
    })
    expect(polls).toBe(2)
  })

  it('a receipt with status 0 is a revert (code 3)', async () => {
    const p = provider({ eth_sendTransaction: () => HASH, eth_getTransactionReceipt: () => ({ status: '0x0' }) })
    await expect(sendEvmNft(p, badge)).rejects.toMatchObject({ code: 3 })
  })

  it('the fee: the estimated gas of the call (a fifth more) at the fee cap; 150000 gas when it cannot be estimated', async () => {
    const p = provider({ eth_estimateGas: () => '0xc350', eth_getBlockByNumber: () => ({ baseFeePerGas: '0x1' }), eth_maxPriorityFeePerGas: () => '0x0' })
    expect(await evmAdapter().nftTransferFee?.(p, badge)).toEqual({ fee: 60_000n * 2n, gas: { limit: 60_000n, maxFeePerGas: 2n, maxPriorityFeePerGas: 0n } })
    expect(p.request).toHaveBeenCalledWith({ method: 'eth_estimateGas', params: [{ from: FROM, to: BADGE, data: BADGE_DATA }] })
    const failing = provider({
      eth_gasPrice: () => '0x1',
      eth_estimateGas: () => {
        throw new Error('execution reverted')
      },
    })
    expect((await evmNftFee(failing, items)).fee).toBe(180_000n)
  })
})
