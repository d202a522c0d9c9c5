/*
 * `@sigil/core/pay`: the pay feature (a deposit from an exchange, issue 27; the host's
 * `features.pay`, off by default). Loaded with the pay views, never with the host page.
 */
export { canPay } from './available.js'
export {
  finishPay,
  leavePay,
  loadExchanges,
  openExchangeWindow,
  openPay,
  PAY_POLL_MS,
  payAmountRefusal,
  payApi,
  payAssets,
  startPay,
  watchPay,
  type PayAsset,
  type PayProgress,
  type StartPayErrorType,
  type WatchPayReturnType,
} from './pay.js'
export { createPayClient, type Exchange, type ExchangesParams, type PayClient, type PayClientOptions, type PayStatus, type PayUrlParams } from './api.js'
export { PayError, type PayErrorCode } from './errors.js'
