import type { ResolvedOptions } from '../options.js'
import { createBlockchainClient, type BlockchainClient } from '../features/account/blockchain.js'
import { createDirectoryClient, type DirectoryClient } from './directory.js'

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
