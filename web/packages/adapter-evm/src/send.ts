/*
 * Transfers from the Account view over any EIP-1193 provider: the network's own currency as a
 * plain eth_sendTransaction with a value, an ERC-20 as its transfer(address,uint256) call. The
 * wallet signs and sends; this waits for the receipt. Loaded on the first send only.
 */
import type { Eip1193Provider, Transfer } from '@sigil/core'

/** What a transfer to an account costs in gas, and the most an ERC-20 transfer is taken to cost when it cannot be estimated. */
const NATIVE_GAS = 21_000n
const TOKEN_GAS = 100_000n

const hex = (value: bigint) => `0x${value.toString(16)}`
const word = (hexDigits: string) => hexDigits.padStart(64, '0')

/** ERC-20 transfer(address,uint256) call data. */
export function erc20TransferData(to: string, amount: bigint): `0x${string}` {
  return `0xa9059cbb${word(to.replace(/^0x/i, '').toLowerCase())}${word(amount.toString(16))}`
}

/** The transaction a transfer is: a value to the receiver, or a call to the token. */
export function transferTransaction({ from, to, amount, token }: Pick<Transfer, 'from' | 'to' | 'amount' | 'token'>) {
  return token ? { from, to: token.address, data: erc20TransferData(to, amount) } : { from, to, value: hex(amount) }
}

/**
 * About what the transfer costs: its gas (estimated without the value, so an amount above the
 * balance still estimates; 21000 or 100000 when the node cannot say) at the node's gas price.
 */
export async function evmTransferFee(provider: Eip1193Provider, transfer: Transfer): Promise<bigint> {
  const price = BigInt(String(await provider.request({ method: 'eth_gasPrice' })))
  const { value: _value, ...call } = transferTransaction(transfer) as { value?: string; from: string; to: string; data?: string }
  const gas = await provider.request({ method: 'eth_estimateGas', params: [call] }).then(
    (g) => BigInt(String(g)),
    () => (transfer.token ? TOKEN_GAS : NATIVE_GAS),
  )
  return gas * price
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
  const hash = String(await provider.request({ method: 'eth_sendTransaction', params: [transferTransaction(transfer)] }))
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
