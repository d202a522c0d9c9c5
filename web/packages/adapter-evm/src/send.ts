/*
 * Transfers from the Account view over any EIP-1193 provider: the network's own currency as a
 * plain eth_sendTransaction with a value, an ERC-20 as its transfer(address,uint256) call. The
 * wallet signs and sends; this waits for the receipt. Loaded on the first send only.
 */
import type { Eip1193Provider, GasTerms, Transfer, TransferFee } from '@sigil/core'

/** What a transfer to an account costs in gas, and the most an ERC-20 transfer is taken to cost when it cannot be estimated. */
const NATIVE_GAS = 21_000n
const TOKEN_GAS = 100_000n

const hex = (value: bigint) => `0x${value.toString(16)}`
/** A 32-byte ABI word of hex digits (an address without 0x, a number in hex). */
export const word = (hexDigits: string) => hexDigits.padStart(64, '0')

/** ERC-20 transfer(address,uint256) call data. */
export function erc20TransferData(to: string, amount: bigint): `0x${string}` {
  return `0xa9059cbb${word(to.replace(/^0x/i, '').toLowerCase())}${word(amount.toString(16))}`
}

/** The transaction a transfer is: a value to the receiver, or a call to the token; with its gas terms when quoted. */
export function transferTransaction({ from, to, amount, token, gas }: Pick<Transfer, 'from' | 'to' | 'amount' | 'token' | 'gas'>) {
  const call = token ? { from, to: token.address, data: erc20TransferData(to, amount) } : { from, to, value: hex(amount) }
  return gas ? { ...call, ...gasFields(gas) } : call
}

/** The transaction's gas fields (hex quantities) for the terms given. */
export function gasFields(gas: GasTerms): Record<string, string> {
  const fields: Record<string, string> = { gas: hex(gas.limit) }
  if (gas.maxFeePerGas !== undefined) fields.maxFeePerGas = hex(gas.maxFeePerGas)
  if (gas.maxPriorityFeePerGas !== undefined) fields.maxPriorityFeePerGas = hex(gas.maxPriorityFeePerGas)
  if (gas.gasPrice !== undefined) fields.gasPrice = hex(gas.gasPrice)
  return fields
}

const quantity = (value: unknown) => BigInt(String(value))

/**
 * The most the transfer can cost and the gas terms that bound it: its gas (estimated without
 * the value, so an amount above the balance still estimates; 21000 or 100000 when the node
 * cannot say; a contract call gets a fifth more), times the EIP-1559 fee cap (twice the base
 * fee plus the priority fee, viem's rule) or, on a chain without a base fee, the gas price. The
 * transaction then carries these terms, so the fee never exceeds what was kept back.
 */
export async function evmTransferFee(provider: Eip1193Provider, transfer: Transfer): Promise<TransferFee> {
  const { value: _value, ...call } = transferTransaction({ ...transfer, gas: undefined }) as { value?: string; from: string; to: string; data?: string }
  return callFee(provider, call, transfer.token ? TOKEN_GAS : NATIVE_GAS)
}

/**
 * The most a call can cost and the gas terms that bound it (evmTransferFee's rule for any
 * call): its estimated gas (`fallback` when the node cannot say; a fifth more above 21000),
 * times the EIP-1559 fee cap or, on a chain without a base fee, the gas price.
 */
export async function callFee(provider: Eip1193Provider, call: { from: string; to: string; data?: string }, fallback: bigint): Promise<TransferFee> {
  const estimated = await provider.request({ method: 'eth_estimateGas', params: [call] }).then(quantity, () => fallback)
  const limit = estimated <= NATIVE_GAS ? estimated : (estimated * 6n) / 5n
  const block = (await provider.request({ method: 'eth_getBlockByNumber', params: ['latest', false] }).catch(() => null)) as { baseFeePerGas?: string } | null
  if (block?.baseFeePerGas) {
    const tip = await provider.request({ method: 'eth_maxPriorityFeePerGas' }).then(quantity, () => 0n)
    const maxFeePerGas = quantity(block.baseFeePerGas) * 2n + tip
    return { fee: limit * maxFeePerGas, gas: { limit, maxFeePerGas, maxPriorityFeePerGas: tip } }
  }
  const gasPrice = quantity(await provider.request({ method: 'eth_gasPrice' }))
  return { fee: limit * gasPrice, gas: { limit, gasPrice } }
}

interface Receipt {
  status?: string
}

/**
 * Has the wallet send the transfer, then waits (up to `timeoutMs`, 60 s) for its receipt;
 * resolves to the transaction hash. A receipt with status 0 is a revert; without a receipt in
 * time the hash is still what was sent.
 */
export async function sendEvmTransfer(provider: Eip1193Provider, transfer: Transfer, options: { timeoutMs?: number } = {}): Promise<string> {
  return sendAndWait(provider, transferTransaction(transfer), { ...options, onSubmitted: transfer.onSubmitted })
}

/** Has the wallet send `transaction` (its hash to `onSubmitted` at once), then waits for its receipt as sendEvmTransfer does; resolves to the hash. */
export async function sendAndWait(
  provider: Eip1193Provider,
  transaction: object,
  options: { timeoutMs?: number; onSubmitted?: ((hash: string) => void) | undefined } = {},
): Promise<string> {
  const hash = String(await provider.request({ method: 'eth_sendTransaction', params: [transaction] }))
  options.onSubmitted?.(hash)
  const deadline = Date.now() + (options.timeoutMs ?? 60_000)
  let delay = 250
  while (Date.now() < deadline) {
    const receipt = (await provider.request({ method: 'eth_getTransactionReceipt', params: [hash] }).catch(() => null)) as Receipt | null
    if (receipt?.status === '0x0') throw Object.assign(new Error(`execution reverted (transaction ${hash})`), { code: 3 })
    if (receipt) return hash
    await new Promise((resolve) => setTimeout(resolve, delay))
    delay = Math.min(delay * 2, 2000)
  }
  return hash
}
