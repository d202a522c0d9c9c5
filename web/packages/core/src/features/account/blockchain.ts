/*
 * The Sigil server's blockchain data API: an account's balances and its identity (ENS name and
 * avatar). Loaded on demand by the balance controller, once a wallet is connected.
 */
import * as z from 'zod/mini'
import type { CaipNetworkId, TokenBalance } from '../../types.js'
import { readServerResponse, serverUrl, type ServerIdentity } from '../../api/http.js'

export interface BlockchainClientOptions extends ServerIdentity {
  /** The Sigil server, e.g. `https://sigil.example.com`; '' means the page's own origin. */
  baseUrl: string
  fetch?: typeof fetch
}

/** Fiat currencies the server prices in. */
export type FiatCurrency = 'usd'

export interface GetBalancesParams {
  /** CAIP-2 chain id; a chain the server does not support gives an empty list. */
  chainId: CaipNetworkId
  currency?: FiatCurrency
  /** Skip the server's 30 s cache (after a send, or an explicit refresh). */
  forceUpdate?: boolean
}

/** An address's ENS name and avatar; null when it has none. */
export interface Identity {
  name: string | null
  avatar: string | null
}

/** A non-OK answer: the server's `{"error":{"code","message"}}` is carried as-is. */
export class BlockchainApiError extends Error {
  override readonly name = 'BlockchainApiError'
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
  ) {
    super(message)
  }
}

const balanceSchema = z.object({
  name: z.string(),
  symbol: z.string(),
  chainId: z.string(),
  // null for the chain's native currency
  address: z.optional(z.nullable(z.string())),
  value: z.optional(z.nullable(z.number())),
  price: z.optional(z.nullable(z.number())),
  quantity: z.object({ decimals: z.string(), numeric: z.string() }),
  iconUrl: z.optional(z.nullable(z.string())),
})
const balancesSchema = z.object({ balances: z.array(balanceSchema) })
const pricesSchema = z.object({
  fungibles: z.array(z.object({ name: z.string(), symbol: z.string(), iconUrl: z.optional(z.nullable(z.string())), price: z.number() })),
})

/** A token's fiat price as the server knows it. */
export interface FungiblePrice {
  name: string
  symbol: string
  iconUrl: string
  price: number
}
const identitySchema = z.object({ name: z.nullable(z.string()), avatar: z.nullable(z.string()) })
const resolvedSchema = z.object({ name: z.string(), address: z.nullable(z.string()) })

export interface BlockchainClient {
  /** Native balance plus every configured token with a non-zero balance. */
  getBalances(address: string, params: GetBalancesParams): Promise<TokenBalance[]>
  /**
   * Prices of tokens given as CAIP-10 ids (`eip155:1:0x…`, or `eip155:1:native` for the
   * chain's own currency); tokens the server cannot price are left out.
   */
  getPrices(addresses: string[], params?: { currency?: FiatCurrency }): Promise<FungiblePrice[]>
  /** ENS reverse name and avatar; `sender` is the connected account asking. */
  getIdentity(address: string, params?: { sender?: string }): Promise<Identity>
  /** The address an ENS name gives the EVM chain `chainId` (its coin type only); null when none. */
  resolveName?(name: string, params: { chainId: CaipNetworkId }): Promise<string | null>
}

/** A token's address on its chain: the server names tokens by CAIP-10 id (`eip155:1:0x…`). */
const onChain = (address: string, chainId: string): string => (address.startsWith(`${chainId}:`) ? address.slice(chainId.length + 1) : address)

export function createBlockchainClient(options: BlockchainClientOptions): BlockchainClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const url = (path: string, params: Record<string, string | undefined> = {}) => serverUrl(baseUrl, path, options, params)

  const request = async (target: string, init?: RequestInit): Promise<unknown> => {
    const result = await readServerResponse(await doFetch(target, init))
    if (!result.ok) throw new BlockchainApiError(result.failure.message, result.failure.status, result.failure.code)
    return result.body
  }

  return {
    async getBalances(address, params) {
      const body = await request(
        url(`/v1/account/${encodeURIComponent(address)}/balance`, {
          currency: params.currency ?? 'usd',
          chainId: params.chainId,
          forceUpdate: params.forceUpdate ? 'true' : undefined,
        }),
      )
      return balancesSchema.parse(body).balances.map(
        (b): TokenBalance => ({
          name: b.name,
          symbol: b.symbol,
          chainId: b.chainId,
          ...(b.address ? { address: onChain(b.address, b.chainId) } : {}),
          ...(typeof b.value === 'number' ? { value: b.value } : {}),
          price: b.price ?? 0,
          quantity: b.quantity,
          iconUrl: b.iconUrl ?? '',
        }),
      )
    },
    async getPrices(addresses, params = {}) {
      if (addresses.length === 0) return []
      const currency = params.currency ?? 'usd'
      const body = await request(url('/v1/fungible/price'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ currency, addresses, projectId: options.projectId }),
      })
      return pricesSchema.parse(body).fungibles.map((f) => ({ ...f, iconUrl: f.iconUrl ?? '' }))
    },
    async getIdentity(address, params = {}) {
      const body = await request(url(`/v1/identity/${encodeURIComponent(address)}`, { sender: params.sender }))
      return identitySchema.parse(body)
    },
    async resolveName(name, params) {
      const body = await request(url(`/v1/identity/resolve/${encodeURIComponent(name)}`, { chainId: params.chainId }))
      return resolvedSchema.parse(body).address
    },
  }
}
