/*
 * The Sigil server's NFT API: `GET /v1/account/{address}/nfts`, one page (50) of the NFTs an
 * account holds on one chain, newest first, paged by an opaque cursor. Images are paths on the
 * same server; they are made absolute here, with the project id as the server's other images.
 */
import * as z from 'zod/mini'
import { readServerResponse, serverUrl, type ServerIdentity } from '../../api/http.js'
import { BlockchainApiError } from '../account/blockchain.js'
import type { Nft, NftStandard } from './state.js'

export interface NftClientOptions extends ServerIdentity {
  /** The Sigil server; '' means the page's own origin. */
  baseUrl: string
  fetch?: typeof fetch
}

export interface GetNftsParams {
  /** CAIP-2. */
  chainId: string
  /** The previous page's `next`. */
  cursor?: string | undefined
}

export interface NftPage {
  data: Nft[]
  next: string | null
}

export interface NftClient {
  getNfts(address: string, params: GetNftsParams): Promise<NftPage>
}

const optionalNull = <T extends z.core.SomeType>(schema: T) => z.optional(z.nullable(schema))
const nftSchema = z.object({
  id: z.string(),
  chain: z.string(),
  contract: z.string(),
  tokenId: z.string(),
  standard: z.string(),
  amount: z.string(),
  name: optionalNull(z.string()),
  description: optionalNull(z.string()),
  image: optionalNull(z.string()),
  collection: optionalNull(z.object({ name: optionalNull(z.string()), symbol: optionalNull(z.string()) })),
})
const pageSchema = z.object({ data: z.array(nftSchema), next: optionalNull(z.string()) })

const STANDARDS: readonly string[] = ['erc721', 'erc1155'] satisfies NftStandard[]

/**
 * An image as the page can load it: a path on the Sigil server made absolute, with projectId, st
 * and sv as the server's other images (a query of its own kept); an http(s) or data: URL as it
 * is; anything else (ipfs:// the server did not serve) none.
 */
export function nftImageUrl(image: string | null | undefined, baseUrl: string, identity: ServerIdentity): string | null {
  if (!image) return null
  if (image.startsWith('/')) {
    const [path = '', query] = image.split('?', 2)
    const url = serverUrl(baseUrl, path, identity)
    return query ? `${url}&${query}` : url
  }
  return /^(https?:|data:image\/)/i.test(image) ? image : null
}

export function createNftClient(options: NftClientOptions): NftClient {
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  return {
    async getNfts(address, params) {
      const target = serverUrl(options.baseUrl, `/v1/account/${encodeURIComponent(address)}/nfts`, options, { chainId: params.chainId, cursor: params.cursor })
      const result = await readServerResponse(await doFetch(target))
      if (!result.ok) throw new BlockchainApiError(result.failure.message, result.failure.status, result.failure.code)
      const page = pageSchema.parse(result.body)
      return {
        // Standards this modal cannot send are left out.
        data: page.data
          .filter((n) => STANDARDS.includes(n.standard))
          .map((n) => ({
            id: n.id,
            chain: n.chain,
            contract: n.contract,
            tokenId: n.tokenId,
            standard: n.standard as NftStandard,
            amount: n.amount,
            name: n.name || `${n.collection?.name ?? ''} #${n.tokenId}`.trim(),
            description: n.description || null,
            image: nftImageUrl(n.image, options.baseUrl, options),
            // A contract without a name() or symbol() is listed with "": none.
            collection: { name: n.collection?.name || null, symbol: n.collection?.symbol || null },
          })),
        next: page.next ?? null,
      }
    },
  }
}
