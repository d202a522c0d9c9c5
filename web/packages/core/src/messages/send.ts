/**
 * The send feature's texts that load with its action (and with the embedded wallet's requests):
 * why a send is refused before signing, and the transaction errors of spec section 8 (nonce too
 * low or high, insufficient funds, fee cap too low or high, gas too low or high, execution
 * reverted; and Solana's rent minimum), which replace a chain's raw answer.
 */
export const send = {
  invalidReceiver: (network: string) => `This is not a valid address on ${network}`,
  nameNotResolved: (name: string, network: string) => `${name} has no address on ${network}`,
  invalidAmount: (decimals: number) => `Enter an amount above 0 with at most ${decimals} decimals`,
  insufficientBalance: (balance: string, symbol: string) => `Insufficient funds: the balance is ${balance} ${symbol}`,
  insufficientForFee: (fee: string, symbol: string) => `Insufficient funds for the network fee (about ${fee} ${symbol})`,
  transaction: {
    nonceTooLow: 'The transaction’s nonce is lower than the account’s next one: it may have been sent already.',
    nonceTooHigh: 'The transaction’s nonce is higher than the account’s next one.',
    insufficientFunds: 'Insufficient funds: the amount and the network fee are more than the account holds.',
    belowRent: 'An account would be left with less than the minimum balance the network requires (rent): send more, or to an account that holds SOL.',
    feeCapTooLow: 'The transaction’s fee cap is lower than the network’s base fee.',
    feeCapTooHigh: 'The transaction’s fee cap is higher than the network allows.',
    gasTooLow: 'The transaction’s gas limit is too low.',
    gasTooHigh: 'The transaction’s gas limit is higher than a block allows.',
    executionReverted: (reason?: string) => (reason ? `The transaction was reverted: ${reason}` : 'The transaction was reverted.'),
  },
}
