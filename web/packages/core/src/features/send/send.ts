/*
 * The send feature's action: a transfer from the active account through its family's adapter
 * (`sendTransfer`). Loaded on the first send (`client.send`), never with the host page.
 */
import { activeAccount } from '../../account.js'
import type { Transfer } from '../../adapter.js'
import { providerOf } from '../../connection.js'
import type { SigilContext } from '../../context.js'
import {
  AmountAndReceiverRequiredError,
  NotConnectedError,
  TokenRequiredError,
  toSigilError,
  UnsupportedChainError,
  type SigilError,
  type UserRejectedRequestError,
} from '../../errors.js'
import { floorDecimals, formatUnits } from '../../format.js'
import { InsufficientBalanceError, InvalidAmountError, InvalidReceiverError, transactionError, type TransactionError } from './errors.js'

export { InsufficientBalanceError, InvalidAmountError, InvalidReceiverError, TransactionError, transactionError } from './errors.js'

export interface SendParameters {
  /** The receiver's address. */
  to: string
  /** A decimal amount of the token, e.g. '1.5'. */
  amount: string
  /** The token's address, or 'native' for the network's own currency (its balance entry without address). */
  token: string | undefined
}

/** The transaction's id, once the chain has it. */
export type SendReturnType = string

export type SendErrorType =
  | AmountAndReceiverRequiredError
  | TokenRequiredError
  | UnsupportedChainError
  | NotConnectedError
  | InvalidReceiverError
  | InvalidAmountError
  | InsufficientBalanceError
  | UserRejectedRequestError
  | TransactionError
  | SigilError

/** '1.5' with 6 decimals is 1500000n; undefined when it is not a positive amount with at most that many decimals. */
export function parseAmount(amount: string, decimals: number): bigint | undefined {
  if ((/\.(\d*)$/.exec(amount.trim())?.[1] ?? '').length > decimals) return undefined
  const value = unitsOf(amount, decimals)
  return value !== undefined && value > 0n ? value : undefined
}

/** A balance as the modal holds it ('1.5') in the smallest unit; digits past `decimals` are dropped; undefined when unreadable. */
export function unitsOf(numeric: string, decimals: number): bigint | undefined {
  const match = /^(\d*)(?:\.(\d*))?$/.exec(numeric.trim())
  if (!match || (match[1] === '' && !match[2])) return undefined
  return BigInt((match[1] || '0') + (match[2] ?? '').slice(0, decimals).padEnd(decimals, '0'))
}

/**
 * Sends from the active account (spec sections 4 and 5): an amount and a receiver are required
 * ('An amount and receiver address are required'), and a token the account holds ('A token is
 * required'); the namespace's adapter must be able to send ('Unsupported chain'). Before the
 * wallet is asked, the receiver must be an address of the network's family, the amount a number
 * the token can hold, and the balances the modal has must cover it, with the fee (its adapter's
 * `transferFee`) in the network's currency. A chain's refusal becomes the spec's transaction
 * error. Resolves to the transaction id once the chain has it.
 */
export async function send(ctx: SigilContext, params: SendParameters): Promise<SendReturnType> {
  const state = ctx.store.getState()
  const namespace = state.activeNamespace
  const chain = state.chains[namespace]
  const from = activeAccount(state).address
  const network = chain?.network.caipNetwork
  const provider = providerOf(ctx, namespace)
  const adapter = ctx.adapters[namespace]
  if (!adapter?.sendTransfer) throw new UnsupportedChainError(namespace)
  if (!from || !network || provider === undefined) throw new NotConnectedError()
  const to = params.to.trim()
  if (!params.amount.trim() || !to) throw new AmountAndReceiverRequiredError()
  const held = chain?.account.tokenBalance ?? []
  const token = params.token === 'native' ? held.find((t) => !t.address) : params.token ? held.find((t) => t.address === params.token) : undefined
  if (!token) throw new TokenRequiredError()
  const decimals = Number(token.quantity.decimals)
  if (adapter.isAddress?.(to) === false) throw new InvalidReceiverError(network.name)
  const amount = parseAmount(params.amount, decimals)
  if (amount === undefined) throw new InvalidAmountError(decimals)
  const balance = unitsOf(token.quantity.numeric, decimals)
  if (balance !== undefined && amount > balance) throw InsufficientBalanceError.amount(floorDecimals(token.quantity.numeric, 3), token.symbol)
  const transfer: Transfer = { from, to, amount, ...(token.address ? { token: { address: token.address, decimals } } : {}), network }
  // The fee is paid in the network's own currency: the native balance keeps it back.
  const fee = await adapter.transferFee?.(provider, transfer).catch(() => undefined)
  if (fee) {
    const native = held.find((t) => !t.address)
    const nativeDecimals = native ? Number(native.quantity.decimals) : network.nativeCurrency.decimals
    const nativeBalance = native ? unitsOf(native.quantity.numeric, nativeDecimals) : 0n
    if (nativeBalance !== undefined && (token.address ? 0n : amount) + fee > nativeBalance) {
      throw InsufficientBalanceError.fee(formatUnits(fee, nativeDecimals), native?.symbol ?? network.nativeCurrency.symbol)
    }
  }
  try {
    return await adapter.sendTransfer(provider, transfer)
  } catch (error) {
    throw transactionError(error) ?? toSigilError(error)
  }
}
