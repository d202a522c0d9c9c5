/*
 * The Sigil server's account-name API (spec section 7; issue 25): a name's record
 * (`GET /v1/profile/account/{name}`), the names of an address (`GET /v1/profile/reverse/{address}`),
 * suggestions for a label (`GET /v1/profile/suggestions/{name}`) and a registration signed by the
 * address (`POST /v1/profile/account`). Every answer is checked against its shape (zod). A refusal
 * says the server's first reason (`reasons[0].description`), else the spec's text.
 */
import * as z from 'zod/mini'
import { serverUrl, type ServerIdentity } from '../../api/http.js'
import { localized } from '../../messages/active.js'
import { names as englishNames } from '../../messages/names.js'
import { NamesError } from './errors.js'

/** Its words in the visitor's locale (English until the modal loads one). */
const texts = localized('names', englishNames)

export interface ProfileClientOptions extends ServerIdentity {
  /** The Sigil server; '' means the page's own origin. */
  baseUrl: string
  fetch?: typeof fetch
}

/** A registered name: its addresses by coin type (ENSIP-11, as decimal strings) and attributes. */
export interface NameRecord {
  name: string
  registered: number
  updated: number
  addresses: Record<string, { address: string; created?: number | undefined }>
  attributes: Record<string, string>
}

export interface NameSuggestion {
  /** The full name, zone included ('alice.sigil.id'). */
  name: string
  registered: boolean
}

export interface RegisterNameParams {
  coinType: number
  address: string
  /** JSON: {name, attributes, timestamp (seconds)}, as signed. */
  message: string
  signature: string
}

export interface ProfileClient {
  /** The name's record; undefined when it is not registered. */
  lookup(name: string): Promise<NameRecord | undefined>
  reverse(address: string): Promise<NameRecord[]>
  suggestions(label: string, zone?: string): Promise<NameSuggestion[]>
  register(params: RegisterNameParams): Promise<{ name: string }>
}

const recordSchema = z.object({
  name: z.string(),
  registered: z.number(),
  updated: z.number(),
  addresses: z.record(z.string(), z.object({ address: z.string(), created: z.optional(z.nullable(z.number())) })),
  attributes: z.optional(z.nullable(z.record(z.string(), z.string()))),
})
const suggestionsSchema = z.object({ suggestions: z.array(z.object({ name: z.string(), registered: z.boolean() })) })
const registeredSchema = z.object({ success: z.optional(z.boolean()), name: z.optional(z.string()) })

type RecordShape = z.output<typeof recordSchema>
const record = (r: RecordShape): NameRecord => ({
  name: r.name,
  registered: r.registered,
  updated: r.updated,
  addresses: Object.fromEntries(Object.entries(r.addresses).map(([k, v]) => [k, { address: v.address, created: v.created ?? undefined }])),
  attributes: r.attributes ?? {},
})

/** The server's first reason, else its message, else `fallback`. */
async function refusal(response: Response, fallback: string): Promise<NamesError> {
  let body: { reasons?: { description?: unknown }[]; error?: { message?: unknown } } | undefined
  try {
    body = (await response.json()) as typeof body
  } catch {
    body = undefined
  }
  const reason = body?.reasons?.[0]?.description
  const message = typeof reason === 'string' && reason ? reason : fallback
  const code = response.status === 409 ? 'TAKEN' : response.status < 500 ? 'REFUSED' : 'SERVER'
  return new NamesError(message, code, { status: response.status })
}

export function createProfileClient(options: ProfileClientOptions): ProfileClient {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  /** The parsed body of an OK answer in `schema`'s shape; otherwise a NamesError with `fallback` as the words when the server gives none. */
  const read = async <T extends z.ZodMiniType>(response: Response, schema: T, fallback: string): Promise<z.output<T>> => {
    if (!response.ok) throw await refusal(response, fallback)
    const parsed = schema.safeParse(await response.json().catch(() => undefined))
    if (!parsed.success) throw new NamesError(fallback, 'SERVER', { cause: parsed.error })
    return parsed.data
  }
  return {
    async lookup(name) {
      const response = await doFetch(serverUrl(options.baseUrl, `/v1/profile/account/${encodeURIComponent(name)}`, options, { apiVersion: 2 }))
      if (response.status === 404) return undefined
      return record(await read(response, recordSchema, texts.errorResolving))
    },
    async reverse(address) {
      const response = await doFetch(serverUrl(options.baseUrl, `/v1/profile/reverse/${encodeURIComponent(address)}`, options, { apiVersion: 2 }))
      return (await read(response, z.array(recordSchema), texts.errorReverse)).map(record)
    },
    async suggestions(label, zone) {
      const response = await doFetch(serverUrl(options.baseUrl, `/v1/profile/suggestions/${encodeURIComponent(label)}`, options, { zone }))
      return (await read(response, suggestionsSchema, texts.errorSuggestions)).suggestions
    },
    async register({ coinType, address, message, signature }) {
      const name = (JSON.parse(message) as { name?: string }).name ?? ''
      const response = await doFetch(serverUrl(options.baseUrl, '/v1/profile/account', options), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ coin_type: coinType, address, message, signature }),
      })
      const answer = await read(response, registeredSchema, texts.errorRegistering(name))
      return { name: answer.name ?? name }
    },
  }
}
