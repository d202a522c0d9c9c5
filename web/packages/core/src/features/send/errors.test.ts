import { describe, expect, it } from 'vitest'
import { SigilError } from '../../errors.js'
import { transactionError } from './errors.js'

const rpcError = (code: number, message: string, data?: unknown) => Object.assign(new Error(message), { code }, data === undefined ? {} : { data })

describe("a chain's refusal as the spec's transaction errors (section 8)", () => {
  it.each([
    // anvil through the embedded wallet's frame (the node's code and words, as the frame passes them)
    [new SigilError('Insufficient funds for gas * price + value', -32003), 'INSUFFICIENT_FUNDS'],
    // geth, and MetaMask wrapping the node's answer in -32603 with the words in data
    [rpcError(-32000, 'insufficient funds for gas * price + value: balance 0, tx cost 100'), 'INSUFFICIENT_FUNDS'],
    [rpcError(-32603, 'Internal JSON-RPC error.', { code: -32000, message: 'insufficient funds for transfer' }), 'INSUFFICIENT_FUNDS'],
    // Solana: the runtime's preflight dump, its logs in data, and a SPL token's own words
    [
      rpcError(-32002, 'Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1', {
        logs: ['Transfer: insufficient lamports 5, need 9'],
      }),
      'INSUFFICIENT_FUNDS',
    ],
    [rpcError(-32002, 'Transaction simulation failed: Attempt to debit an account but found no record of a prior credit.'), 'INSUFFICIENT_FUNDS'],
    [new Error('Transaction 5x failed: {"InsufficientFundsForRent":{"account_index":1}}'), 'BELOW_RENT'],
    [rpcError(-32002, 'Transaction simulation failed: Transaction results in an account (1) with insufficient funds for rent'), 'BELOW_RENT'],
    [rpcError(-32002, 'Transaction simulation failed: Error processing Instruction 0', { err: 'InsufficientFundsForFee' }), 'INSUFFICIENT_FUNDS'],
    [rpcError(-32000, 'nonce too low: next nonce 5, tx nonce 4'), 'NONCE_TOO_LOW'],
    [rpcError(-32000, 'nonce too high'), 'NONCE_TOO_HIGH'],
    [rpcError(-32000, 'max fee per gas less than block base fee: address 0x1, maxFeePerGas: 1, baseFee: 7'), 'FEE_CAP_TOO_LOW'],
    [rpcError(-32000, 'max fee per gas higher than 2^256-1'), 'FEE_CAP_TOO_HIGH'],
    [rpcError(-32000, 'intrinsic gas too low: have 20000, want 21000'), 'GAS_TOO_LOW'],
    [rpcError(-32000, 'intrinsic gas too high'), 'GAS_TOO_HIGH'],
    [new Error('execution reverted'), 'EXECUTION_REVERTED'],
  ] as const)('%s -> %s', (error, code) => {
    const mapped = transactionError(error)
    expect(mapped?.code).toBe(code)
    expect(mapped?.cause).toBe(error)
  })

  it('says each with its own text; a revert keeps its reason, shortened', () => {
    expect(transactionError(rpcError(-32003, 'Insufficient funds for gas * price + value'))?.message).toBe(
      'Insufficient funds: the amount and the network fee are more than the account holds.',
    )
    expect(transactionError(rpcError(-32000, 'nonce too low'))?.message).toBe(
      'The transaction’s nonce is lower than the account’s next one: it may have been sent already.',
    )
    expect(transactionError(rpcError(3, 'execution reverted: ERC20: transfer amount exceeds balance'))?.message).toBe(
      'The transaction was reverted: ERC20: transfer amount exceeds balance',
    )
    expect(transactionError(rpcError(3, 'execution reverted'))?.message).toBe('The transaction was reverted.')
    const long = transactionError(new Error(`execution reverted: ${'A'.repeat(500)}`))?.message ?? ''
    expect(long.length).toBeLessThan(160)
  })

  it("leaves what is not a chain's refusal alone: the wallet's rejection, a lost connection, anything unknown", () => {
    expect(transactionError(rpcError(4001, 'User rejected the request. insufficient funds'))).toBeUndefined()
    expect(transactionError(rpcError(4900, 'disconnected'))).toBeUndefined()
    expect(transactionError(new Error('Failed to fetch'))).toBeUndefined()
    expect(transactionError(undefined)).toBeUndefined()
  })
})
