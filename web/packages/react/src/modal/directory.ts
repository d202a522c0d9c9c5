import {
  createWalletListCache,
  directoryClientFor,
  walletListQueries,
  type DirectoryClient,
  type GetWalletsParams,
  type WalletListCache,
} from '@sigil/core/api'
import type { CaipNetwork, CaipNetworkId, ChainNamespace, ResolvedOptions, Wallet } from '@sigil/core'

/** Image preload timeout (spec section 9). */
export const IMAGE_PRELOAD_TIMEOUT_MS = 2000
/** Search wait before querying (spec section 9). */
export const SEARCH_DEBOUNCE_MS = 300
/** How many of a family's wallets the Connect view asks for (it shows fewer: some are already listed otherwise). */
const FAMILY_WALLETS = 8
/**
 * The chains directory records name for each family, beside the page's own (a dev chain is in
 * none): the ids of @sigil/core/networks' ethereum, arbitrum, polygon, solana, solanaDevnet,
 * solanaTestnet, bitcoin and bitcoinTestnet (directory.test.ts checks them). Ids rather than the
 * networks themselves: @sigil/core/networks loads with the page, and what this chunk used of it
 * (the Solana and Bitcoin networks' data) went into the page's first script with it.
 */
export const KNOWN_CHAINS: readonly CaipNetworkId[] = [
  'eip155:1',
  'eip155:42161',
  'eip155:137',
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
  'bip122:000000000019d6689c085ae165831e93',
  'bip122:000000000933ea01ad0ee984209779ba',
]

export interface Directory {
  readonly api: DirectoryClient
  readonly cache: WalletListCache
  /** Page `page` of the whole list (40 a page). Page 1 also feeds the Connect view. */
  pageParams(page: number): GetWalletsParams
  searchParams(search: string): GetWalletsParams
  /** Featured wallets by id, when the host named some. */
  featuredParams(): GetWalletsParams | undefined
  /**
   * The first wallets of one chain family: those speaking one of its chains (the page's
   * networks of the family and the family's well-known ones).
   */
  familyParams(namespace: ChainNamespace, networks: readonly CaipNetwork[]): GetWalletsParams
  walletImage(wallet: Pick<Wallet, 'image_id' | 'image_url'>): string | undefined
  networkImage(network: CaipNetwork): string | undefined
  /**
   * Warms page 1, the featured wallets and each family's first wallets, then preloads the first
   * icons (2 s cap). `listed` runs as soon as the wallets are cached, before the icons.
   */
  prefetch(listed?: () => void): Promise<void>
}

export function createDirectory(options: ResolvedOptions, fetchImpl?: typeof fetch): Directory {
  const api = directoryClientFor(options, fetchImpl)
  const cache = createWalletListCache(api)
  const { filter, pageParams, searchParams, walletImage } = walletListQueries(options, api)
  const featuredIds = options.featuredWalletIds
  const directory: Directory = {
    api,
    cache,
    pageParams,
    searchParams,
    featuredParams: () => (featuredIds.length ? { include: featuredIds, entries: featuredIds.length } : undefined),
    familyParams(namespace, networks) {
      const chains = [
        ...networks.filter((n) => n.chainNamespace === namespace).map((n) => n.caipNetworkId),
        ...KNOWN_CHAINS.filter((id) => id.startsWith(`${namespace}:`)),
      ]
      return { ...filter, page: 1, entries: FAMILY_WALLETS, chains: [...new Set(chains)] }
    },
    walletImage,
    networkImage(network) {
      if (network.assets?.imageUrl) return network.assets.imageUrl
      return network.assets?.imageId ? api.assetImageUrl(network.assets.imageId) : undefined
    },
    async prefetch(listed) {
      const featured = directory.featuredParams()
      const families = [...new Set(options.networks.map((n) => n.chainNamespace))].map((ns) => directory.familyParams(ns, options.networks))
      await Promise.all([cache.prefetch(directory.pageParams(1)), featured ? cache.prefetch(featured) : undefined, ...families.map((f) => cache.prefetch(f))])
      listed?.()
      const wallets = [
        ...(featured ? (cache.peek(featured).page?.data ?? []) : []),
        ...families.flatMap((f) => (cache.peek(f).page?.data ?? []).slice(0, 4)),
        ...(cache.peek(directory.pageParams(1)).page?.data ?? []).slice(0, 8),
      ]
      await preloadImages(wallets.map((w) => directory.walletImage(w)).filter((u): u is string => !!u))
    },
  }
  return directory
}

/** Images preloaded successfully in this page: a view showing one renders it as loaded at once. */
const loadedImages = new Set<string>()

/** Whether `url` was preloaded (and so is in the browser's image cache). */
export function isImagePreloaded(url: string): boolean {
  return loadedImages.has(url)
}

/** Loads images into the browser cache; gives up after 2 s so a slow image never holds anything. */
export function preloadImages(urls: readonly string[], timeoutMs = IMAGE_PRELOAD_TIMEOUT_MS): Promise<void> {
  if (typeof Image === 'undefined' || urls.length === 0) return Promise.resolve()
  const loads = urls.map(
    (url) =>
      new Promise<void>((resolve) => {
        const img = new Image()
        img.onload = () => {
          loadedImages.add(url)
          resolve()
        }
        img.onerror = () => resolve()
        img.decoding = 'async'
        img.src = url
      }),
  )
  return Promise.race([Promise.all(loads).then(() => undefined), new Promise<void>((r) => setTimeout(r, timeoutMs))])
}
