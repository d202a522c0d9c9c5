/*
 * NFT sends from the Account view over any EIP-1193 provider: an ERC-721 token as its
 * safeTransferFrom(address,address,uint256) call, an amount of an ERC-1155 token as its
 * safeTransferFrom(address,address,uint256,uint256,bytes) call with empty data. The wallet signs
 * and sends; this waits for the receipt (as sends of tokens do). Loaded on the first NFT send only.
 */
import type { Eip1193Provider, NftTransfer, TransferFee } from '@sigil/core'
import { callFee, gasFields, sendAndWait, word } from './send.js'

/** safeTransferFrom(address,address,uint256): ERC-721. */
export const ERC721_SAFE_TRANSFER_FROM = '0x42842e0e'
/** safeTransferFrom(address,address,uint256,uint256,bytes): ERC-1155. */
export const ERC1155_SAFE_TRANSFER_FROM = '0xf242432a'

/** The gas an NFT transfer is taken to need when the node cannot estimate it. */
const NFT_GAS = 150_000n

const address = (a: string) => word(a.replace(/^0x/i, '').toLowerCase())
const uint = (n: bigint) => word(n.toString(16))

/** The transfer's call data: ERC-721 (from, to, id), or ERC-1155 (from, to, id, amount, empty bytes at offset 0xa0). */
export function nftTransferData({ standard, from, to, tokenId, amount }: Pick<NftTransfer, 'standard' | 'from' | 'to' | 'tokenId' | 'amount'>): `0x${string}` {
  if (standard === 'erc721') return `${ERC721_SAFE_TRANSFER_FROM}${address(from)}${address(to)}${uint(tokenId)}`
  // The bytes argument is dynamic: its offset (five words in), then its length, 0.
  return `${ERC1155_SAFE_TRANSFER_FROM}${address(from)}${address(to)}${uint(tokenId)}${uint(amount)}${uint(0xa0n)}${uint(0n)}`
}

/** The transaction an NFT transfer is: a call to the token's contract from the holder; with its gas terms when quoted. */
export function nftTransaction(transfer: NftTransfer) {
  const call = { from: transfer.from, to: transfer.contract, data: nftTransferData(transfer) }
  return transfer.gas ? { ...call, ...gasFields(transfer.gas) } : call
}

/** The most the transfer can cost and the gas terms that bound it (as evmTransferFee: 150000 gas when it cannot be estimated). */
export function evmNftFee(provider: Eip1193Provider, transfer: NftTransfer): Promise<TransferFee> {
  return callFee(provider, nftTransaction({ ...transfer, gas: undefined }), NFT_GAS)
}

/** Has the wallet send the NFT, then waits for its receipt; resolves to the transaction hash (a revert is code 3). */
export function sendEvmNft(provider: Eip1193Provider, transfer: NftTransfer, options: { timeoutMs?: number } = {}): Promise<string> {
  return sendAndWait(provider, nftTransaction(transfer), { ...options, onSubmitted: transfer.onSubmitted })
}
