/**
 * Error catalogue (spec section 8). Texts are shown to users as-is, so they are kept verbatim
 * in one place and referenced by name.
 */
export const ErrorMessages = {
  tokenBalanceUnavailable: 'Token Balance Unavailable',
  failedToFetchTransactions: 'Failed to fetch transactions',
  gasPriceNetworkNotSupported: 'Network not supported for Gas Price',
  swapsNetworkNotSupported: 'Network not supported for Swaps',
  failedToDisconnect: 'Failed to disconnect',
  chainNotSupported: 'Chain is not supported',
  adapterNotFound: 'Adapter not found',
  chainAdapterNotFound: 'Chain adapter not found',
  caipNetworkUndefined: 'CaipNetwork is undefined',
  caipNetworkOrAddressUndefined: 'CaipNetwork or CaipAddress is undefined',
  networkNotFound: 'Network not found',
  addressOrAuthConnectorNotFound: 'Address or auth connector not found',
  invalidChainId: 'Invalid chainId',
  networkControllerClientNotSet: 'NetworkController client not set',
  connectionControllerClientNotSet: 'ConnectionController client not set',
  invalidAppConfiguration: 'Invalid App Configuration',
  invalidProjectId: 'Invalid Project ID',
  projectIdNotConfigured: 'Project ID Not Configured',
  sessionExpired: 'Session Expired',
  embeddedWalletNetworkError: 'Network Error - Could not load embedded wallet',
  embeddedWalletTimeout: 'Embedded Wallet Request Timed Out',
  emailLoginDependency: 'Unable to load email login dependency',
  authInitFailed: 'A problem occurred while trying initialize authentication',
  signatureDeclined: 'Signature declined',
  smartAccountsUnsupported: 'This application might not support Smart Accounts',
  siweAndSiwx: 'Cannot set both `siweConfig` and `siwx` options',
  amountAndReceiverRequired: 'An amount and receiver address are required',
  tokenRequired: 'A token is required',
  unsupportedChain: 'Unsupported chain',
  requestTimeout: 'The request took too long to respond.',
  unknown: 'Unknown error',
  invalidCaipAddress: 'Invalid CAIP address',
  invalidCaipNetworkId: 'Invalid CAIP network id',
  errorResolvingName: 'Error resolving name',
  errorFetchingNameSuggestions: 'Error fetching name suggestions',
  errorFetchingNamesForAddress: 'Error fetching names for address',
} as const

/** 'Please try again after {n} seconds', remaining seconds rounded up. */
export function tryAgainAfter(remainingMs: number): string {
  return `Please try again after ${Math.ceil(remainingMs / 1000)} seconds`
}

/** 'Failed to disconnect chain {chain}: {reason}'. */
export function failedToDisconnectChain(chain: string, reason: string): string {
  return `Failed to disconnect chain ${chain}: ${reason}`
}

/** "Adapter for namespace {x} doesn't exist". */
export function adapterForNamespaceMissing(namespace: string): string {
  return `Adapter for namespace ${namespace} doesn't exist`
}

/** 'Error registering name {name}'. */
export function errorRegisteringName(name: string): string {
  return `Error registering name ${name}`
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

/** User-facing text for each RPC error code. */
export const RpcErrorMessages: Readonly<Record<number, string>> = {
  [RpcErrorCode.parse]: 'Invalid JSON was received by the server.',
  [RpcErrorCode.invalidRequest]: 'The JSON sent is not a valid request object.',
  [RpcErrorCode.methodNotFound]: 'The method does not exist / is not available.',
  [RpcErrorCode.invalidParams]: 'Invalid method parameter(s).',
  [RpcErrorCode.internal]: 'An internal error was received.',
  [RpcErrorCode.limitExceeded]: 'Request exceeds defined limit.',
  [RpcErrorCode.userRejected]: 'User rejected the request.',
  [RpcErrorCode.unauthorized]: 'The requested method and/or account has not been authorized by the user.',
  [RpcErrorCode.unsupportedMethod]: 'The Provider does not support the requested method.',
  [RpcErrorCode.providerDisconnected]: 'The Provider is disconnected from all chains.',
  [RpcErrorCode.chainDisconnected]: 'The Provider is not connected to the requested chain.',
  [RpcErrorCode.unrecognizedChain]: 'Unrecognized chain ID.',
  [RpcErrorCode.defaultError]: 'An error occurred.',
  [RpcErrorCode.invalidChainId]: 'Invalid chain id.',
  [RpcErrorCode.serviceUnavailable]: 'The service is unavailable.',
}

/** An error with a catalogued code and the text the modal shows for it. */
export class SigilError extends Error {
  override readonly name = 'SigilError'
  readonly code: number | string
  override readonly cause?: unknown

  constructor(message: string, code: number | string, cause?: unknown) {
    super(message)
    this.code = code
    this.cause = cause
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
 * Maps anything a wallet throws to a SigilError from the catalogue: known codes get their
 * catalogue text, otherwise the error's own message, else 'Unknown error'.
 */
export function toSigilError(error: unknown): SigilError {
  if (error instanceof SigilError) return error
  const code = errorCode(error)
  if (code !== undefined && RpcErrorMessages[code]) {
    return new SigilError(RpcErrorMessages[code], code, error)
  }
  const message = error instanceof Error && error.message ? error.message : typeof error === 'string' && error ? error : ErrorMessages.unknown
  return new SigilError(message, code ?? RpcErrorCode.defaultError, error)
}

/** True when the user declined in the wallet (code 4001). */
export function isUserRejection(error: unknown): boolean {
  return errorCode(error) === RpcErrorCode.userRejected
}
