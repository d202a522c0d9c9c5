/*
 * How a deposit from an exchange ends when it does not: one error type with a code per reason,
 * each said in words from the catalogue (messages/pay.ts).
 */
import { SigilError } from '../../errors.js'

export type PayErrorCode =
  /** The amount is not a decimal of the asset. */
  | 'INVALID_AMOUNT'
  /** The server refused: its JSON-RPC error message says why. */
  | 'REFUSED'
  /** The server failed or answered another shape. */
  | 'SERVER'

export class PayError extends SigilError<PayErrorCode> {
  override name = 'PayError'
  constructor(message: string, code: PayErrorCode, options: { cause?: unknown } = {}) {
    super(message, code, options.cause)
  }
}
