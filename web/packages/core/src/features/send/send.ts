/*
 * The send feature's action: a transfer from the active account through its family's adapter
 * (`sendTransfer`). Loaded on the first send (`client.send`), never with the host page.
 */
import { activeAccount } from '../../account.js'
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
  | UserRejectedRequestError
  | SigilError

/** '1.5' with 6 decimals is 1500000n; undefined when it is not a positive amount with at most that many decimals. */
export function parseAmount(amount: string, decimals: number): bigint | undefined {
  const match = /^(\d*)(?:\.(\d*))?$/.exec(amount.trim())
  if (!match || (match[1] === '' && !match[2])) return undefined
  const fraction = match[2] ?? ''
  if (fraction.length > decimals) return undefined
  const value = BigInt((match[1] || '0') + fraction.padEnd(decimals, '0'))
  return value > 0n ? value : undefined
}

/**
 * Sends from the active account (spec sections 4 and 5): an amount and a receiver are required
 * ('An amount and receiver address are required'), and a token the account holds ('A token is
 * required'); the namespace's adapter must be able to send ('Unsupported chain'). Resolves to
 * the transaction id once the chain has it.
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
  const amount = parseAmount(params.amount, decimals)
  if (amount === undefined || adapter.isAddress?.(to) === false) throw new AmountAndReceiverRequiredError()
  try {
    return await adapter.sendTransfer(provider, {
      from,
      to,
      amount,
      ...(token.address ? { token: { address: token.address, decimals } } : {}),
      network,
    })
  } catch (error) {
    throw toSigilError(error)
  }
}
