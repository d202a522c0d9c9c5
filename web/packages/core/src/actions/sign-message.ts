import { activeAccount } from '../account.js'
import { providerOf } from '../connection.js'
import type { SigilContext } from '../context.js'
import { NotConnectedError, toSigilError, UnsupportedChainError, type SigilError, type UserRejectedRequestError } from '../errors.js'

export interface SignMessageParameters {
  /** Plain text, e.g. a sign-in message. */
  message: string
}

export type SignMessageErrorType = NotConnectedError | UnsupportedChainError | UserRejectedRequestError | SigilError

/** Signs plain text with the active account, through its namespace's adapter. */
export async function signMessage(ctx: SigilContext, { message }: SignMessageParameters): Promise<string> {
  const state = ctx.store.getState()
  const namespace = state.activeNamespace
  const address = activeAccount(state).address
  const provider = providerOf(ctx, namespace)
  if (!address || provider === undefined) throw new NotConnectedError()
  const adapter = ctx.adapters[namespace]
  if (!adapter?.signMessage) throw new UnsupportedChainError(namespace)
  try {
    return await adapter.signMessage(provider, message, address)
  } catch (error) {
    throw toSigilError(error)
  }
}
