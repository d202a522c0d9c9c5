/*
 * The Sigil server's swap API (spec section 7), in AppKit's shapes: the tokens of a chain, a
 * quote, an allowance, the gas prices, the approval and the swap transactions. Every answer is
 * checked against its shape (zod) before it is used; amounts and gas are integers in the
 * smallest unit (decimal or 0x strings on the wire, bigints here). Tokens are CAIP-10 ids, the
 * native currency the placeholder address 0xeeee…eeee.
 */
import * as z from 'zod/mini'
import { readServerResponse, serverUrl, type ServerIdentity } from '../../api/http.js'
import { localized } from '../../messages/active.js'
import { swap as englishSwap } from '../../messages/swap.js'
import { serverSwapError, SwapError } from './errors.js'

/** Its words in the visitor's locale (English until the modal loads one). */
const swap = localized('swap', englishSwap)

/** The native currency's placeholder address in a CAIP-10 token id (`eip155:1:0xeeee…eeee`). */
export const NATIVE_TOKEN_ADDRESS = '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'

/** The most an unsigned 256-bit integer holds: an unlimited approval. */
export const MAX_UINT256 = (1n << 256n) - 1n

export interface SwapClientOptions extends ServerIdentity {
  /** The Sigil server; '' means the page's own origin. */
  baseUrl: string
  fetch?: typeof fetch
}

/** A token the server can swap on a chain. */
export interface SwapToken {
  name: string
  symbol: string
  /** CAIP-10: `eip155:<chain>:<address>`; the native currency's address is NATIVE_TOKEN_ADDRESS. */
  address: string
  decimals: number
  logoUri: string
}

/** What selling `fromAmount` of one token gives of another. */
export interface SwapQuote {
  id: string | null
  fromAmount: bigint
  /** CAIP-10 of the token sold. */
  fromAccount: string
  toAmount: bigint
  /** CAIP-10 of the token bought. */
  toAccount: string
  /** The server's own floor (`minimumReceived` or Sigil's `toAmountMin`), when it gives one; the swap's is computed from the user's slippage. */
  minimumReceived?: bigint
  /** In percent (0.3 is 0.3 %), when the server can tell. */
  priceImpact?: number
  /** What stands in the way as far as the server can tell (Sigil's server: a balance or allowance too low, a high price impact), in words. */
  issues: { code: string; message: string }[]
}

/** Gas prices in the smallest unit per gas (EIP-1559: the fee cap). */
export interface GasPrices {
  standard: bigint
  fast: bigint
  instant: bigint
}

/** An approval transaction; `resetFirst`: the token (USDT-like) needs its allowance set to 0 before another amount. */
export interface ApproveTransaction {
  /** As the server gives them: addresses or CAIP-10 ids (AppKit's client sends the approval to `from`). */
  from: string
  to: string
  data: string
  value: bigint
  gasPrice?: bigint
  resetFirst: boolean
  /** The approval of 0 to send first, when the server built it (`resetTx`). */
  resetData?: string
}

/** The swap's transaction: its router (`to`, an address), `amount` as the server gives it, the value to send when it says, gas and its price when given. */
export interface SwapTransaction {
  from: string
  to: string
  data: string
  amount: bigint
  /** Wei sent with it (selling the native currency), when the server says. */
  value?: bigint
  gas?: bigint
  gasPrice?: bigint
}

export interface QuoteParams {
  /** In the smallest unit of `from`. */
  amount: bigint
  userAddress: string
  from: string
  to: string
  gasPrice?: bigint | undefined
  /** In percent; the server's own floor is then at this slippage. */
  slippage?: number | undefined
}

export interface BuildApproveParams {
  userAddress: string
  from: string
  to: string
  /** The amount to approve (smallest unit); MAX_UINT256 for unlimited (asked as `amount=max`). */
  amount: bigint
}

export interface BuildTransactionParams {
  amount: bigint
  userAddress: string
  from: string
  to: string
  /** In percent, as the API takes it (1 is 1 %). */
  slippage: number
}

export interface SwapClient {
  tokens(chainId: string): Promise<SwapToken[]>
  quote(params: QuoteParams): Promise<SwapQuote>
  allowance(tokenAddress: string, userAddress: string): Promise<bigint>
  gasPrice(chainId: string): Promise<GasPrices>
  buildApprove(params: BuildApproveParams): Promise<ApproveTransaction>
  buildTransaction(params: BuildTransactionParams): Promise<SwapTransaction>
}

const quantity = z.union([z.string().check(z.regex(/^(0x[0-9a-fA-F]+|[0-9]+)$/)), z.number().check(z.int(), z.nonnegative())])
const hexData = z.string().check(z.regex(/^0x([0-9a-fA-F]{2})*$/))
const caip10 = z.string().check(z.regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}:[-.%a-zA-Z0-9]{1,128}$/))
/** An EVM address, bare or as a CAIP-10 id (Sigil's server gives transactions' ends as CAIP-10). */
const address = z.string().check(z.regex(/^([-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}:)?0x[0-9a-fA-F]{40}$/))
const optionalNull = <T extends z.core.SomeType>(schema: T) => z.optional(z.nullable(schema))

const tokensSchema = z.object({
  tokens: z.array(
    z.object({
      name: z.string(),
      symbol: z.string(),
      address: caip10,
      decimals: z.number().check(z.int(), z.nonnegative()),
      logoUri: optionalNull(z.string()),
    }),
  ),
})
const quotesSchema = z.object({
  quotes: z.array(
    z.object({
      id: optionalNull(z.string()),
      fromAmount: quantity,
      fromAccount: caip10,
      toAmount: quantity,
      toAccount: caip10,
      minimumReceived: optionalNull(quantity),
      toAmountMin: optionalNull(quantity),
      priceImpact: optionalNull(z.union([z.number(), z.string().check(z.regex(/^-?\d+(\.\d+)?$/))])),
      issues: optionalNull(z.array(z.object({ code: z.string(), message: z.string() }))),
    }),
  ),
})
const allowanceSchema = z.object({ allowance: quantity })
const gasPriceSchema = z.object({ standard: quantity, fast: quantity, instant: quantity })
const approveSchema = z.object({
  tx: z.object({
    from: address,
    to: address,
    data: hexData,
    value: optionalNull(quantity),
    eip155: optionalNull(z.object({ gasPrice: optionalNull(quantity) })),
  }),
  resetFirst: optionalNull(z.boolean()),
  resetTx: optionalNull(z.object({ data: hexData })),
})
const transactionSchema = z.object({
  tx: z.object({
    from: address,
    to: address,
    data: hexData,
    amount: quantity,
    value: optionalNull(quantity),
    eip155: optionalNull(z.object({ gas: optionalNull(quantity), gasPrice: optionalNull(quantity) })),
  }),
})

/** `body` checked against `schema`; another shape rejects with a SwapError ('SERVER') whose cause is zod's. */
function shape<T extends z.ZodMiniType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body)
  if (!parsed.success) throw new SwapError(swap.server('an answer of an unexpected shape'), 'SERVER', { cause: parsed.error })
  return parsed.data
}

/** The address of a bare address or a CAIP-10 id. */
const plain = (value: string) => value.slice(value.lastIndexOf(':') + 1)

const big = (value: string | number) => BigInt(value)
const bigOr = (value: string | number | null | undefined) => (value === null || value === undefined ? undefined : BigInt(value))

/** The swap API of a Sigil server; a refusal rejects with a SwapError saying why. */
export function createSwapClient(options: SwapClientOptions): SwapClient {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  /** The body of an OK answer; a refusal rejects with a SwapError. */
  const read = async (response: Response): Promise<unknown> => {
    const result = await readServerResponse(response)
    if (!result.ok) throw serverSwapError(result.failure)
    return result.body
  }
  const get = (path: string, params: Record<string, string | undefined>) => doFetch(serverUrl(options.baseUrl, path, options, params)).then(read)
  return {
    async tokens(chainId) {
      const { tokens } = shape(tokensSchema, await get('/v1/convert/tokens', { chainId }))
      return tokens.map((t) => ({ name: t.name, symbol: t.symbol, address: t.address, decimals: t.decimals, logoUri: t.logoUri ?? '' }))
    },
    async quote(params) {
      const { quotes } = shape(
        quotesSchema,
        await get('/v1/convert/quotes', {
          amount: params.amount.toString(),
          userAddress: params.userAddress,
          from: params.from,
          to: params.to,
          gasPrice: params.gasPrice?.toString(),
          slippage: params.slippage?.toString(),
        }),
      )
      const q = quotes[0]
      if (!q) throw serverSwapError({ status: 200, message: 'no route', code: 'NO_ROUTE' })
      const quote: SwapQuote = {
        id: q.id ?? null,
        fromAmount: big(q.fromAmount),
        fromAccount: q.fromAccount,
        toAmount: big(q.toAmount),
        toAccount: q.toAccount,
        issues: q.issues ?? [],
      }
      const minimum = bigOr(q.minimumReceived ?? q.toAmountMin)
      if (minimum !== undefined) quote.minimumReceived = minimum
      if (q.priceImpact !== null && q.priceImpact !== undefined) quote.priceImpact = Number(q.priceImpact)
      return quote
    },
    async allowance(tokenAddress, userAddress) {
      return big(shape(allowanceSchema, await get('/v1/convert/allowance', { tokenAddress, userAddress })).allowance)
    },
    async gasPrice(chainId) {
      const g = shape(gasPriceSchema, await get('/v1/convert/gas-price', { chainId }))
      return { standard: big(g.standard), fast: big(g.fast), instant: big(g.instant) }
    },
    async buildApprove(params) {
      const { tx, resetFirst, resetTx } = shape(
        approveSchema,
        await get('/v1/convert/build-approve', {
          userAddress: params.userAddress,
          from: params.from,
          to: params.to,
          amount: params.amount === MAX_UINT256 ? 'max' : params.amount.toString(),
        }),
      )
      const approve: ApproveTransaction = { from: tx.from, to: tx.to, data: tx.data, value: bigOr(tx.value) ?? 0n, resetFirst: resetFirst === true }
      if (resetTx) approve.resetData = resetTx.data
      const gasPrice = bigOr(tx.eip155?.gasPrice)
      if (gasPrice !== undefined) approve.gasPrice = gasPrice
      return approve
    },
    async buildTransaction(params) {
      const body = {
        amount: params.amount.toString(),
        eip155: { slippage: params.slippage },
        from: params.from,
        to: params.to,
        userAddress: params.userAddress,
        disableEstimate: true,
      }
      const response = await doFetch(serverUrl(options.baseUrl, '/v1/convert/build-transaction', options), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      const { tx } = shape(transactionSchema, await read(response))
      const built: SwapTransaction = { from: plain(tx.from), to: plain(tx.to), data: tx.data, amount: big(tx.amount) }
      const value = bigOr(tx.value)
      if (value !== undefined) built.value = value
      const gas = bigOr(tx.eip155?.gas)
      const gasPrice = bigOr(tx.eip155?.gasPrice)
      if (gas !== undefined && gas > 0n) built.gas = gas
      if (gasPrice !== undefined) built.gasPrice = gasPrice
      return built
    },
  }
}
