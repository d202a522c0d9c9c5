/*
 * The Sigil server's onramp API (spec section 7; issue 24): the providers serving the visitor's
 * country with what they sell and for which currencies (`GET /v1/onramp/options`), a provider's
 * quote (`POST /v1/onramp/quote`), the provider's page for one purchase, minted by the server
 * with the provider's credentials (`POST /v1/generators/onrampurl`), and that purchase's status
 * (`GET /v1/onramp/sessions/{id}`). Every answer is checked against its shape (zod) before use;
 * amounts stay decimal strings as the providers give them.
 */
import * as z from 'zod/mini'
import { readServerResponse, serverUrl, type ServerIdentity } from '../../api/http.js'
import { localized } from '../../messages/active.js'
import { onramp as englishOnramp } from '../../messages/onramp.js'
import { OnrampError } from './errors.js'

/** Its words in the visitor's locale (English until the modal loads one). */
const texts = localized('onramp', englishOnramp)

export interface OnrampClientOptions extends ServerIdentity {
  /** The Sigil server; '' means the page's own origin. */
  baseUrl: string
  fetch?: typeof fetch
}

/** A provider the server can send the visitor to. */
export interface OnrampProvider {
  /** 'coinbase', 'meld', 'sandbox'. */
  name: string
  label: string
  /** The share the provider takes, as it says it ('1-2%'). */
  feeRange: string
  url?: string | undefined
  /** Chain namespaces it sells on ('eip155', 'solana'). */
  supportedChains: string[]
}

/** A payment method's limits in one fiat currency (decimal strings). */
export interface PaymentMethodLimit {
  /** 'card', 'ach_bank_account', … */
  id: string
  min: string
  max: string
}

export interface PaymentCurrency {
  /** ISO 4217 ('USD'). */
  id: string
  payment_method_limits: PaymentMethodLimit[]
}

export interface PurchaseNetwork {
  name: string
  display_name: string
  /** The chain's reference: an EVM chain id in decimal, a Solana genesis hash prefix. */
  chain_id: string
  /** '' for the network's own coin. */
  contract_address: string
}

export interface PurchaseCurrency {
  /** The provider's id of the asset ('ETH', 'USDC'). */
  id: string
  name: string
  symbol: string
  networks: PurchaseNetwork[]
}

export interface OnrampOptions {
  /** ISO 3166-1 alpha-2: the country the server chose the providers for. */
  country: string
  providers: OnrampProvider[]
  paymentCurrencies: PaymentCurrency[]
  purchaseCurrencies: PurchaseCurrency[]
  /** The server's built-in sample list: no provider answered. */
  sample: boolean
}

export interface Money {
  amount: string
  currency: string
}

export interface OnrampQuote {
  provider: string
  quoteId: string
  paymentTotal: Money
  paymentSubtotal: Money
  purchaseAmount: Money
  coinbaseFee: Money
  networkFee: Money
  /** A mock quote: the provider did not answer. */
  sample: boolean
}

export interface OnrampQuoteParams {
  provider: string
  /** The asset's id in the options ('ETH'). */
  purchaseCurrency: string
  paymentCurrency: string
  /** Fiat, decimal ('100.00'). */
  amount: string
  /** CAIP-2 of the network bought on. */
  network: string
  paymentMethod: string
  country?: string | undefined
}

export interface OnrampUrlParams extends OnrampQuoteParams {
  /** The connected address the purchase is sent to. */
  address: string
  /** Where the provider sends the visitor back to when done. */
  redirectUrl?: string | undefined
}

export type OnrampStatus = 'pending' | 'completed' | 'failed'

export interface OnrampSession {
  sessionId: string
  provider: string
  status: OnrampStatus
  txHash: string | null
  network: string
  address: string
  purchaseAmount: Money | null
}

export interface OnrampClient {
  options(country?: string): Promise<OnrampOptions>
  quote(params: OnrampQuoteParams): Promise<OnrampQuote>
  /** The provider's page for this purchase, and the server's id to follow it by. */
  sessionUrl(params: OnrampUrlParams): Promise<{ url: string; sessionId: string }>
  session(sessionId: string): Promise<OnrampSession>
}

const decimal = z.string().check(z.regex(/^\d+(\.\d+)?$/))
const money = z.object({ amount: decimal, currency: z.string() })
const optionsSchema = z.object({
  country: z.string(),
  providers: z.array(
    z.object({
      name: z.string(),
      label: z.string(),
      feeRange: z.string(),
      url: z.optional(z.nullable(z.string())),
      supportedChains: z.array(z.string()),
    }),
  ),
  paymentCurrencies: z.array(z.object({ id: z.string(), payment_method_limits: z.array(z.object({ id: z.string(), min: decimal, max: decimal })) })),
  purchaseCurrencies: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      symbol: z.string(),
      networks: z.array(z.object({ name: z.string(), display_name: z.string(), chain_id: z.string(), contract_address: z.string() })),
    }),
  ),
  sample: z.optional(z.boolean()),
})
const quoteSchema = z.object({
  provider: z.string(),
  quoteId: z.string(),
  paymentTotal: money,
  paymentSubtotal: money,
  purchaseAmount: money,
  coinbaseFee: money,
  networkFee: money,
  sample: z.optional(z.boolean()),
})
const urlSchema = z.object({ url: z.string().check(z.regex(/^https?:\/\//)), sessionId: z.string() })
const sessionSchema = z.object({
  sessionId: z.string(),
  provider: z.string(),
  status: z.enum(['pending', 'completed', 'failed']),
  txHash: z.optional(z.nullable(z.string())),
  network: z.string(),
  address: z.string(),
  purchaseAmount: z.optional(z.nullable(money)),
})

/** `body` checked against `schema`; another shape rejects with an OnrampError ('SERVER'). */
function shape<T extends z.ZodMiniType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body)
  if (!parsed.success) throw new OnrampError(texts.server('an answer of an unexpected shape'), 'SERVER', { cause: parsed.error })
  return parsed.data
}

/** The onramp API of a Sigil server; a refusal rejects with an OnrampError in the server's words. */
export function createOnrampClient(options: OnrampClientOptions): OnrampClient {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const read = async (response: Response): Promise<unknown> => {
    const result = await readServerResponse(response)
    if (!result.ok) {
      const { failure } = result
      throw new OnrampError(failure.status < 500 ? failure.message : texts.server(failure.message), failure.status < 500 ? 'REFUSED' : 'SERVER', {
        status: failure.status,
      })
    }
    return result.body
  }
  const post = (path: string, body: unknown) =>
    doFetch(serverUrl(options.baseUrl, path, options), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(read)
  return {
    async options(country) {
      const o = shape(optionsSchema, await doFetch(serverUrl(options.baseUrl, '/v1/onramp/options', options, { country })).then(read))
      return {
        country: o.country,
        providers: o.providers.map((p) => ({
          name: p.name,
          label: p.label,
          feeRange: p.feeRange,
          url: p.url ?? undefined,
          supportedChains: p.supportedChains,
        })),
        paymentCurrencies: o.paymentCurrencies,
        purchaseCurrencies: o.purchaseCurrencies,
        sample: o.sample === true,
      }
    },
    async quote(params) {
      const q = shape(quoteSchema, await post('/v1/onramp/quote', params))
      return { ...q, sample: q.sample === true }
    },
    async sessionUrl({ address, redirectUrl, ...quote }) {
      const body = {
        provider: quote.provider,
        destinationWallets: [{ address, blockchains: [quote.network], assets: [quote.purchaseCurrency] }],
        defaultNetwork: quote.network,
        defaultExperience: 'buy',
        presetFiatAmount: Number(quote.amount),
        fiatCurrency: quote.paymentCurrency,
        paymentMethod: quote.paymentMethod,
        purchaseCurrency: quote.purchaseCurrency,
        country: quote.country,
        redirectUrl,
      }
      return shape(urlSchema, await post('/v1/generators/onrampurl', body))
    },
    async session(sessionId) {
      const s = shape(sessionSchema, await doFetch(serverUrl(options.baseUrl, `/v1/onramp/sessions/${encodeURIComponent(sessionId)}`, options)).then(read))
      return { ...s, txHash: s.txHash ?? null, purchaseAmount: s.purchaseAmount ?? null }
    },
  }
}
