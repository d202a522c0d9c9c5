import * as z from 'zod/mini'
import type { Wallet } from '../types.js'
import { readServerResponse, serverUrl } from './http.js'

/** Page size of the wallet list (spec section 9). */
export const WALLETS_PAGE_SIZE = 40
/** The server caps search results at this many. */
export const MAX_SEARCH_RESULTS = 100

export interface DirectoryClientOptions {
  /** The Sigil server, e.g. `https://sigil.example.com`; '' means the page's own origin. */
  baseUrl: string
  projectId: string
  /** `st` query parameter, e.g. 'sigil'. */
  sdkType: string
  /** `sv` query parameter. */
  sdkVersion: string
  fetch?: typeof fetch
}

export interface GetWalletsParams {
  /** 1-based. */
  page?: number
  /** 1 to 100; the server's default is 40. */
  entries?: number
  include?: readonly string[]
  exclude?: readonly string[]
  /** CAIP-2 ids: wallets supporting any of them. */
  chains?: readonly string[]
  /** Case-insensitive; at most 100 results. */
  search?: string
  badge_type?: 'certified' | 'none'
  /** EIP-6963 rdns names. */
  rdns?: readonly string[]
}

export interface WalletsPage {
  count: number
  data: Wallet[]
}

export interface AnalyticsConfig {
  isAnalyticsEnabled: boolean
}

export interface AnalyticsEventBody {
  /** A UUID, so the server can drop duplicates. */
  eventId: string
  url: string
  domain: string
  /** Milliseconds since the epoch. */
  timestamp: number
  props: Record<string, unknown>
}

/** A non-OK answer: the server's `{"error":{"code","message"}}` is carried as-is. */
export class DirectoryApiError extends Error {
  override readonly name = 'DirectoryApiError'
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(message)
  }
}

const optionalText = z.optional(z.nullable(z.string()))

const walletSchema = z.object({
  id: z.string(),
  name: z.string(),
  image_id: z.string(),
  image_url: z.optional(z.string()),
  rdns: optionalText,
  homepage: optionalText,
  mobile_link: optionalText,
  desktop_link: optionalText,
  webapp_link: optionalText,
  app_store: optionalText,
  play_store: optionalText,
  chrome_store: optionalText,
  injected: z.optional(z.array(z.object({ namespace: z.string(), injected_id: z.string() }))),
  chains: z.optional(z.array(z.string())),
  order: z.optional(z.nullable(z.number())),
})

const walletsPageSchema = z.object({ count: z.number(), data: z.array(walletSchema) })
const analyticsConfigSchema = z.object({ isAnalyticsEnabled: z.boolean() })
const originsSchema = z.object({ allowedOrigins: z.array(z.string()) })

export interface DirectoryClient {
  readonly baseUrl: string
  getWallets(params?: GetWalletsParams): Promise<WalletsPage>
  walletImageUrl(imageId: string): string
  assetImageUrl(imageId: string): string
  currencyImageUrl(imageId: string): string
  tokenImageUrl(imageId: string): string
  getAnalyticsConfig(): Promise<AnalyticsConfig>
  getAllowedOrigins(): Promise<string[]>
  sendEvent(event: AnalyticsEventBody): Promise<void>
}

export function createDirectoryClient(options: DirectoryClientOptions): DirectoryClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))

  /** Every call carries projectId, st and sv; empty values are left out. */
  const url = (path: string, params: Record<string, string | number | undefined> = {}): string => serverUrl(baseUrl, path, options, params)

  const request = async (target: string, init?: RequestInit): Promise<unknown> => {
    const result = await readServerResponse(await doFetch(target, init))
    if (!result.ok) throw new DirectoryApiError(result.failure.message, result.failure.status, result.failure.code)
    return result.body
  }

  const list = (values: readonly string[] | undefined) => (values?.length ? values.join(',') : undefined)
  const imageUrl = (path: string) => (id: string) => url(`${path}/${encodeURIComponent(id)}`)

  return {
    baseUrl,
    async getWallets(params = {}) {
      const body = await request(
        url('/getWallets', {
          page: params.page,
          entries: params.entries,
          include: list(params.include),
          exclude: list(params.exclude),
          chains: list(params.chains),
          search: params.search?.trim(),
          badge_type: params.badge_type,
          rdns: list(params.rdns),
        }),
      )
      return walletsPageSchema.parse(body) as WalletsPage
    },
    walletImageUrl: imageUrl('/getWalletImage'),
    assetImageUrl: imageUrl('/public/getAssetImage'),
    currencyImageUrl: imageUrl('/public/getCurrencyImage'),
    tokenImageUrl: imageUrl('/public/getTokenImage'),
    async getAnalyticsConfig() {
      return analyticsConfigSchema.parse(await request(url('/getAnalyticsConfig')))
    },
    async getAllowedOrigins() {
      return originsSchema.parse(await request(url('/projects/v1/origins'))).allowedOrigins
    },
    async sendEvent(event) {
      await request(url('/e'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(event),
      })
    },
  }
}
