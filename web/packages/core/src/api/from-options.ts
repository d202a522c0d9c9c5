import type { ResolvedOptions } from '../options.js'
import { createBlockchainClient, type BlockchainClient } from '../features/account/blockchain.js'
import type { Wallet } from '../types.js'
import { createDirectoryClient, MAX_SEARCH_RESULTS, WALLETS_PAGE_SIZE, type DirectoryClient, type GetWalletsParams } from './directory.js'

/** The directory client for a modal's resolved options (its apiUrl, projectId, st and sv). */
export function directoryClientFor(options: ResolvedOptions, fetchImpl?: typeof fetch): DirectoryClient {
  return createDirectoryClient({
    baseUrl: options.apiUrl,
    projectId: options.projectId,
    sdkType: options.sdkType,
    sdkVersion: options.sdkVersion,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  })
}

/** The blockchain data client (balances, identity) for a modal's resolved options. */
export function blockchainClientFor(options: ResolvedOptions, fetchImpl?: typeof fetch): BlockchainClient {
  return createBlockchainClient({
    baseUrl: options.apiUrl,
    projectId: options.projectId,
    sdkType: options.sdkType,
    sdkVersion: options.sdkVersion,
    ...(fetchImpl ? { fetch: fetchImpl } : {}),
  })
}

/** The pages of the wallet list a modal's options ask for, and how its wallets' icons are found. */
export interface WalletListQueries {
  /** The host's include/exclude ids, applied to every query of the list. */
  readonly filter: GetWalletsParams
  /** Page `page` of the whole list (40 a page). */
  pageParams(page: number): GetWalletsParams
  /** The wallets whose name matches `search` (up to 100, one page). */
  searchParams(search: string): GetWalletsParams
  walletImage(wallet: Pick<Wallet, 'image_id' | 'image_url'>): string | undefined
}

/** The wallet-list queries for `options`, through `api` (the modal's All Wallets view and the headless hooks ask the same). */
export function walletListQueries(options: ResolvedOptions, api: DirectoryClient): WalletListQueries {
  const filter: GetWalletsParams = {
    ...(options.includeWalletIds.length ? { include: options.includeWalletIds } : {}),
    ...(options.excludeWalletIds.length ? { exclude: options.excludeWalletIds } : {}),
  }
  return {
    filter,
    pageParams: (page) => ({ ...filter, page, entries: WALLETS_PAGE_SIZE }),
    searchParams: (search) => ({ ...filter, page: 1, entries: MAX_SEARCH_RESULTS, search }),
    walletImage: (wallet) => (wallet.image_id ? api.walletImageUrl(wallet.image_id) : wallet.image_url || undefined),
  }
}
