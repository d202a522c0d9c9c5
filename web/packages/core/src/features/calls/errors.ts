/*
 * The errors EIP-5792 defines for wallet_sendCalls and wallet_getCallsStatus, one class per
 * code (viem's shape: a literal `code`, so callers match on the class or the code). A wallet's
 * own error with one of these codes becomes its class (callsError).
 */
import { errorCode, SigilError, toSigilError } from '../../errors.js'
import { localized } from '../../messages/active.js'
import { calls as englishCalls } from '../../messages/calls.js'

/** Its words in the visitor's locale (English until the modal loads one). */
const texts = localized('calls', englishCalls)

/** 5700: a capability the request did not mark optional is one the wallet (or Sigil's one-by-one sending) lacks. */
export class UnsupportedNonOptionalCapabilityError extends SigilError<5700> {
  override name = 'UnsupportedNonOptionalCapabilityError'
  static readonly code = 5700 as const
  constructor(
    readonly capability: string,
    cause?: unknown,
  ) {
    super(texts.unsupportedNonOptionalCapability(capability), 5700, cause)
  }
}

/** 5710: the calls cannot go on that chain. */
export class UnsupportedChainIdError extends SigilError<5710> {
  override name = 'UnsupportedChainIdError'
  static readonly code = 5710 as const
  constructor(
    readonly chainId: string,
    cause?: unknown,
  ) {
    super(texts.unsupportedChainId(chainId), 5710, cause)
  }
}

/** 5720: a bundle with that id was submitted already. */
export class DuplicateIdError extends SigilError<5720> {
  override name = 'DuplicateIdError'
  static readonly code = 5720 as const
  constructor(
    readonly id: string,
    cause?: unknown,
  ) {
    super(texts.duplicateId(id), 5720, cause)
  }
}

/** 5730: no bundle with that id was submitted (through Sigil or the wallet). */
export class UnknownBundleIdError extends SigilError<5730> {
  override name = 'UnknownBundleIdError'
  static readonly code = 5730 as const
  constructor(
    readonly id: string,
    cause?: unknown,
  ) {
    super(texts.unknownBundleId(id), 5730, cause)
  }
}

/** 5740: the wallet cannot take that many calls at once. */
export class BundleTooLargeError extends SigilError<5740> {
  override name = 'BundleTooLargeError'
  static readonly code = 5740 as const
  constructor(cause?: unknown) {
    super(texts.bundleTooLarge, 5740, cause)
  }
}

/** 5750: the wallet could become atomic-capable, but the user rejected the upgrade. */
export class AtomicReadyWalletRejectedUpgradeError extends SigilError<5750> {
  override name = 'AtomicReadyWalletRejectedUpgradeError'
  static readonly code = 5750 as const
  constructor(cause?: unknown) {
    super(texts.atomicReadyUpgradeRejected, 5750, cause)
  }
}

/** 5760: the request requires atomic execution and the wallet cannot give it. */
export class AtomicityNotSupportedError extends SigilError<5760> {
  override name = 'AtomicityNotSupportedError'
  static readonly code = 5760 as const
  constructor(cause?: unknown) {
    super(texts.atomicityNotSupported, 5760, cause)
  }
}

/** Every EIP-5792 error. */
export type CallsError =
  | UnsupportedNonOptionalCapabilityError
  | UnsupportedChainIdError
  | DuplicateIdError
  | UnknownBundleIdError
  | BundleTooLargeError
  | AtomicReadyWalletRejectedUpgradeError
  | AtomicityNotSupportedError

/** What a wallet threw, as the modal's error: an EIP-5792 code becomes its class (with what the request was about), anything else toSigilError's. */
export function callsError(error: unknown, about: { id?: string; chainId?: string; capability?: string } = {}): SigilError {
  const code = errorCode(error)
  if (error instanceof SigilError && code !== undefined && code >= 5700 && code <= 5760) return error
  switch (code) {
    case 5700:
      return new UnsupportedNonOptionalCapabilityError(about.capability ?? '', error)
    case 5710:
      return new UnsupportedChainIdError(about.chainId ?? '', error)
    case 5720:
      return new DuplicateIdError(about.id ?? '', error)
    case 5730:
      return new UnknownBundleIdError(about.id ?? '', error)
    case 5740:
      return new BundleTooLargeError(error)
    case 5750:
      return new AtomicReadyWalletRejectedUpgradeError(error)
    case 5760:
      return new AtomicityNotSupportedError(error)
    default:
      return toSigilError(error)
  }
}
