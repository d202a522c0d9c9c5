/*
 * The Sigil server's history API: `GET /v1/account/{address}/history`, one page of an account's
 * transactions on one chain, newest first, paged by an opaque cursor (spec section 7).
 */
import * as z from 'zod/mini'
import { readServerResponse, serverUrl, type ServerIdentity } from '../../api/http.js'
import { BlockchainApiError } from '../account/blockchain.js'
import type { Transaction } from './state.js'

export interface HistoryClientOptions extends ServerIdentity {
  /** The Sigil server; '' means the page's own origin. */
  baseUrl: string
  fetch?: typeof fetch
}

export interface GetHistoryParams {
  /** CAIP-2; a chain the server does not index gives an empty page. */
  chainId: string
  /** The previous page's `next`. */
  cursor?: string | undefined
  /** Also list what the server flagged as spam (with `metadata.spam` set). */
  includeSpam?: boolean | undefined
}

export interface HistoryPage {
  data: Transaction[]
  next: string | null
}

const optionalNull = <T extends z.core.SomeType>(schema: T) => z.optional(z.nullable(schema))
const url = z.object({ url: z.string() })
const transferSchema = z.object({
  fungible_info: optionalNull(z.object({ name: z.string(), symbol: z.string(), icon: optionalNull(url) })),
  nft_info: optionalNull(
    z.object({
      name: z.string(),
      content: optionalNull(z.object({ preview: optionalNull(url), detail: optionalNull(url) })),
      flags: optionalNull(z.object({ is_spam: z.optional(z.boolean()) })),
    }),
  ),
  direction: z.enum(['in', 'out', 'self']),
  quantity: z.object({ numeric: z.string() }),
  value: optionalNull(z.number()),
  price: optionalNull(z.number()),
  // Whom it moved between (Sigil's server names them; AppKit's shape does not have them).
  sender: z.optional(z.string()),
  recipient: z.optional(z.string()),
})
const transactionSchema = z.object({
  id: z.string(),
  metadata: z.object({
    minedAt: z.string(),
    chain: z.string(),
    status: z.enum(['confirmed', 'failed', 'pending']),
    operationType: z.string(),
    sentFrom: z.string(),
    sentTo: z.string(),
    hash: optionalNull(z.string()),
    nonce: optionalNull(z.number()),
    spam: optionalNull(z.object({ reason: z.string() })),
  }),
  transfers: optionalNull(z.array(transferSchema)),
})
const pageSchema = z.object({ data: z.array(transactionSchema), next: optionalNull(z.string()) })

export interface HistoryClient {
  getHistory(address: string, params: GetHistoryParams): Promise<HistoryPage>
}

export function createHistoryClient(options: HistoryClientOptions): HistoryClient {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  return {
    async getHistory(address, params) {
      const target = serverUrl(options.baseUrl, `/v1/account/${encodeURIComponent(address)}/history`, options, {
        chainId: params.chainId,
        cursor: params.cursor,
        includeSpam: params.includeSpam ? 'true' : undefined,
      })
      const result = await readServerResponse(await doFetch(target))
      if (!result.ok) throw new BlockchainApiError(result.failure.message, result.failure.status, result.failure.code)
      const page = pageSchema.parse(result.body)
      return {
        data: page.data.map((t) => ({
          id: t.id,
          metadata: { ...t.metadata, hash: t.metadata.hash ?? undefined, nonce: t.metadata.nonce ?? undefined },
          transfers: t.transfers ?? [],
        })),
        next: page.next ?? null,
      }
    },
  }
}
