import { describe, expect, it, vi } from 'vitest'
import { BlockchainApiError } from '../account/blockchain.js'
import { createNftClient, nftImageUrl } from './api.js'

const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const BADGE = '0x95401dc811bb5740090279ba06cfa8fcf6113778'
const identity = { projectId: 'p1', sdkType: 'sigil', sdkVersion: 'react-1.0.0' }

/** An item of the server's page, as `GET /v1/account/{address}/nfts` gives it. */
const item = (tokenId: string, extra: Record<string, unknown> = {}) => ({
  id: `eip155:31337:${BADGE}:${tokenId}`,
  chain: 'eip155:31337',
  contract: BADGE,
  tokenId,
  standard: 'erc721',
  amount: '1',
  name: `Sigil Badge #${tokenId}`,
  description: 'A badge of the dev chain',
  image: `/v1/nft/image/eip155:31337/${BADGE}/${tokenId}`,
  collection: { name: 'Sigil Badge', symbol: 'SBG' },
  ...extra,
})

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

describe('the NFT API client', () => {
  it('asks GET {api}/v1/account/{address}/nfts with the chain, the project and the cursor; images made absolute with the project id', async () => {
    const fetch = vi.fn(async (_input: RequestInfo | URL) => json({ data: [item('2'), item('1', { description: null, image: null })], next: 'abc' }))
    const client = createNftClient({ baseUrl: 'https://api.test/', ...identity, fetch })
    const page = await client.getNfts(ADDRESS, { chainId: 'eip155:31337', cursor: 'c1' })
    const url = new URL(String(fetch.mock.calls[0]?.[0]))
    expect(url.origin + url.pathname).toBe(`https://api.test/v1/account/${ADDRESS}/nfts`)
    expect(Object.fromEntries(url.searchParams)).toEqual({ projectId: 'p1', st: 'sigil', sv: 'react-1.0.0', chainId: 'eip155:31337', cursor: 'c1' })
    expect(page.next).toBe('abc')
    expect(page.data[0]).toEqual({
      id: `eip155:31337:${BADGE}:2`,
      chain: 'eip155:31337',
      contract: BADGE,
      tokenId: '2',
      standard: 'erc721',
      amount: '1',
      name: 'Sigil Badge #2',
      description: 'A badge of the dev chain',
      image: `https://api.test/v1/nft/image/eip155:31337/${BADGE}/2?projectId=p1&st=sigil&sv=react-1.0.0`,
      collection: { name: 'Sigil Badge', symbol: 'SBG' },
    })
    expect(page.data[1]).toMatchObject({ description: null, image: null })
  })

  it('the first page has no cursor; the end of the list is next null', async () => {
    const fetch = vi.fn(async (_input: RequestInfo | URL) => json({ data: [], next: null }))
    const page = await createNftClient({ baseUrl: '', ...identity, fetch }).getNfts(ADDRESS, { chainId: 'eip155:1' })
    expect(String(fetch.mock.calls[0]?.[0])).toBe(`/v1/account/${ADDRESS}/nfts?projectId=p1&st=sigil&sv=react-1.0.0&chainId=eip155%3A1`)
    expect(page).toEqual({ data: [], next: null })
  })

  it('keeps ERC-721 and ERC-1155 items only; a missing name is the collection and the token id; empty or null fields are none', async () => {
    const fetch = vi.fn(async () =>
      json({
        data: [
          item('1', { standard: 'erc20' }),
          item('7', { standard: 'erc1155', amount: '5', name: null, collection: { name: 'Sigil Items', symbol: '' } }),
          item('8', { standard: 'erc1155', name: '', description: '', collection: { name: '', symbol: '' } }),
        ],
        next: null,
      }),
    )
    const page = await createNftClient({ baseUrl: 'https://api.test', ...identity, fetch }).getNfts(ADDRESS, { chainId: 'eip155:31337' })
    expect(page.data).toHaveLength(2)
    expect(page.data[0]).toMatchObject({ standard: 'erc1155', amount: '5', name: 'Sigil Items #7', collection: { name: 'Sigil Items', symbol: null } })
    expect(page.data[1]).toMatchObject({ name: '#8', description: null, collection: { name: null, symbol: null } })
  })

  it('a server error is thrown with its message and code; a body of another shape too', async () => {
    const failing = createNftClient({
      baseUrl: 'https://api.test',
      ...identity,
      fetch: async () => json({ error: { code: 'UPSTREAM', message: 'node down' } }, 502),
    })
    await expect(failing.getNfts(ADDRESS, { chainId: 'eip155:1' })).rejects.toEqual(new BlockchainApiError('node down', 502, 'UPSTREAM'))
    const odd = createNftClient({ baseUrl: 'https://api.test', ...identity, fetch: async () => json({ items: [] }) })
    await expect(odd.getNfts(ADDRESS, { chainId: 'eip155:1' })).rejects.toThrow()
  })

  it('images: a server path made absolute (its own query kept), an http(s) or data: image as it is, anything else none', () => {
    expect(nftImageUrl('/v1/nft/image/a?size=2', 'https://api.test', identity)).toBe(
      'https://api.test/v1/nft/image/a?projectId=p1&st=sigil&sv=react-1.0.0&size=2',
    )
    expect(nftImageUrl('https://cdn.test/x.png', 'https://api.test', identity)).toBe('https://cdn.test/x.png')
    expect(nftImageUrl('data:image/png;base64,AA', 'https://api.test', identity)).toBe('data:image/png;base64,AA')
    expect(nftImageUrl('ipfs://sigil-dev/badge/1', 'https://api.test', identity)).toBeNull()
    expect(nftImageUrl('javascript:alert(1)', 'https://api.test', identity)).toBeNull()
    expect(nftImageUrl(null, 'https://api.test', identity)).toBeNull()
  })
})
