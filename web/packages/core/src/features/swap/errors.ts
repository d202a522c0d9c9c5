/*
 * How a swap ends when it does not swap, as one error type with a code per reason, each said in
 * words from the catalogue (messages/swap.ts): the network has no swaps, no route between the
 * tokens, the balance or the allowance does not cover the amount, the pools lack liquidity, the
 * price moved past the slippage tolerance, the quote expired. The server's refusals and a
 * router's revert reasons (Uniswap V2's INSUFFICIENT_OUTPUT_AMOUNT, an ERC-20's allowance
 * revert) become these; anything else keeps its own words.
 */
import { SigilError } from '../../errors.js'
import { localized } from '../../messages/active.js'
import { swap as englishSwap } from '../../messages/swap.js'

/** Its words in the visitor's locale (English until the modal loads one). */
const swap = localized('swap', englishSwap)

export type SwapErrorCode =
  | 'NETWORK_NOT_SUPPORTED'
  | 'GAS_PRICE_NETWORK_NOT_SUPPORTED'
  | 'NO_ROUTE'
  | 'INSUFFICIENT_BALANCE'
  | 'INSUFFICIENT_ALLOWANCE'
  | 'INSUFFICIENT_LIQUIDITY'
  | 'PRICE_MOVED'
  | 'QUOTE_EXPIRED'
  | 'SAME_TOKEN'
  | 'INVALID_AMOUNT'
  | 'INVALID_SLIPPAGE'
  | 'SERVER'

/** A swap refused, before the wallet is asked or by the chain; `code` says why. */
export class SwapError extends SigilError<SwapErrorCode> {
  override name = 'SwapError'
  /** The HTTP status, when the swap server refused. */
  readonly status: number | undefined
  constructor(message: string, code: SwapErrorCode, options: { cause?: unknown; status?: number } = {}) {
    super(message, code, options.cause)
    this.status = options.status
  }
}

/** What a server code or a revert's words stand for, checked in this order. */
const REASONS: readonly [SwapErrorCode, RegExp][] = [
  ['NETWORK_NOT_SUPPORTED', /not supported for swaps|UNSUPPORTED_NETWORK|NETWORK_NOT_SUPPORTED/i],
  ['GAS_PRICE_NETWORK_NOT_SUPPORTED', /not supported for gas price/i],
  ['INSUFFICIENT_LIQUIDITY', /INSUFFICIENT_LIQUIDITY|not enough liquidity|insufficient liquidity/i],
  ['PRICE_MOVED', /INSUFFICIENT_OUTPUT_AMOUNT|EXCESSIVE_INPUT_AMOUNT|price moved|PRICE_MOVED|slippage/i],
  ['INSUFFICIENT_ALLOWANCE', /allowance|TRANSFER_FROM_FAILED|INSUFFICIENT_ALLOWANCE/i],
  ['INSUFFICIENT_BALANCE', /INSUFFICIENT_BALANCE|exceeds balance|insufficient balance|not enough balance/i],
  ['NO_ROUTE', /NO_ROUTE|no route|no pool|INVALID_PATH|no liquidity pool/i],
]

/** The catalogue's words for a reason (the tokens' symbols where it names them). */
export function swapErrorText(code: SwapErrorCode, tokens: { from?: string; to?: string } = {}, fallback = ''): string {
  switch (code) {
    case 'NETWORK_NOT_SUPPORTED':
      return swap.networkNotSupported
    case 'GAS_PRICE_NETWORK_NOT_SUPPORTED':
      return swap.gasPriceNetworkNotSupported
    case 'NO_ROUTE':
      return swap.noRoute(tokens.from ?? '?', tokens.to ?? '?')
    case 'INSUFFICIENT_ALLOWANCE':
      return swap.insufficientAllowance(tokens.from ?? '')
    case 'INSUFFICIENT_LIQUIDITY':
      return swap.insufficientLiquidity
    case 'PRICE_MOVED':
      return swap.priceMoved
    case 'QUOTE_EXPIRED':
      return swap.quoteExpired
    case 'SAME_TOKEN':
      return swap.sameToken
    case 'INVALID_SLIPPAGE':
      return swap.invalidSlippage
    default:
      return fallback
  }
}

/** The reason a server code or message (or a revert's words) names; undefined when none. */
export function swapReason(words: string): SwapErrorCode | undefined {
  return REASONS.find(([, rule]) => rule.test(words))?.[0]
}

/**
 * The swap server's refusal as a SwapError: its code or message read for a known reason (said
 * in the catalogue's words), else its own message kept ('The swap service refused: …').
 */
export function serverSwapError(
  failure: { status: number; message: string; code: string | undefined },
  tokens: { from?: string; to?: string } = {},
): SwapError {
  const reason = swapReason(`${failure.code ?? ''} ${failure.message}`)
  if (reason && reason !== 'INSUFFICIENT_BALANCE') return new SwapError(swapErrorText(reason, tokens), reason, { status: failure.status })
  if (reason === 'INSUFFICIENT_BALANCE') return new SwapError(failure.message, reason, { status: failure.status })
  return new SwapError(swap.server(failure.message), 'SERVER', { status: failure.status })
}
