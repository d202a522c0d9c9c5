/*
 * @sigil/core entry: what a host page needs to render a connect button and restore a
 * connection. The directory client, wallet-list ordering and network data live in subpath
 * entries (`@sigil/core/api`, `/wallet-list`, `/networks`) so they load on demand.
 */
export { createSigil, type SigilClient, type SigilDependencies } from './client.js'
export type { ChainAdapter, AdapterEvents, ConnectResult } from './adapter.js'
export { deferredAnalyticsSink, type AnalyticsEvent, type AnalyticsSink } from './analytics.js'
export { track, isMobileUserAgent, type SigilContext } from './context.js'
export {
  resolveOptions,
  defaultFeatures,
  DEFAULT_CONNECTOR_ORDER,
  DEFAULT_CONNECT_METHODS_ORDER,
  DEFAULT_WALLET_FEATURES_ORDER,
  DEFAULT_SOCIALS,
  type ConnectMethod,
  type ConnectorSection,
  type Features,
  type Metadata,
  type ResolvedOptions,
  type SigilOptions,
  type SocialProvider,
  type ThemeMode,
  type ThemeVariables,
  type WalletFeature,
} from './options.js'
export {
  createSigilStore,
  initialAccountState,
  initialChainState,
  updateChain,
  type BalanceStatus,
  type ChainState,
  type NotificationState,
  type NotificationVariant,
  type RouteData,
  type RouteEntry,
  type SigilState,
  type SigilStore,
  type View,
} from './store.js'
export {
  currentRoute,
  currentView,
  findConnectorForWallet,
  goingBackCloses,
  pickOpenView,
  popView,
  pushView,
  replaceView,
  resetView,
  selectWalletView,
  type OpenViewInput,
} from './router.js'
export { closeModal, goBack, isConnected, openModal, selectWallet, setModalLoading, type CloseOptions, type OpenOptions } from './modal.js'
export { activeAccount, resetAccount, setAccountAddress, setAccountProps } from './account.js'
export { forgetConnection, setConnectedConnector, setConnectionStatus } from './connection.js'
export {
  addNetwork,
  findNetwork,
  isActiveNetworkUnsupported,
  isNetworkAllowed,
  networksOf,
  removeNetwork,
  resetNetwork,
  setActiveNetwork,
  setApprovedNetworks,
  setRequestedNetworks,
  setSupportsAllNetworks,
  shouldShowUnsupportedChain,
  syncWalletNetwork,
} from './network.js'
export {
  hideNotification,
  NOTIFICATION_REPLACE_DELAY_MS,
  showError,
  showLoading,
  showNotification,
  showSuccess,
} from './notification.js'
export {
  BALANCE_CACHE_MS,
  BALANCE_RETRY_LOCK_MS,
  listedTokens,
  nativeBalanceOf,
  tokenFiatValue,
  totalFiatValue,
  walletAssetBalances,
  type RefreshBalanceOptions,
} from './balance.js'
export { applyConnection, restoreSession } from './restore.js'
export {
  ADDRESS_CACHE_KEYS,
  createSigilStorage,
  IDENTITY_CACHE_MS,
  MAX_RECENT_WALLETS,
  NATIVE_BALANCE_CACHE_MS,
  StorageKeys,
  type CachedBalance,
  type CachedIdentity,
  type KeyValueStorage,
  type SigilStorage,
} from './storage.js'
export {
  CHAIN_NAMESPACES,
  formatCaipAddress,
  formatCaipNetworkId,
  isAddressOf,
  isCaipAddress,
  isCaipNetworkId,
  isChainNamespace,
  isEvmAddress,
  isSolanaAddress,
  parseCaipAddress,
  parseCaipNetworkId,
  type ParsedCaipAddress,
  type ParsedCaipNetworkId,
} from './caip.js'
export { floorDecimals, formatBalance, formatFiat, formatUnits, shortenAddress } from './format.js'
export {
  errorCode,
  ErrorMessages,
  isUserRejection,
  RpcErrorCode,
  RpcErrorMessages,
  SigilError,
  toSigilError,
  tryAgainAfter,
} from './errors.js'
export { isUnsupportedNetwork, rpcUrlOf, unsupportedNetwork } from './networks.js'
export { SDK_TYPE, SDK_VERSION } from './version.js'
export { serverSiwx, localSiwx, type ServerSiwxOptions, type LocalSiwxOptions } from './siwx/config.js'
export { siwxErrorMessage, type SiwxController } from './siwx/controller.js'
export { siwxBlocksClose } from './siwx/guard.js'
export type { SIWXConfig, SIWXMessage, SIWXMessageData, SIWXMessageInput, SIWXSession, SiwxState, SiwxStatus } from './siwx/types.js'
export type * from './types.js'
