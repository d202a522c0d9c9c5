/*
 * How a purchase ends when it does not buy: one error type with a code per reason, each said in
 * words from the catalogue (messages/onramp.ts).
 */
import { SigilError } from '../../errors.js'

export type OnrampErrorCode =
  /** The active network has no provider (onramp namespaces: eip155 and solana). */
  | 'NETWORK_NOT_SUPPORTED'
  /** The amount is not a number or outside the payment method's limits. */
  | 'INVALID_AMOUNT'
  /** The browser blocked the provider's window. */
  | 'POPUP_BLOCKED'
  /** The server refused (4xx): its message says why. */
  | 'REFUSED'
  /** The server or the provider failed (5xx, another shape). */
  | 'SERVER'
  /** The provider says the purchase failed or was declined. */
  | 'FAILED'

export class OnrampError extends SigilError<OnrampErrorCode> {
  override name = 'OnrampError'
  /** The HTTP status, when the server refused. */
  readonly status: number | undefined
  constructor(message: string, code: OnrampErrorCode, options: { cause?: unknown; status?: number } = {}) {
    super(message, code, options.cause)
    this.status = options.status
  }
}
