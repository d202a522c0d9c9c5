import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ChainAdapter, NftTransfer } from '../../adapter.js'
import { createSigil } from '../../client.js'
import { polygon } from '../../networks.js'
import { fakeAdapter, fakeBlockchainApi, fakeConnector, MemoryStorage, testOptions, tokenBalance } from '../../test-utils/index.js'
import { activityRows, activeActivityAccount } from '../activity/activity.js'
import {
  activeNftAccount,
  canSendNft,
  confirmSendNft,
  fetchNfts,
  nftsState,
  parseNftAmount,
  prepareSendNft,
  previewSendNft,
  sendNft,
  sendNftStep,
  SENT_NFT_TTL_MS,
} from './nfts.js'
import type { Nft } from './state.js'

const ADDRESS = '0x1111111111111111111111111111111111111111'
const RECEIVER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const BADGE = '0x95401dc811bb5740090279ba06cfa8fcf6113778'
const ITEMS = '0x4826533b4897376654bb4d4ad88b7fafd0c98528'
const HASH = `0x${'ef'.repeat(32)}`

/** An NFT as the API client gives it: the n-th badge (ERC-721), or `amount` of item n (ERC-1155). */
function nft(n: number, extra: Partial<Nft> = {}): Nft {
  const chain = extra.chain ?? 'eip155:1'
  const items = extra.standard === 'erc1155'
  const contract = items ? ITEMS : BADGE
  return {
    id: `${chain}:${contract}:${n}`,
    chain,
    contract,
    tokenId: String(n),
    standard: 'erc721',
    amount: '1',
    name: `${items ? 'Sigil Item' : 'Sigil Badge'} #${n}`,
    description: null,
    image: null,
    collection: { name: items ? 'Sigil Items' : 'Sigil Badge', symbol: items ? null : 'SBG' },
    ...extra,
  }
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** The NFT server over `all` (newest first, as its wire shape), 50 a page, the cursor being the next index. */
function nftServer(all: Nft[], options: { fail?: (url: URL) => boolean } = {}) {
  const calls: URL[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input))
    calls.push(url)
    if (options.fail?.(url)) return json({ error: { code: 'UPSTREAM', message: 'down' } }, 502)
    const chain = url.searchParams.get('chainId')
    const listed = all.filter((n) => n.chain === chain)
    const from = Number(url.searchParams.get('cursor') ?? '0')
    const data = listed.slice(from, from + 50).map((n) => ({ ...n, image: n.image && `/v1/nft/image/${n.id}` }))
    return json({ data, next: from + 50 < listed.length ? String(from + 50) : null })
  })
  vi.stubGlobal('fetch', fetchMock)
  return { calls, all }
}

const GAS = { limit: 90_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1n }

/** A connected EVM account (0x1111… on Ethereum) whose adapter can send NFTs, holding `native` ETH. */
async function connected(more: Partial<ChainAdapter> = {}, native = '1') {
  const wallet = fakeConnector()
  const { adapter } = fakeAdapter()
  const sendNftMock = vi.fn(async (_provider: unknown, _transfer: NftTransfer) => HASH)
  const nftTransferFee = vi.fn(async () => ({ fee: 90_000n * 2_000_000_000n, gas: GAS }))
  const resolveName = vi.fn(async (name: string) => (name === 'alice.eth' ? RECEIVER : undefined))
  const client = createSigil(testOptions(), {
    adapters: [{ ...adapter, isAddress: (a: string) => /^0x[0-9a-fA-F]{40}$/.test(a), sendNft: sendNftMock, nftTransferFee, resolveName, ...more }],
    connectors: [wallet.source],
    isMobile: () => false,
    blockchainApi: fakeBlockchainApi([tokenBalance({ numeric: native })]),
    restore: false,
    storage: new MemoryStorage(),
  })
  await client.connect('com.test')
  await vi.waitFor(() => expect(client.store.getState().chains.eip155?.account.tokenBalance).toHaveLength(1))
  return { client, sendNft: sendNftMock, nftTransferFee, resolveName }
}

const listOf = (client: Awaited<ReturnType<typeof connected>>['client']) => {
  const state = client.store.getState()
  return nftsState(state.nfts, activeNftAccount(state))
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('fetchNfts', () => {
  it('asks the NFT API for the active account and chain, 50 a page, then the next page by cursor, appending', async () => {
    const server = nftServer(Array.from({ length: 120 }, (_, i) => nft(120 - i)))
    const { client } = await connected()
    await fetchNfts(client)
    const first = server.calls[0] as URL
    expect(first.origin + first.pathname).toBe(`https://api.test/v1/account/${ADDRESS}/nfts`)
    expect(first.searchParams.get('chainId')).toBe('eip155:1')
    expect(first.searchParams.get('projectId')).toBe('p1')
    expect(first.searchParams.has('cursor')).toBe(false)
    expect(listOf(client)).toMatchObject({ status: 'ready', next: '50' })
    expect(listOf(client).items).toHaveLength(50)
    await fetchNfts(client, { next: true })
    expect(server.calls[1]?.searchParams.get('cursor')).toBe('50')
    await fetchNfts(client, { next: true })
    expect(listOf(client).items.map((n) => n.tokenId)).toEqual(Array.from({ length: 120 }, (_, i) => String(120 - i)))
    expect(listOf(client).next).toBeNull()
    // At the end, and for a list already shown: nothing more is asked.
    await fetchNfts(client, { next: true })
    await fetchNfts(client)
    expect(server.calls).toHaveLength(3)
  })

  it('the first page is asked once, even when asked twice at the same time', async () => {
    const server = nftServer([nft(1)])
    const { client } = await connected()
    await Promise.all([fetchNfts(client), fetchNfts(client)])
    expect(server.calls).toHaveLength(1)
  })

  it('another chain or account starts a new list; an answer for the old one is dropped', async () => {
    const server = nftServer([nft(1), nft(2, { chain: 'eip155:137' })])
    const { client } = await connected()
    await fetchNfts(client)
    expect(listOf(client).items.map((n) => n.id)).toEqual([nft(1).id])
    // A switch while the first chain's page is on its way: its answer is not shown for the new chain.
    const late = fetchNfts(client, { refresh: true })
    await client.switchNetwork(polygon)
    await late
    expect(listOf(client).items).toEqual([])
    await fetchNfts(client)
    expect(server.calls.at(-1)?.searchParams.get('chainId')).toBe('eip155:137')
    expect(listOf(client).items.map((n) => n.id)).toEqual([nft(2, { chain: 'eip155:137' }).id])
  })

  it('a failed first page is kept as a failure (no crash, no list) and is asked again on retry', async () => {
    let failing = true
    nftServer([nft(1)], { fail: () => failing })
    const { client } = await connected()
    await fetchNfts(client)
    expect(listOf(client)).toMatchObject({ status: 'failed', items: [] })
    failing = false
    await fetchNfts(client)
    expect(listOf(client)).toMatchObject({ status: 'ready', items: [nft(1)] })
  })

  it('a failed next page keeps the list and its cursor; asking for the next page again retries it', async () => {
    let failing = false
    const server = nftServer(
      Array.from({ length: 60 }, (_, i) => nft(60 - i)),
      { fail: (url) => failing && url.searchParams.has('cursor') },
    )
    const { client } = await connected()
    await fetchNfts(client)
    failing = true
    await fetchNfts(client, { next: true })
    expect(listOf(client)).toMatchObject({ status: 'failed', next: '50' })
    expect(listOf(client).items).toHaveLength(50)
    failing = false
    await fetchNfts(client, { next: true })
    expect(listOf(client).items).toHaveLength(60)
    expect(server.calls.filter((u) => u.searchParams.get('cursor') === '50')).toHaveLength(2)
  })

  it('needs an account: nothing is asked without one; a family whose adapter cannot send NFTs has none listed', async () => {
    const server = nftServer([nft(1)])
    const { client } = await connected({ sendNft: undefined })
    await fetchNfts(client)
    expect(listOf(client).status).toBe('unsupported')
    expect(canSendNft(client)).toBe(false)
    await client.disconnect()
    await fetchNfts(client)
    expect(server.calls).toHaveLength(0)
  })
})

describe('sendNft', () => {
  it('ERC-721: asks the adapter to send token 1 to the receiver with the quoted gas; pending in Activity; off the list at once, then the holdings asked again', async () => {
    const server = nftServer([nft(2), nft(1)])
    const { client, sendNft: adapterSend } = await connected()
    await fetchNfts(client)
    const hash = await sendNft(client, { nft: nft(1), to: ` ${RECEIVER} ` })
    expect(hash).toBe(HASH)
    const transfer = adapterSend.mock.calls[0]?.[1]
    expect(transfer).toMatchObject({ from: ADDRESS, to: RECEIVER, contract: BADGE, tokenId: 1n, standard: 'erc721', amount: 1n, gas: GAS })
    expect(transfer?.network.caipNetworkId).toBe('eip155:1')
    const activity = activityRows(client.store.getState().activity, activeActivityAccount(client.store.getState()))
    expect(activity[0]).toMatchObject({ pending: true, transaction: { metadata: { hash: HASH, sentTo: RECEIVER } } })
    expect(activity[0]?.transaction.transfers[0]).toMatchObject({ quantity: { numeric: '1' }, fungible_info: { symbol: 'Sigil Badge #1' } })
    expect(listOf(client).items.map((n) => n.tokenId)).toEqual(['2'])
    // The server has not indexed the send yet: its listing still shows the badge, which stays off the list.
    await vi.waitFor(() => expect(server.calls).toHaveLength(2))
    await vi.waitFor(() => expect(listOf(client).status).toBe('ready'))
    expect(listOf(client).items.map((n) => n.tokenId)).toEqual(['2'])
    // Once it has, the list is the server's.
    server.all.splice(1, 1)
    await vi.waitFor(async () => {
      await fetchNfts(client, { refresh: true })
      expect(client.store.getState().nfts?.sent).toEqual([])
    })
    expect(listOf(client).items.map((n) => n.tokenId)).toEqual(['2'])
  })

  it('ERC-1155: sends the amount asked, up to what is held; the amount left shows until the server lists it', async () => {
    nftServer([nft(1, { standard: 'erc1155', amount: '5' })])
    const { client, sendNft: adapterSend } = await connected()
    await fetchNfts(client)
    await sendNft(client, { nft: nft(1, { standard: 'erc1155', amount: '5' }), to: RECEIVER, amount: '2' })
    expect(adapterSend.mock.calls[0]?.[1]).toMatchObject({ contract: ITEMS, tokenId: 1n, standard: 'erc1155', amount: 2n })
    expect(listOf(client).items.map((n) => n.amount)).toEqual(['3'])
    await vi.waitFor(() => expect(listOf(client).status).toBe('ready'))
    expect(listOf(client).items.map((n) => n.amount)).toEqual(['3'])
  })

  it('a sent NFT is kept off a stale listing for SENT_NFT_TTL_MS at most', async () => {
    nftServer([nft(1)])
    const { client } = await connected()
    await fetchNfts(client)
    await sendNft(client, { nft: nft(1), to: RECEIVER })
    await vi.waitFor(() => expect(listOf(client).status).toBe('ready'))
    expect(listOf(client).items).toEqual([])
    const now = Date.now()
    vi.spyOn(Date, 'now').mockReturnValue(now + SENT_NFT_TTL_MS + 1)
    await fetchNfts(client, { refresh: true })
    expect(listOf(client).items.map((n) => n.tokenId)).toEqual(['1'])
  })

  it('validates before the wallet is asked: the receiver as a send does, the amount as a whole number from 1 to what is held', async () => {
    nftServer([])
    const { client, sendNft: adapterSend, resolveName } = await connected()
    const items = nft(1, { standard: 'erc1155', amount: '5' })
    await expect(sendNft(client, { nft: nft(1), to: '' })).rejects.toMatchObject({ code: 'INVALID_RECEIVER' })
    await expect(sendNft(client, { nft: nft(1), to: 'not an address' })).rejects.toMatchObject({
      code: 'INVALID_RECEIVER',
      message: 'This is not a valid address on Ethereum',
    })
    await expect(sendNft(client, { nft: nft(1), to: 'nobody.eth' })).rejects.toMatchObject({
      code: 'NAME_NOT_RESOLVED',
      message: 'nobody.eth has no address on Ethereum',
    })
    for (const amount of ['0', '6', '1.5', '-1', 'two', '', undefined]) {
      await expect(sendNft(client, { nft: items, to: RECEIVER, amount })).rejects.toMatchObject({
        code: 'INVALID_NFT_AMOUNT',
        message: 'Enter a whole number from 1 to 5',
      })
    }
    await expect(sendNft(client, { nft: nft(1), to: RECEIVER, amount: '2' })).rejects.toMatchObject({ code: 'INVALID_NFT_AMOUNT' })
    // Another chain's NFT is not sent from this one.
    await expect(sendNft(client, { nft: nft(1, { chain: 'eip155:137' }), to: RECEIVER })).rejects.toMatchObject({ code: 'NFT_UNSUPPORTED' })
    expect(adapterSend).not.toHaveBeenCalled()

    // A name is resolved for the active network and sent to its address.
    const prepared = await prepareSendNft(client, { nft: items, to: 'alice.eth', amount: ' 5 ' })
    expect(resolveName).toHaveBeenCalledWith('alice.eth', expect.objectContaining({ caipNetworkId: 'eip155:1' }), expect.anything())
    expect(prepared).toMatchObject({
      name: 'alice.eth',
      transfer: { to: RECEIVER, amount: 5n },
      fee: { fee: 180_000_000_000_000n },
      feeCurrency: { symbol: 'ETH' },
    })
    expect(adapterSend).not.toHaveBeenCalled()
  })

  it('refuses when the native balance does not cover the fee; a rejection in the wallet and a revert come through as errors', async () => {
    nftServer([])
    const low = await connected({}, '0.0001')
    await expect(sendNft(low.client, { nft: nft(1), to: RECEIVER })).rejects.toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      message: 'Insufficient funds for the network fee (about 0.00018 ETH)',
    })
    const rejecting = await connected({
      sendNft: async () => {
        throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
      },
    })
    await expect(sendNft(rejecting.client, { nft: nft(1), to: RECEIVER })).rejects.toMatchObject({ code: 4001 })
    const reverting = await connected({
      sendNft: async () => {
        throw Object.assign(new Error('execution reverted (transaction 0x1)'), { code: 3 })
      },
    })
    await expect(sendNft(reverting.client, { nft: nft(1), to: RECEIVER })).rejects.toMatchObject({ code: 'EXECUTION_REVERTED' })
  })

  it('the form step and the amount rules', () => {
    const items = { standard: 'erc1155' as const, amount: '5' }
    expect(parseNftAmount(items, '5')).toBe(5n)
    expect(parseNftAmount(items, '05')).toBe(5n)
    expect(parseNftAmount({ standard: 'erc721', amount: '1' }, '')).toBe(1n)
    expect(sendNftStep({ nft: items, amount: '9', to: '', receiver: undefined })).toBe('invalidAmount')
    expect(sendNftStep({ nft: items, amount: '2', to: '', receiver: undefined })).toBe('addAddress')
    expect(sendNftStep({ nft: items, amount: '2', to: 'alice.eth', receiver: undefined, resolving: true })).toBe('resolving')
    expect(sendNftStep({ nft: items, amount: '2', to: 'alice', receiver: undefined })).toBe('invalidAddress')
    expect(sendNftStep({ nft: items, amount: '2', to: RECEIVER, receiver: RECEIVER })).toBe('ready')
  })

  it('Preview then confirm: the NFT views leave the history and the sent state shows over what was below them', async () => {
    nftServer([nft(1)])
    const { client } = await connected()
    client.push('Account')
    client.push('NftItem', { nft: nft(1) })
    client.push('SendNft', { nft: nft(1) })
    previewSendNft(client, { nft: nft(1), to: 'alice.eth', amount: '1' })
    expect(client.store.getState().router.history.map((r) => r.view)).toEqual(['Connect', 'Account', 'NftItem', 'SendNft', 'SendNftPreview'])
    expect(client.store.getState().router.history[3]?.data).toMatchObject({ to: 'alice.eth', amount: '1' })
    await confirmSendNft(client, { nft: nft(1), to: RECEIVER, amount: '1', name: 'alice.eth' })
    const history = client.store.getState().router.history
    expect(history.map((r) => r.view)).toEqual(['Connect', 'Account', 'WalletSendSent'])
    expect(history[2]?.data).toEqual({ hash: HASH, amount: '1', symbol: 'Sigil Badge #1', to: RECEIVER, name: 'alice.eth' })
  })
})
