/*
 * How a send ends when it does not send, as types with codes: refused before signing (the
 * receiver is not an address of the network, the amount is not one, the balance does not cover
 * it and the fee), or refused by the chain, whose raw answer (a node's "insufficient funds for
 * gas * price + value", a runtime's "Transaction simulation failed: …" dump) becomes one of the
 * spec's transaction errors (section 8). Loaded with the send action and the embedded wallet's
 * requests, never with the page.
 */
import { errorCode, RpcErrorCode, SigilError } from '../../errors.js'
import { localized } from '../../messages/active.js'
import { send as englishSend } from '../../messages/send.js'

/** Its words in the visitor's locale (English until the modal loads one). */
const send = localized('send', englishSend)

/** The receiver is not an address of the network's family (its adapter's isAddress). */
export class InvalidReceiverError extends SigilError<'INVALID_RECEIVER'> {
  override name = 'InvalidReceiverError'
  constructor(network: string) {
    super(send.invalidReceiver(network), 'INVALID_RECEIVER')
  }
}

/** The receiver is a name that gives the active network no address (for its coin type). */
export class NameNotResolvedError extends SigilError<'NAME_NOT_RESOLVED'> {
  override name = 'NameNotResolvedError'
  constructor(receiver: string, network: string) {
    super(send.nameNotResolved(receiver, network), 'NAME_NOT_RESOLVED')
  }
}

/** The amount is not a positive number with at most the token's decimals. */
export class InvalidAmountError extends SigilError<'INVALID_AMOUNT'> {
  override name = 'InvalidAmountError'
  constructor(decimals: number) {
    super(send.invalidAmount(decimals), 'INVALID_AMOUNT')
  }
}

/** The balance the modal holds does not cover the amount, or (in the network's currency) the fee. */
export class InsufficientBalanceError extends SigilError<'INSUFFICIENT_BALANCE'> {
  override name = 'InsufficientBalanceError'
  static amount(balance: string, symbol: string) {
    return new InsufficientBalanceError(send.insufficientBalance(balance, symbol), 'INSUFFICIENT_BALANCE')
  }
  static fee(fee: string, symbol: string) {
    return new InsufficientBalanceError(send.insufficientForFee(fee, symbol), 'INSUFFICIENT_BALANCE')
  }
}

export type TransactionErrorCode =
  | 'NONCE_TOO_LOW'
  | 'NONCE_TOO_HIGH'
  | 'INSUFFICIENT_FUNDS'
  | 'BELOW_RENT'
  | 'FEE_CAP_TOO_LOW'
  | 'FEE_CAP_TOO_HIGH'
  | 'GAS_TOO_LOW'
  | 'GAS_TOO_HIGH'
  | 'EXECUTION_REVERTED'

/** The chain refused the transaction; `cause` is its answer as it came. */
export class TransactionError extends SigilError<TransactionErrorCode> {
  override name = 'TransactionError'
}

const t = send.transaction

/** What a node's or a runtime's words say, checked in this order (viem's node errors are the model). */
const RULES: readonly [TransactionErrorCode, RegExp, string][] = [
  ['NONCE_TOO_HIGH', /nonce too high/i, t.nonceTooHigh],
  ['NONCE_TOO_LOW', /nonce too low|transaction already imported|already known/i, t.nonceTooLow],
  ['FEE_CAP_TOO_HIGH', /(max fee per gas|fee cap) higher than 2\^256-1/i, t.feeCapTooHigh],
  ['FEE_CAP_TOO_LOW', /(max fee per gas|fee cap) less than block base fee|transaction is outdated|maxFeePerGas .*less than .*base ?fee/i, t.feeCapTooLow],
  // Solana: an account left below its rent-exempt minimum (a fresh receiver given too little).
  ['BELOW_RENT', /InsufficientFundsForRent|insufficient funds for rent/i, t.belowRent],
  [
    'INSUFFICIENT_FUNDS',
    /insufficient funds|exceeds transaction sender account balance|insufficient lamports|InsufficientFundsForFee|no record of a prior credit/i,
    t.insufficientFunds,
  ],
  ['GAS_TOO_HIGH', /intrinsic gas too high|gas limit reached|exceeds block gas limit/i, t.gasTooHigh],
  ['GAS_TOO_LOW', /intrinsic gas too low|gas too low/i, t.gasTooLow],
]

/** Codes a wallet answers for itself (a rejection, a disconnection): never a chain's refusal. */
const PROVIDER_CODES = new Set<number>([
  RpcErrorCode.userRejected,
  RpcErrorCode.unauthorized,
  RpcErrorCode.unsupportedMethod,
  RpcErrorCode.providerDisconnected,
  RpcErrorCode.chainDisconnected,
  RpcErrorCode.unrecognizedChain,
])

/** Every text an error carries: its message, viem's details, a JSON-RPC `data` (message, logs, Solana's err), its causes'. */
function wordsOf(error: unknown, depth = 0): string[] {
  if (depth > 4 || error === null || error === undefined) return []
  if (typeof error === 'string') return [error]
  if (typeof error !== 'object') return []
  const e = error as { message?: unknown; details?: unknown; shortMessage?: unknown; data?: unknown; cause?: unknown; logs?: unknown; err?: unknown }
  const own = [e.message, e.details, e.shortMessage].filter((w): w is string => typeof w === 'string')
  // Solana's preflight data: the runtime's error ('InsufficientFundsForFee', {InstructionError: …}).
  if (typeof e.err === 'string') own.push(e.err)
  else if (typeof e.err === 'object' && e.err !== null) own.push(safeJson(e.err))
  const logs = Array.isArray(e.logs) ? e.logs.filter((l): l is string => typeof l === 'string') : []
  return [...own, ...logs, ...wordsOf(e.data, depth + 1), ...(e.cause === error ? [] : wordsOf(e.cause, depth + 1))]
}

const safeJson = (value: object) => {
  try {
    return JSON.stringify(value)
  } catch {
    return ''
  }
}

/** A revert's reason, when the node gave one ('execution reverted: ERC20: transfer amount exceeds balance'), kept short. */
function revertReason(words: string): string | undefined {
  const reason = /execution reverted:?\s*([^\n]*)/i.exec(words)?.[1]?.trim()
  if (!reason) return undefined
  return reason.length > 120 ? `${reason.slice(0, 119)}…` : reason
}

/**
 * The spec's transaction error a chain's refusal stands for, or undefined when the error is not
 * one (a rejection in the wallet, a lost connection, anything the rules do not know).
 */
export function transactionError(error: unknown): TransactionError | undefined {
  if (error instanceof TransactionError) return error
  const code = errorCode(error)
  if (code !== undefined && PROVIDER_CODES.has(code)) return undefined
  const words = wordsOf(error).join('\n')
  for (const [name, rule, text] of RULES) if (rule.test(words)) return new TransactionError(text, name, error)
  // EIP-1474's 3 is a revert; so is a node's 'execution reverted' under any code.
  if (code === 3 || /execution reverted|\breverted\b/i.test(words)) {
    return new TransactionError(t.executionReverted(revertReason(words)), 'EXECUTION_REVERTED', error)
  }
  return undefined
}
