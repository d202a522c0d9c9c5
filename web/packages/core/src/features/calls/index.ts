/*
 * `@sigil/core/calls`: EIP-5792 for host apps: sendCalls, getCallsStatus and getCapabilities on
 * the connected eip155 account, and EIP-5792's errors. Loaded when the host uses them, never
 * with the page's first script.
 */
export {
  CALLS_VERSION,
  chainIdHex,
  getCallsStatus,
  getCapabilities,
  isFinalCallsStatus,
  sendCalls,
  type CallsChainId,
  type GetCallsStatusErrorType,
  type GetCallsStatusParameters,
  type GetCallsStatusReturnType,
  type GetCapabilitiesErrorType,
  type GetCapabilitiesParameters,
  type GetCapabilitiesReturnType,
  type RequestedCapability,
  type SendCallsErrorType,
  type SendCallsParameters,
  type SendCallsReturnType,
} from './calls.js'
export {
  AtomicityNotSupportedError,
  AtomicReadyWalletRejectedUpgradeError,
  BundleTooLargeError,
  callsError,
  DuplicateIdError,
  UnknownBundleIdError,
  UnsupportedChainIdError,
  UnsupportedNonOptionalCapabilityError,
  type CallsError,
} from './errors.js'
