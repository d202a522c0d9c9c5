// Loaded on demand (when the modal opens or the wallet list is prefetched), not by the entry.
export {
  createDirectoryClient,
  DirectoryApiError,
  MAX_SEARCH_RESULTS,
  WALLETS_PAGE_SIZE,
  type AnalyticsConfig,
  type AnalyticsEventBody,
  type DirectoryClient,
  type DirectoryClientOptions,
  type GetWalletsParams,
  type WalletsPage,
} from './directory.js'
export { createDirectoryAnalyticsSink, type DirectoryAnalyticsOptions } from './analytics-sink.js'
export { createWalletListCache, walletParamsKey, type WalletListCache, type WalletListEntry } from './wallet-cache.js'
export {
  BlockchainApiError,
  createBlockchainClient,
  type BlockchainClient,
  type BlockchainClientOptions,
  type FungiblePrice,
  type FiatCurrency,
  type GetBalancesParams,
  type Identity,
} from '../features/account/blockchain.js'
export { blockchainClientFor, directoryClientFor, walletListQueries, type WalletListQueries } from './from-options.js'
