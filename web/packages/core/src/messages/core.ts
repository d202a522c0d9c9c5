/*
 * The message catalogue's part that ships with core: the error catalogue of spec section 8 and
 * the JSON-RPC code texts (core throws them), and the connect button's words. The catalogue's
 * texts for features that load on demand are in ./features.ts. The modal's view
 * texts are in ./ui.ts and load with the modal; ./index.ts joins both into the catalogue.
 */

/** Texts of the JSON-RPC / EIP-1193 error codes (spec section 8). */
export const rpc: Readonly<Record<number, string>> = {
  [-32700]: 'Invalid JSON was received by the server.',
  [-32600]: 'The JSON sent is not a valid request object.',
  [-32601]: 'The method does not exist / is not available.',
  [-32602]: 'Invalid method parameter(s).',
  [-32603]: 'An internal error was received.',
  [-32005]: 'Request exceeds defined limit.',
  4001: 'User rejected the request.',
  4100: 'The requested method and/or account has not been authorized by the user.',
  4200: 'The Provider does not support the requested method.',
  4900: 'The Provider is disconnected from all chains.',
  4901: 'The Provider is not connected to the requested chain.',
  4902: 'Unrecognized chain ID.',
  5000: 'An error occurred.',
  32603: 'Invalid chain id.',
  503: 'The service is unavailable.',
}

/** The spec's error catalogue, kept verbatim: the texts core uses (the rest are in ./features.ts). */
export const errors = {
  tokenBalanceUnavailable: 'Token Balance Unavailable',
  failedToDisconnect: 'Failed to disconnect',
  failedToDisconnectChain: (chain: string, reason: string) => `Failed to disconnect chain ${chain}: ${reason}`,
  chainNotSupported: 'Chain is not supported',
  adapterNotFound: 'Adapter not found',
  adapterForNamespaceMissing: (namespace: string) => `Adapter for namespace ${namespace} doesn't exist`,
  caipNetworkOrAddressUndefined: 'CaipNetwork or CaipAddress is undefined',
  addressOrAuthConnectorNotFound: 'Address or auth connector not found',
  invalidChainId: 'Invalid chainId',
  invalidAppConfiguration: 'Invalid App Configuration',
  projectIdNotConfigured: 'Project ID Not Configured',
  sessionExpired: 'Session Expired',
  embeddedWalletNetworkError: 'Network Error - Could not load embedded wallet',
  embeddedWalletTimeout: 'Embedded Wallet Request Timed Out',
  iframeNotSet: 'W3mFrame: iframe is not set',
  requestAborted: 'Request was aborted',
  somethingWentWrong: 'Something went wrong',
  anErrorOccurred: 'An error occurred',
  rpcNotAllowed: 'Requested RPC call is not allowed',
  invalidEmail: 'Enter a valid email address',
  invalidOtp: 'Enter the 6-digit code',
  authInitFailed: 'A problem occurred while trying initialize authentication',
  siweAndSiwx: 'Cannot set both `siweConfig` and `siwx` options',
  unknownFeature: (name: string) => `Unknown feature \`${name}\``,
  networkWithoutRpcUrl: (id: string) => `Network ${id} has no RPC URL`,
  amountAndReceiverRequired: 'An amount and receiver address are required',
  tokenRequired: 'A token is required',
  unsupportedChain: 'Unsupported chain',
  unknown: 'Unknown error',
  invalidCaipAddress: 'Invalid CAIP address',
  invalidCaipNetworkId: 'Invalid CAIP network id',
  tryAgainAfter: (seconds: number) => `Please try again after ${seconds} seconds`,
  relayUnreachable: 'The WalletConnect relay could not be reached.',
  relayLost: 'The connection to the WalletConnect relay was lost.',
  connectCancelled: 'Connecting was cancelled.',
  walletConnectUnavailable: 'WalletConnect could not be loaded.',
  invalidRelayUrl: (url: string) => `Invalid WalletConnect relay URL "${url}": it must start with ws:// or wss://`,
  walletSessionEnded: 'The wallet ended the session.',
}

/** What the host page's connect button says before the modal loads. */
export const connectButton = { label: 'Connect Wallet', loading: 'Connecting…' }
