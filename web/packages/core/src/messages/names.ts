/**
 * The account-name feature's texts that load with its actions: the spec's error catalogue
 * (section 8) and why a name cannot be registered, in words.
 */
export const names = {
  errorResolving: 'Error resolving name',
  errorSuggestions: 'Error fetching name suggestions',
  errorReverse: 'Error fetching names for address',
  errorRegistering: (name: string) => `Error registering name ${name}`,
  invalidName: 'A name has at least 4 characters: letters, digits and hyphens',
  invalidChainId: 'Invalid chainId',
  taken: (name: string) => `${name} is taken`,
  notSupported: 'Account names are for EVM accounts that can sign',
}
