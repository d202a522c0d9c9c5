/*
 * The NFTs feature's state (`SigilState.nfts`): the NFTs the active account holds on the active
 * chain, as the Sigil server lists them, a page at a time; and what this session sent, kept off
 * the list until the server's holdings show the send.
 */

/** One NFT the account holds, as `GET /v1/account/{address}/nfts` lists it. */
export interface Nft {
  /** `eip155:31337:0x<contract, lower case>:<token id>`. */
  id: string
  /** CAIP-2. */
  chain: string
  contract: string
  /** Decimal. */
  tokenId: string
  standard: NftStandard
  /** How many the account holds, decimal (1 for an ERC-721). */
  amount: string
  name: string
  description: string | null
  /** The image's URL on the Sigil server (its path made absolute, with the project id), or null without one. */
  image: string | null
  collection: { name: string | null; symbol: string | null }
}

export type NftStandard = 'erc721' | 'erc1155'

/** An NFT sent in this session: hidden from (ERC-721) or taken off (ERC-1155) a listing that still shows `held`. */
export interface SentNft {
  /** The Nft id. */
  id: string
  /** The CAIP-10 account that sent it. */
  account: string
  /** How many the account held before the send, decimal. */
  held: string
  /** How many were sent, decimal. */
  amount: string
  /** When (ms since the epoch); forgotten SENT_NFT_TTL_MS later. */
  at: number
}

/** Where the list stands: not asked, a page on its way, shown, the last fetch failed, or the family has no NFTs here. */
export type NftsStatus = 'idle' | 'loading' | 'ready' | 'failed' | 'unsupported'

export interface NftsState {
  /** The CAIP-10 account (`eip155:1:0x…`) the list is for; another account or chain starts a new list. */
  account: string | undefined
  /** Newest first, each id once. */
  items: Nft[]
  /** The cursor of the next page; null at the end; undefined before the first page. */
  next: string | null | undefined
  status: NftsStatus
  /** Sent in this session, until the server's listing shows it. */
  sent: SentNft[]
}

export function initialNftsState(): NftsState {
  return { account: undefined, items: [], next: undefined, status: 'idle', sent: [] }
}

export const nftsOf = (state: { nfts?: NftsState | undefined }): NftsState => state.nfts ?? initialNftsState()
