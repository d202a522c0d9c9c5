/*
 * @sigil/react entry: createAppKit, hooks and <ConnectButton/>. Everything here is what a host
 * page loads up front; the modal UI and the directory client load on first open (or when idle).
 */
export { createAppKit, getAppKit, type AppKit, type AppKitOptions, type OpenAppKitOptions } from './appkit.js'
export {
  useAppKit,
  useAppKitAccount,
  useAppKitEvents,
  useAppKitLocale,
  useAppKitNetwork,
  useAppKitProvider,
  useAppKitSelector,
  useAppKitSiwx,
  useAppKitState,
  useAppKitTheme,
  useDisconnect,
  useWalletInfo,
  type AppKitAccount,
  type AppKitLocale,
  type AppKitNetwork,
  type AppKitProvider,
  type AppKitSiwx,
  type AppKitState,
  type UseAppKit,
} from './hooks.js'
export type { AppKitNetworkState } from './state.js'
export { ConnectButton, type ConnectButtonProps } from './ConnectButton.js'
export { SigilProvider, type SigilProviderProps } from './provider.js'
export type {
  CaipNetwork,
  ChainAdapter,
  ChainNamespace,
  ConnectorSource,
  Eip1193Provider,
  SigilEvent,
  SIWEConfig,
  SIWECreateMessageArgs,
  SIWESession,
  SIWXConfig,
  SIWXSession,
  SiwxStatus,
  ThemeMode,
  ThemeVariables,
  View,
} from '@sigil/core'
export { serverSiwx, localSiwx, type ServerSiwxOptions, type LocalSiwxOptions } from '@sigil/core'
