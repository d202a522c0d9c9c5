/**
 * Errors the modal throws: one class per catalogued JSON-RPC / EIP-1193 code (spec section 8),
 * each with its literal `code`, and the modal's own failures with string codes. Texts come from
 * the message catalogue; `errorText` is how a view shows any error.
 */
import { errors, rpc } from './messages/core.js'

/** The catalogue's error texts, by name. */
export const ErrorMessages = errors

/** User-facing text for each RPC error code. */
export const RpcErrorMessages = rpc

const messages = { errors, rpc }

/** 'Please try again after {n} seconds', remaining seconds rounded up. */
export function tryAgainAfter(remainingMs: number): string {
  return messages.errors.tryAgainAfter(Math.ceil(remainingMs / 1000))
}

/** EIP-1193 / JSON-RPC error codes the modal recognises. */
export const RpcErrorCode = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  limitExceeded: -32005,
  userRejected: 4001,
  unauthorized: 4100,
  unsupportedMethod: 4200,
  providerDisconnected: 4900,
  chainDisconnected: 4901,
  unrecognizedChain: 4902,
  defaultError: 5000,
  invalidChainId: 32603,
  serviceUnavailable: 503,
} as const

export type RpcErrorCodeValue = (typeof RpcErrorCode)[keyof typeof RpcErrorCode]

/** An error with a catalogued code and the text the modal shows for it. */
export class SigilError<Code extends number | string = number | string> extends Error {
  override name = 'SigilError'
  readonly code: Code
  override readonly cause?: unknown

  constructor(message: string, code: Code, cause?: unknown) {
    super(message)
    this.code = code
    this.cause = cause
  }
}

/** A JSON-RPC or EIP-1193 error: its code's catalogue text unless the wallet's is wanted. */
export class RpcError<Code extends RpcErrorCodeValue = RpcErrorCodeValue> extends SigilError<Code> {
  override name = 'RpcError'
  constructor(code: Code, cause?: unknown, message: string = messages.rpc[code] ?? messages.errors.unknown) {
    super(message, code, cause)
  }
}

export class ParseRpcError extends RpcError<-32700> {
  override name = 'ParseRpcError'
  constructor(cause?: unknown) {
    super(-32700, cause)
  }
}
export class InvalidRequestRpcError extends RpcError<-32600> {
  override name = 'InvalidRequestRpcError'
  constructor(cause?: unknown) {
    super(-32600, cause)
  }
}
export class MethodNotFoundRpcError extends RpcError<-32601> {
  override name = 'MethodNotFoundRpcError'
  constructor(cause?: unknown) {
    super(-32601, cause)
  }
}
export class InvalidParamsRpcError extends RpcError<-32602> {
  override name = 'InvalidParamsRpcError'
  constructor(cause?: unknown) {
    super(-32602, cause)
  }
}
export class InternalRpcError extends RpcError<-32603> {
  override name = 'InternalRpcError'
  constructor(cause?: unknown) {
    super(-32603, cause)
  }
}
export class LimitExceededRpcError extends RpcError<-32005> {
  override name = 'LimitExceededRpcError'
  constructor(cause?: unknown) {
    super(-32005, cause)
  }
}
/** 4001: the user declined in the wallet. */
export class UserRejectedRequestError extends RpcError<4001> {
  override name = 'UserRejectedRequestError'
  constructor(cause?: unknown) {
    super(4001, cause)
  }
}
export class UnauthorizedProviderError extends RpcError<4100> {
  override name = 'UnauthorizedProviderError'
  constructor(cause?: unknown) {
    super(4100, cause)
  }
}
export class UnsupportedProviderMethodError extends RpcError<4200> {
  override name = 'UnsupportedProviderMethodError'
  constructor(cause?: unknown) {
    super(4200, cause)
  }
}
export class ProviderDisconnectedError extends RpcError<4900> {
  override name = 'ProviderDisconnectedError'
  constructor(cause?: unknown) {
    super(4900, cause)
  }
}
export class ChainDisconnectedError extends RpcError<4901> {
  override name = 'ChainDisconnectedError'
  constructor(cause?: unknown) {
    super(4901, cause)
  }
}
/** 4902: the wallet does not know the chain; with `message` 'Chain is not supported' when adding it failed too. */
export class SwitchChainError extends RpcError<4902> {
  override name = 'SwitchChainError'
  constructor(cause?: unknown, message?: string) {
    super(4902, cause, message)
  }
}

const RPC_ERRORS: Partial<Record<number, new (cause?: unknown) => RpcError>> = {
  [-32700]: ParseRpcError,
  [-32600]: InvalidRequestRpcError,
  [-32601]: MethodNotFoundRpcError,
  [-32602]: InvalidParamsRpcError,
  [-32603]: InternalRpcError,
  [-32005]: LimitExceededRpcError,
  4001: UserRejectedRequestError,
  4100: UnauthorizedProviderError,
  4200: UnsupportedProviderMethodError,
  4900: ProviderDisconnectedError,
  4901: ChainDisconnectedError,
  4902: SwitchChainError,
}

/**
 * The project id is missing, no networks were given, a network lacks an RPC URL, a feature is
 * unknown, siweConfig and siwx were both set, or an option is malformed.
 */
export class ConfigurationError extends SigilError<
  'PROJECT_ID_NOT_CONFIGURED' | 'NO_NETWORKS' | 'NO_RPC_URL' | 'UNKNOWN_FEATURE' | 'SIWE_AND_SIWX' | 'INVALID_RELAY_URL'
> {
  override name = 'ConfigurationError'
}

/** No connector with that id is present in the page. */
export class ConnectorNotFoundError extends SigilError<'CONNECTOR_NOT_FOUND'> {
  override name = 'ConnectorNotFoundError'
  constructor(readonly connectorId: string) {
    super(messages.errors.adapterNotFound, 'CONNECTOR_NOT_FOUND')
  }
}

/** No chain adapter was given for the namespace. */
export class AdapterNotFoundError extends SigilError<'ADAPTER_NOT_FOUND'> {
  override name = 'AdapterNotFoundError'
  constructor(readonly namespace: string) {
    super(messages.errors.adapterForNamespaceMissing(namespace), 'ADAPTER_NOT_FOUND')
  }
}

/** The action needs a connected account (and network) that is not there. */
export class NotConnectedError extends SigilError<'NOT_CONNECTED'> {
  override name = 'NotConnectedError'
  constructor() {
    super(messages.errors.caipNetworkOrAddressUndefined, 'NOT_CONNECTED')
  }
}

/** The wallet connected but gave no account for any namespace the host configured. */
export class NoAccountsError extends SigilError<'NO_ACCOUNTS'> {
  override name = 'NoAccountsError'
  constructor() {
    super(messages.errors.addressOrAuthConnectorNotFound, 'NO_ACCOUNTS')
  }
}

/** The namespace has no ability the action needs (e.g. signing), as its adapter says. */
/** A send without an amount or a receiver (or with one that cannot be right). */
export class AmountAndReceiverRequiredError extends SigilError<'AMOUNT_AND_RECEIVER_REQUIRED'> {
  override name = 'AmountAndReceiverRequiredError'
  constructor() {
    super(messages.errors.amountAndReceiverRequired, 'AMOUNT_AND_RECEIVER_REQUIRED')
  }
}

/** A send without a token the account holds. */
export class TokenRequiredError extends SigilError<'TOKEN_REQUIRED'> {
  override name = 'TokenRequiredError'
  constructor() {
    super(messages.errors.tokenRequired, 'TOKEN_REQUIRED')
  }
}

export class UnsupportedChainError extends SigilError<'UNSUPPORTED_CHAIN'> {
  override name = 'UnsupportedChainError'
  constructor(readonly namespace: string) {
    super(messages.errors.unsupportedChain, 'UNSUPPORTED_CHAIN')
  }
}

/**
 * Some namespaces failed to disconnect (their state is cleared anyway): one error naming each,
 * 'Failed to disconnect: Failed to disconnect chain eip155: …; Failed to disconnect chain …'.
 */
export class DisconnectError extends SigilError<'DISCONNECT_FAILED'> {
  override name = 'DisconnectError'
  constructor(readonly failures: readonly { namespace: string; error: SigilError }[]) {
    super(
      `${messages.errors.failedToDisconnect}: ${failures.map((f) => messages.errors.failedToDisconnectChain(f.namespace, f.error.message)).join('; ')}`,
      'DISCONNECT_FAILED',
    )
  }
}

/**
 * WalletConnect trouble: the relay could not be reached or was lost, the relay refused this
 * device's sign-in token as expired or not yet valid ('Session Expired': the device's clock is
 * off), connecting was cancelled, or the SDK failed to load.
 */
export class WalletConnectError extends SigilError<'RELAY_UNREACHABLE' | 'RELAY_LOST' | 'SESSION_EXPIRED' | 'CANCELLED' | 'SDK_LOAD_FAILED'> {
  override name = 'WalletConnectError'
  static sessionExpired(cause?: unknown) {
    return new WalletConnectError(messages.errors.sessionExpired, 'SESSION_EXPIRED', cause)
  }
  static relayUnreachable(cause?: unknown) {
    return new WalletConnectError(messages.errors.relayUnreachable, 'RELAY_UNREACHABLE', cause)
  }
  static relayLost(cause?: unknown) {
    return new WalletConnectError(messages.errors.relayLost, 'RELAY_LOST', cause)
  }
  static cancelled() {
    return new WalletConnectError(messages.errors.connectCancelled, 'CANCELLED')
  }
  static sdkLoadFailed(cause?: unknown) {
    return new WalletConnectError(messages.errors.walletConnectUnavailable, 'SDK_LOAD_FAILED', cause)
  }
}

/** Reads `code` from anything thrown by a wallet or RPC node (EIP-1193 errors carry it). */
export function errorCode(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const { code, cause } = error as { code?: unknown; cause?: unknown }
  if (typeof code === 'number') return code
  if (typeof code === 'string' && /^-?\d+$/.test(code)) return Number(code)
  // Some wallets wrap the original error.
  return cause === undefined || cause === error ? undefined : errorCode(cause)
}

/**
 * Maps anything a wallet throws to a SigilError: a catalogued code becomes its class (with the
 * catalogue text), anything else keeps its own message, else 'Unknown error'.
 */
export function toSigilError(error: unknown): SigilError {
  if (error instanceof SigilError) return error
  const code = errorCode(error)
  const Known = code === undefined ? undefined : RPC_ERRORS[code]
  if (Known) return new Known(error)
  if (code !== undefined && messages.rpc[code]) return new SigilError(messages.rpc[code], code, error)
  const message = error instanceof Error && error.message ? error.message : typeof error === 'string' && error ? error : messages.errors.unknown
  return new SigilError(message, code ?? RpcErrorCode.defaultError, error)
}

/** The text a view shows for any error: the catalogue's for known codes, else the error's own. */
export function errorText(error: unknown): string {
  return toSigilError(error).message
}

/** True when the user declined in the wallet (code 4001). */
export function isUserRejection(error: unknown): boolean {
  return errorCode(error) === RpcErrorCode.userRejected
}
