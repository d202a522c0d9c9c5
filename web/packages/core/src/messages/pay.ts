/**
 * The pay feature's texts (a deposit from an exchange, issue 27): the Account view's entry, the
 * views' titles and words, and why a deposit cannot start. Part of `Translation`: every locale
 * translates them.
 */
export const pay = {
  open: 'Deposit from exchange',
  titles: { PayWithExchange: 'Deposit from exchange', PayProgress: 'Deposit' },
  form: 'Deposit from an exchange',
  asset: 'Asset',
  amount: 'Amount',
  exchanges: 'Choose an exchange',
  loading: 'Loading exchanges…',
  none: 'No exchange is set up on this server.',
  invalidAmount: (decimals: number) => `Enter an amount above 0 with at most ${decimals} decimals, such as 0.05`,
  opening: 'Opening…',
  waiting: (exchange: string) => `Finish the deposit in the ${exchange} window`,
  blocked: (exchange: string) => `The browser blocked the ${exchange} window: open it with the link below.`,
  depositing: (amount: string, symbol: string) => `Depositing ${amount} ${symbol}`,
  follow: 'This view shows when the deposit arrives at your address.',
  openExchange: (exchange: string) => `Open ${exchange}`,
  openAgain: (exchange: string) => `Open ${exchange} again`,
  done: (amount: string, symbol: string) => `${amount} ${symbol} arrived`,
  transaction: 'Transaction',
  close: 'Close',
  failed: (exchange: string) => `The deposit from ${exchange} did not arrive.`,
  tryAgain: 'Try again',
  server: (message: string) => `The deposit service failed: ${message}`,
}
