/*
 * `@sigil/core/onramp`: the onramp feature (buy with a card through the providers the server is
 * configured with). Loaded with the onramp views, never with the host page.
 */
export { canBuy } from './available.js'
export {
  amountRefusal,
  DEFAULT_PAYMENT_METHOD,
  finishOnramp,
  leaveOnramp,
  loadOnrampOptions,
  ONRAMP_NAMESPACES,
  FOLLOWED_PROVIDERS,
  ONRAMP_POLL_MS,
  onrampApi,
  onrampCountry,
  openOnramp,
  openProviderWindow,
  paymentLimit,
  providersOn,
  purchasesOn,
  quoteOnramp,
  startOnramp,
  watchOnramp,
  type OnrampForm,
  type OnrampProgress,
  type Purchase,
  type QuoteOnrampErrorType,
  type QuoteOnrampReturnType,
  type StartOnrampErrorType,
  type WatchOnrampReturnType,
} from './onramp.js'
export {
  createOnrampClient,
  type Money,
  type OnrampClient,
  type OnrampClientOptions,
  type OnrampOptions,
  type OnrampProvider,
  type OnrampQuote,
  type OnrampQuoteParams,
  type OnrampSession,
  type OnrampStatus,
  type OnrampUrlParams,
  type PaymentCurrency,
  type PaymentMethodLimit,
  type PurchaseCurrency,
  type PurchaseNetwork,
} from './api.js'
export { OnrampError, type OnrampErrorCode } from './errors.js'
