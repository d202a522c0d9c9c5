/*
 * The Sigil server's deposit API (issue 27's `pay`): JSON-RPC 2.0 at `POST /v1/json-rpc`, the
 * methods and fields of the AppKit client, so either client talks to either server:
 * `reown_getExchanges` (the exchanges a visitor may deposit from), `reown_getExchangePayUrl`
 * (an exchange's page for one deposit, with its session) and `reown_getExchangeBuyStatus` (the
 * deposit's status, which the server reads from the chain). Every answer is checked (zod).
 */
import * as z from 'zod/mini'
import { serverUrl, type ServerIdentity } from '../../api/http.js'
import { localized } from '../../messages/active.js'
import { pay as englishPay } from '../../messages/pay.js'
import { PayError } from './errors.js'

/** The pay texts in the modal's locale (English before it loads). */
const texts = localized('pay', englishPay)

export interface PayClientOptions extends ServerIdentity {
  /** The Sigil server; '' means the page's own origin. */
  baseUrl: string
  fetch?: typeof fetch
}

export interface Exchange {
  id: string
  name: string
  imageUrl: string
}

export interface ExchangesParams {
  /** From 0, the first page. */
  page: number
  includeOnly?: string[]
  exclude?: string[]
  /** CAIP-19: only the exchanges that deposit it. */
  asset?: string
}

export interface PayUrlParams {
  exchangeId: string
  /** CAIP-19 ('eip155:1/slip44:60', 'eip155:1/erc20:0x…'). */
  asset: string
  /** Decimal, in the asset's units. */
  amount: string
  /** CAIP-10 ('eip155:1:0x…'). */
  recipient: string
}

export type PayStatus = 'IN_PROGRESS' | 'SUCCESS' | 'FAILED' | 'UNKNOWN'

export interface PayClient {
  exchanges(params: ExchangesParams): Promise<{ exchanges: Exchange[]; total: number }>
  payUrl(params: PayUrlParams): Promise<{ url: string; sessionId: string }>
  status(params: { sessionId: string; exchangeId: string }): Promise<{ status: PayStatus; txHash?: string | undefined }>
}

const exchangesSchema = z.object({
  exchanges: z.array(z.object({ id: z.string(), name: z.string(), imageUrl: z.string() })),
  total: z.number(),
})
const urlSchema = z.object({ url: z.string().check(z.regex(/^https?:\/\//)), sessionId: z.string() })
const statusSchema = z.object({ status: z.enum(['IN_PROGRESS', 'SUCCESS', 'FAILED', 'UNKNOWN']), txHash: z.optional(z.nullable(z.string())) })
const envelope = z.object({ result: z.optional(z.unknown()), error: z.optional(z.object({ message: z.optional(z.string()) })) })

/** The deposit API of a Sigil server; a refusal rejects with a PayError in the server's words. */
export function createPayClient(options: PayClientOptions): PayClient {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  async function call<T extends z.ZodMiniType>(method: string, params: object, schema: T): Promise<z.output<T>> {
    const response = await doFetch(serverUrl(options.baseUrl, '/v1/json-rpc', options), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    })
    let body: unknown
    try {
      body = await response.json()
    } catch (cause) {
      throw new PayError(texts.server(`status ${response.status}`), 'SERVER', { cause })
    }
    const parsed = envelope.safeParse(body)
    if (!parsed.success) throw new PayError(texts.server('an answer of an unexpected shape'), 'SERVER', { cause: parsed.error })
    if (parsed.data.error) {
      const message = parsed.data.error.message || texts.server(`status ${response.status}`)
      throw new PayError(message, response.status >= 500 ? 'SERVER' : 'REFUSED')
    }
    const result = schema.safeParse(parsed.data.result)
    if (!result.success) throw new PayError(texts.server('an answer of an unexpected shape'), 'SERVER', { cause: result.error })
    return result.data
  }
  return {
    exchanges: (params) => call('reown_getExchanges', params, exchangesSchema),
    payUrl: (params) => call('reown_getExchangePayUrl', params, urlSchema),
    async status(params) {
      const s = await call('reown_getExchangeBuyStatus', params, statusSchema)
      return { status: s.status, txHash: s.txHash ?? undefined }
    },
  }
}
