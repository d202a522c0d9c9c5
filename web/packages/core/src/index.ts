/*
 * @sigil/core entry: what a host page needs to render a connect button and restore a
 * connection: the store, the actions, the chain-neutral connectors (WalletConnect, the embedded
 * wallet's frame) and the chain adapter interface (a chain family: what its wallets are and do).
 * The directory client, wallet-list ordering, network data, the views' message catalogue and
 * what a family's session code reads a session with live in subpath entries (`@sigil/core/api`,
 * `/wallet-list`, `/networks`, `/messages`, `/session`) so they load on demand.
 */
export { createSigil, type SigilClient, type SigilDependencies } from './client.js'
export type {
  Call,
  CallBatch,
  CallsCapability,
  CallsReceipt,
  CallsRequest,
  CallsStatus,
  ChainAdapter,
  FamilyCalls,
  FamilyEvent,
  FamilySession,
  SessionBinding,
  SessionCapability,
  GasTerms,
  HostCall,
  NftTransfer,
  Transfer,
  TransferFee,
  WalletCapabilities,
} from './adapter.js'
export type {
  Connection,
  ConnectionAccount,
  ConnectorEvent,
  ConnectorSource,
  ConnectorSourceContext,
  ConnectParams,
  WalletConnector,
} from './connectors/types.js'
export { sessionFamilies, type SessionFamilies, type SessionNamespace, type SessionTransport } from './connectors/transport.js'
export {
  AUTH_CONNECTOR_ID,
  EMAIL_COOLDOWN_MS,
  embeddedWallet,
  isAuthConnector,
  LoginCacheKeys,
  type AuthConnector,
  type AuthConnectorOptions,
  type SocialLogin,
  type DeviceAction,
  type EmailAction,
  type EmbeddedRequestEvent,
} from './connectors/auth.js'
export { NOT_ALLOWED_ERROR_DELAY_MS, watchEmbeddedRequests, watchUnsupportedChain } from './watchers.js'
export {
  isWalletConnectConnector,
  walletConnectConnector,
  walletConnectConnectors,
  WALLET_CONNECT_ID,
  WALLET_CONNECT_NAME,
  type PairingStatus,
  type RelayStatus,
  type WalletConnectConnector,
  type WalletConnectConnectorOptions,
  type WalletConnectSession,
  type WalletConnectSessionHost,
  type WalletConnectState,
} from './connectors/walletconnect.js'
export { openWalletApp, walletConnectLink, walletLinkTabs, walletLinkTarget } from './connectors/deep-link.js'
export { isEip1193Provider, type Eip1193Listener, type Eip1193Provider } from './eip1193.js'
export * from './actions/index.js'
export { emitter, type Emitter } from './emitter.js'
export { deferredAnalyticsSink, type AnalyticsEvent, type AnalyticsSink } from './analytics.js'
export { track, isMobileUserAgent, type AccountData, type SigilContext, type SigilEvent } from './context.js'
export { connectButton as connectButtonMessages } from './messages/core.js'
export type { Messages } from './messages/index.js'
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
  type WalletConnectOptions,
} from './options.js'
export {
  createSigilStore,
  initialAccountState,
  initialChainState,
  updateChain,
  type BalanceStatus,
  type ChainState,
  type LocaleState,
  type NotificationState,
  type NotificationVariant,
  type ProviderEntry,
  type RouteEntry,
  type RouteOf,
  type SigilState,
  type SigilStore,
  type View,
  type ViewArgs,
  type ViewParams,
} from './store.js'
export {
  currentRoute,
  currentView,
  findConnectorForWallet,
  goingBackCloses,
  pickOpenView,
  popView,
  pushRoute,
  pushView,
  replaceView,
  resetRoute,
  resetView,
  routeEntry,
  selectWalletView,
  type OpenViewInput,
} from './router.js'
export { closeModal, goBack, isConnected, openingView, openModal, selectWallet, setModalLoading, type CloseOptions, type OpenOptions } from './modal.js'
export { canSend, displayAddress, familyCan, isMobileDevice, openingViewOf, walletConnectOf, type FamilyAbility } from './selectors.js'
export { activeAccount, explorerUrl, resetAccount, setAccountAddress, setAccountProps } from './account.js'
export {
  applyConnection,
  clearConnection,
  connectorNamespaces,
  forgetConnection,
  namespacesOf,
  setConnectedConnector,
  setConnectionStatus,
} from './connection.js'
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
  setNamespaceNetwork,
  syncWalletNetwork,
  walletNetwork,
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
} from './features/account/balance.js'
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
  isCaipAddress,
  isCaipNetworkId,
  isChainNamespace,
  parseCaipAddress,
  parseCaipNetworkId,
  type ParsedCaipAddress,
  type ParsedCaipNetworkId,
} from './caip.js'
export { floorDecimals, formatBalance, formatFiat, formatUnits, shortenAddress } from './format.js'
export {
  AdapterNotFoundError,
  ChainDisconnectedError,
  ConfigurationError,
  ConnectorNotFoundError,
  DisconnectError,
  errorCode,
  ErrorMessages,
  errorText,
  InternalRpcError,
  InvalidParamsRpcError,
  InvalidRequestRpcError,
  isUserRejection,
  LimitExceededRpcError,
  MethodNotFoundRpcError,
  NoAccountsError,
  NotConnectedError,
  ParseRpcError,
  ProviderDisconnectedError,
  RpcError,
  RpcErrorCode,
  RpcErrorMessages,
  SigilError,
  SwitchChainError,
  toSigilError,
  tryAgainAfter,
  UnauthorizedProviderError,
  UnsupportedChainError,
  AmountAndReceiverRequiredError,
  TokenRequiredError,
  UnsupportedProviderMethodError,
  UserRejectedRequestError,
  WalletConnectError,
  type RpcErrorCodeValue,
} from './errors.js'
export { isUnsupportedNetwork, rpcUrlOf, unsupportedNetwork } from './networks.js'
export { SDK_TYPE, SDK_VERSION } from './version.js'
export { serverSiwx, localSiwx, type ServerSiwxOptions, type LocalSiwxOptions } from './features/siwx/config.js'
export type { SiwxController } from './features/siwx/controller.js'
export { siwxBlocksClose } from './features/siwx/guard.js'
export type { SIWXConfig, SIWXMessage, SIWXMessageData, SIWXMessageInput, SIWXSession, SiwxState, SiwxStatus } from './features/siwx/types.js'
export type { SIWEConfig, SIWECreateMessageArgs, SIWEMessageParams, SIWESession } from './features/siwx/types.js'
export type * from './types.js'
