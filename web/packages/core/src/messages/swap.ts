/**
 * The swap feature's texts that load with its actions: why a swap cannot be quoted or sent, each
 * said in words (no route, insufficient balance, insufficient allowance, not enough liquidity,
 * the price moved), and the spec's 'Network not supported for Swaps' (section 8).
 */
export const swap = {
  networkNotSupported: 'Network not supported for Swaps',
  gasPriceNetworkNotSupported: 'Network not supported for Gas Price',
  noRoute: (from: string, to: string) => `No route from ${from} to ${to} on this network.`,
  insufficientBalance: (balance: string, symbol: string) => `Insufficient balance: the account holds ${balance} ${symbol}.`,
  insufficientAllowance: (symbol: string) => `The swap may not spend this much ${symbol}: approve the amount first.`,
  insufficientLiquidity: 'Not enough liquidity in the pools for this amount.',
  priceMoved: 'The price moved beyond your slippage tolerance: review the new quote.',
  quoteExpired: 'The quote expired: review the new one.',
  sameToken: 'Choose two different tokens.',
  invalidAmount: (decimals: number) => `Enter an amount above 0 with at most ${decimals} decimals`,
  invalidSlippage: 'Slippage must be more than 0 % and at most 50 %.',
  server: (message: string) => `The swap service refused: ${message}`,
}
