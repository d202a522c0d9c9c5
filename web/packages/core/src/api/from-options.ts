import type { ResolvedOptions } from '../options.js'
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
