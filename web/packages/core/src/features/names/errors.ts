/*
 * How a name lookup or registration fails: one error type with a code per reason; the message
 * is the server's first reason when it gives one, else the spec's text (section 8).
 */
import { SigilError } from '../../errors.js'

export type NamesErrorCode = 'INVALID_NAME' | 'INVALID_CHAIN_ID' | 'NOT_SUPPORTED' | 'TAKEN' | 'REFUSED' | 'SERVER'

export class NamesError extends SigilError<NamesErrorCode> {
  override name = 'NamesError'
  readonly status: number | undefined
  constructor(message: string, code: NamesErrorCode, options: { cause?: unknown; status?: number } = {}) {
    super(message, code, options.cause)
    this.status = options.status
  }
}
