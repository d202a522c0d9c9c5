/**
 * The onramp feature's texts that load with its actions: why a purchase cannot be quoted or
 * started, in words.
 */
export const onramp = {
  networkNotSupported: 'Buying with a card is not available on this network',
  invalidAmount: 'Enter an amount, such as 100 or 49.99',
  belowMinimum: (min: string, currency: string, method: string) => `The least you can pay by ${method} is ${min} ${currency}`,
  aboveMaximum: (max: string, currency: string, method: string) => `The most you can pay by ${method} is ${max} ${currency}`,
  popupBlocked: (provider: string) => `The browser blocked the ${provider} window: open it with the link below.`,
  failed: (provider: string) => `${provider} says the purchase did not go through.`,
  server: (message: string) => `The onramp service failed: ${message}`,
}
