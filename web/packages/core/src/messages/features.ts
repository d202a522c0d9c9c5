/*
 * The spec's error texts (section 8) that nothing loaded with the host page says: those of the
 * features that load on demand (activity, gas prices, swaps, names, smart accounts, the email
 * login) and of controllers Sigil has in another shape. Kept verbatim, in the catalogue, out of
 * the script a page loads first.
 */
export const featureErrors = {
  failedToFetchTransactions: 'Failed to fetch transactions',
  gasPriceNetworkNotSupported: 'Network not supported for Gas Price',
  swapsNetworkNotSupported: 'Network not supported for Swaps',
  chainAdapterNotFound: 'Chain adapter not found',
  caipNetworkUndefined: 'CaipNetwork is undefined',
  networkNotFound: 'Network not found',
  networkControllerClientNotSet: 'NetworkController client not set',
  connectionControllerClientNotSet: 'ConnectionController client not set',
  invalidProjectId: 'Invalid Project ID',
  emailLoginDependency: 'Unable to load email login dependency',
  parentNotSet: 'W3mFrame: parent is not set',
  signatureDeclined: 'Signature declined',
  smartAccountsUnsupported: 'This application might not support Smart Accounts',
  requestTimeout: 'The request took too long to respond.',
  errorResolvingName: 'Error resolving name',
  errorFetchingNameSuggestions: 'Error fetching name suggestions',
  errorFetchingNamesForAddress: 'Error fetching names for address',
  errorRegisteringName: (name: string) => `Error registering name ${name}`,
  /** A `siweConfig`'s verifyMessage answered false. */
  siweNotVerified: 'The sign-in could not be verified',
}
