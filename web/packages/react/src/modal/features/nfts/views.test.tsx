import type { ChainAdapter, NftTransfer } from '@sigil/core'
import { ethereum, sigilDev } from '@sigil/core/networks'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeAdapter } from '../../../../../core/src/test-utils/index.js'
import type { AppKit } from '../../../appkit.js'
import { cleanup, serverBalance, shadow, stubDirectory, testAppKit, waitFor, dialogName } from '../../../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

const ADDRESS = '0x1111111111111111111111111111111111111111'
const RECEIVER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const BADGE = '0x95401dc811bb5740090279ba06cfa8fcf6113778'
const ITEMS = '0x4826533b4897376654bb4d4ad88b7fafd0c98528'
const HASH = `0x${'ab'.repeat(32)}`
const GAS = { limit: 90_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1n }

/** An item as `GET /v1/account/{address}/nfts` lists it: badge n, or `amount` of item n. */
function wireNft(n: number, extra: { standard?: 'erc1155'; amount?: string; image?: string | null; description?: string | null } = {}) {
  const items = extra.standard === 'erc1155'
  const contract = items ? ITEMS : BADGE
  return {
    id: `eip155:31337:${contract}:${n}`,
    chain: 'eip155:31337',
    contract,
    tokenId: String(n),
    standard: items ? 'erc1155' : 'erc721',
    amount: extra.amount ?? '1',
    name: `${items ? 'Sigil Item' : 'Sigil Badge'} #${n}`,
    description: extra.description === undefined ? 'A badge of the dev chain' : extra.description,
    image: extra.image === undefined ? `/v1/nft/image/eip155:31337/${contract}/${n}` : extra.image,
    collection: items ? { name: 'Sigil Items', symbol: null } : { name: 'Sigil Badge', symbol: 'SBG' },
  }
}

type WireNft = ReturnType<typeof wireNft>

/** The Sigil server stub with an NFT route over `nfts` (50 a page, the cursor the next index); `fail` answers 502. */
function server(nfts: WireNft[], options: { fail?: () => boolean } = {}) {
  const directory = stubDirectory(5, { balances: [serverBalance('ETH', '2', { name: 'Ether' })] })
  const calls: URL[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input))
    if (!/^\/v1\/account\/[^/]+\/nfts$/.test(url.pathname)) return directory(input)
    calls.push(url)
    if (options.fail?.()) return new Response(JSON.stringify({ error: { code: 'UPSTREAM', message: 'down' } }), { status: 502 })
    const from = Number(url.searchParams.get('cursor') ?? '0')
    const body = { data: nfts.slice(from, from + 50), next: from + 50 < nfts.length ? String(from + 50) : null }
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } })
  })
  vi.stubGlobal('fetch', fetchMock)
  return { calls, nfts }
}

/** Connected on the dev chain with an adapter that can send NFTs; the Account view open on its NFTs tab. */
async function nftsTab(more: Partial<ChainAdapter> = {}) {
  const { adapter } = fakeAdapter()
  const sendNft = vi.fn(async (_provider: unknown, _transfer: NftTransfer) => HASH)
  const nftTransferFee = vi.fn(async () => ({ fee: 90_000n * 2_000_000_000n, gas: GAS }))
  const resolveName = vi.fn(async (name: string) => (name === 'alice.eth' ? RECEIVER : undefined))
  const isAddress = (a: string) => /^0x[0-9a-fA-F]{40}$/.test(a)
  const dev = { ...sigilDev(), blockExplorers: { default: { name: 'Otterscan', url: 'http://127.0.0.1:5100' } } }
  const { appKit } = testAppKit({
    networks: [dev, ethereum],
    adapters: [{ ...adapter, isAddress, sendTransfer: vi.fn(async () => HASH), sendNft, nftTransferFee, resolveName, ...more }],
  })
  current = appKit
  await act(async () => {
    await appKit.client.connect('com.test')
    await appKit.client.refreshBalance()
  })
  await act(() => appKit.open({ view: 'Account' }))
  await waitFor(() => expect(tab('NFTs')).toBeTruthy())
  await click(tab('NFTs'))
  return { appKit, sendNft, nftTransferFee, resolveName }
}

const tab = (name: string) => [...shadow().querySelectorAll<HTMLButtonElement>('[role=tab]')].find((t) => t.textContent === name)
const button = (name: string) => [...shadow().querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.trim() === name)
const byTest = <T extends Element = HTMLElement>(id: string) => shadow().querySelector<T>(`[data-testid=${id}]`)
const cards = () => [...shadow().querySelectorAll<HTMLButtonElement>('[data-testid=nft-card]')]
const click = (el: Element | null | undefined) => act(async () => (el as HTMLElement | null)?.click())
const type = (el: HTMLInputElement | null, value: string) =>
  act(() => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
    setter?.call(el, value)
    el?.dispatchEvent(new Event('input', { bubbles: true }))
  })

describe('the NFTs tab', () => {
  it('shows the NFTs in a grid: each card a button with its lazy image (alt: its name), its name and, for an ERC-1155, ×amount', async () => {
    const api = server([wireNft(2), wireNft(1, { standard: 'erc1155', amount: '5', image: null })])
    await nftsTab()
    await waitFor(() => expect(cards()).toHaveLength(2))
    expect(api.calls[0]?.pathname).toBe(`/v1/account/${ADDRESS}/nfts`)
    expect(api.calls[0]?.searchParams.get('chainId')).toBe('eip155:31337')
    const [badge, item] = cards()
    const img = badge?.querySelector('img')
    const src = new URL(img?.getAttribute('src') ?? '')
    expect(src.origin + src.pathname).toBe(`https://api.test/v1/nft/image/eip155:31337/${BADGE}/2`)
    expect(src.searchParams.get('projectId')).toBe('p1')
    expect(img?.getAttribute('loading')).toBe('lazy')
    expect(img?.getAttribute('alt')).toBe('Sigil Badge #2')
    expect(badge?.querySelector('.nft-name')?.textContent).toBe('Sigil Badge #2')
    // Named by the image's alt text alone (the visible name is hidden from it, said once).
    expect(badge?.hasAttribute('aria-label')).toBe(false)
    expect(badge?.querySelector('.nft-name')?.getAttribute('aria-hidden')).toBe('true')
    // No image: a placeholder that still says the name.
    expect(item?.querySelector('img')).toBeNull()
    expect(item?.querySelector('[role=img]')?.getAttribute('aria-label')).toBe('Sigil Item #1')
    expect(item?.querySelector('[data-testid=nft-count]')?.textContent).toBe('×5')
    // Three columns in the 360 px modal: cards at least 96 px wide.
    expect(shadow().innerHTML).toContain('grid-template-columns:repeat(auto-fill,minmax(96px,1fr))')
  })

  it('an image that fails to load gives way to the placeholder', async () => {
    server([wireNft(1)])
    await nftsTab()
    await waitFor(() => expect(cards()).toHaveLength(1))
    await act(async () => cards()[0]?.querySelector('img')?.dispatchEvent(new Event('error')))
    expect(cards()[0]?.querySelector('img')).toBeNull()
    expect(cards()[0]?.querySelector('[role=img]')?.getAttribute('aria-label')).toBe('Sigil Badge #1')
  })

  it('loading skeletons, then the empty state', async () => {
    let release: () => void = () => undefined
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const api = server([])
    const answer = vi.mocked(fetch).getMockImplementation()
    vi.mocked(fetch).mockImplementation(async (input) => {
      if (String(input).includes('/nfts')) await gate
      return (answer as (i: RequestInfo | URL) => Promise<Response>)(input)
    })
    await nftsTab()
    await waitFor(() => expect(byTest('nfts-loading')).not.toBeNull())
    expect(byTest('nfts-loading')?.querySelectorAll('.nft-card.skeleton')).toHaveLength(6)
    release()
    await waitFor(() => expect(byTest('nfts-empty')?.textContent).toContain('No NFTs yet.'))
    expect(api.calls).toHaveLength(1)
  })

  it('a failure is said in the tab with a retry; the retry shows the grid', async () => {
    let failing = true
    server([wireNft(1)], { fail: () => failing })
    await nftsTab()
    await waitFor(() => expect(byTest('nfts-failed')).not.toBeNull())
    expect(byTest('nfts-failed')?.querySelector('[role=alert]')?.textContent).toBe('Could not load the NFTs.')
    failing = false
    await click(button('Try again'))
    await waitFor(() => expect(cards()).toHaveLength(1))
  })

  it("50 a page: 'Load more' (or the end scrolling into view) asks for the next page", async () => {
    const api = server(Array.from({ length: 60 }, (_, i) => wireNft(60 - i)))
    await nftsTab()
    await waitFor(() => expect(cards()).toHaveLength(50))
    expect(byTest('nfts-sentinel')).not.toBeNull()
    await click(byTest('nfts-more'))
    await waitFor(() => expect(cards()).toHaveLength(60))
    expect(api.calls.at(-1)?.searchParams.get('cursor')).toBe('50')
    expect(byTest('nfts-more')).toBeNull()
  })
})

describe('NftItem -> SendNft -> SendNftPreview -> WalletSendSent', () => {
  it('the NFT: its image, name, collection, token id, standard and description; Send only where the adapter can send NFTs', async () => {
    server([wireNft(7)])
    const { appKit } = await nftsTab()
    await waitFor(() => expect(cards()).toHaveLength(1))
    await click(cards()[0])
    await waitFor(() => expect(byTest('nft-item')).not.toBeNull())
    expect(dialogName()).toBe('Sigil Badge')
    const item = byTest('nft-item')
    expect(item?.querySelector('img')?.getAttribute('alt')).toBe('Sigil Badge #7')
    expect(byTest('nft-name')?.textContent).toBe('Sigil Badge #7')
    expect(byTest('nft-description')?.textContent).toBe('A badge of the dev chain')
    expect([...(item?.querySelectorAll('.send-facts dt') ?? [])].map((dt) => `${dt.textContent}: ${dt.nextElementSibling?.textContent?.trim()}`)).toEqual([
      'Collection: Sigil Badge',
      'Token ID: 7',
      'Standard: ERC-721',
      'Contract: 0x95…113778',
    ])
    expect(item?.querySelector<HTMLAnchorElement>('.send-facts a')?.href).toBe(`http://127.0.0.1:5100/address/${BADGE}`)
    expect(byTest('nft-send')).not.toBeNull()
    void appKit
  })

  it('no Send without the ability (and no NFTs listed)', async () => {
    server([wireNft(7)])
    await nftsTab({ sendNft: undefined })
    await waitFor(() => expect(byTest('nfts-unsupported')?.textContent).toBe('NFTs on Sigil Dev are not shown.'))
  })

  it('sends a badge to a name: the address shown as typed, the Preview with the name, the address and the fee, then sent; back on the NFTs tab without it', async () => {
    server([wireNft(2), wireNft(1)])
    const { appKit, sendNft } = await nftsTab()
    await waitFor(() => expect(cards()).toHaveLength(2))
    await click(cards()[1])
    await waitFor(() => expect(byTest('nft-send')).not.toBeNull())
    await click(byTest('nft-send'))
    await waitFor(() => expect(byTest('send-nft')).not.toBeNull())
    expect(dialogName()).toBe('Send NFT')
    // An ERC-721 has no amount to choose.
    expect(byTest('nft-amount-input')).toBeNull()
    expect(byTest('send-submit')?.textContent).toBe('Enter a Receiver')
    await type(byTest('send-to'), 'not-an-address')
    expect(byTest('send-submit')?.textContent).toBe('Receiver Not Valid')
    await type(byTest('send-to'), 'alice.eth')
    await waitFor(() => expect(byTest('send-resolved')?.textContent).toBe(`Sends to ${RECEIVER}`))
    expect(byTest<HTMLButtonElement>('send-submit')?.disabled).toBe(false)
    await click(byTest('send-submit'))
    await waitFor(() => expect(byTest('send-fee')?.textContent).toBe('up to 0.00018 ETH'))
    expect(dialogName()).toBe('Review Send')
    expect(byTest('send-preview-to')?.textContent).toBe('alice.eth0x70…dc79C8')
    expect(byTest('nft-send-head')?.textContent).toBe('Sigil Badge #1Sigil Badge')
    expect(sendNft).not.toHaveBeenCalled()
    await waitFor(() => expect(byTest<HTMLButtonElement>('send-confirm')?.disabled).toBe(false))
    await click(byTest('send-confirm'))
    await waitFor(() => expect(byTest('send-sent')).not.toBeNull())
    expect(sendNft.mock.calls[0]?.[1]).toMatchObject({ from: ADDRESS, to: RECEIVER, contract: BADGE, tokenId: 1n, standard: 'erc721', amount: 1n, gas: GAS })
    expect(byTest('send-sent')?.querySelector('.headline')?.textContent).toBe('Sent 1 Sigil Badge #1')
    expect(byTest('send-sent')?.textContent).toContain('to alice.eth')
    expect(byTest<HTMLAnchorElement>('send-explorer')?.href).toBe(`http://127.0.0.1:5100/tx/${HASH}`)
    expect(appKit.client.store.getState().router.history.map((r) => r.view)).toEqual(['Account', 'WalletSendSent'])
    await click(button('Done'))
    // Back on the tab it was sent from, without it.
    await waitFor(() => expect(tab('NFTs')?.getAttribute('aria-selected')).toBe('true'))
    await waitFor(() => expect(cards().map((c) => c.querySelector('.nft-name')?.textContent)).toEqual(['Sigil Badge #2']))
  })

  it('an ERC-1155: how many (1 by default, up to what is held, Max), then that amount sent', async () => {
    server([wireNft(1, { standard: 'erc1155', amount: '5' })])
    const { sendNft } = await nftsTab()
    await waitFor(() => expect(cards()).toHaveLength(1))
    await click(cards()[0])
    await waitFor(() => expect(byTest('nft-amount')?.textContent).toBe('5'))
    await click(byTest('nft-send'))
    await waitFor(() => expect(byTest('send-nft')).not.toBeNull())
    expect(byTest<HTMLInputElement>('nft-amount-input')?.value).toBe('1')
    expect(byTest('nft-held')?.textContent).toBe('of 5 held')
    await type(byTest('send-to'), RECEIVER)
    expect(byTest('send-submit')?.textContent).toBe('Review Send')
    await type(byTest('nft-amount-input'), '6')
    expect(byTest('send-submit')?.textContent).toBe('Check the Amount')
    await type(byTest('nft-amount-input'), '1.5')
    expect(byTest('send-submit')?.textContent).toBe('Check the Amount')
    await click(byTest('nft-max'))
    expect(byTest<HTMLInputElement>('nft-amount-input')?.value).toBe('5')
    await type(byTest('nft-amount-input'), '2')
    await click(byTest('send-submit'))
    await waitFor(() => expect(byTest<HTMLButtonElement>('send-confirm')?.disabled).toBe(false))
    expect(byTest('nft-send-head')?.textContent).toBe('×2 Sigil Item #1Sigil Items')
    // Cancel goes back to the form as it was.
    await click(button('Cancel'))
    await waitFor(() => expect(byTest<HTMLInputElement>('nft-amount-input')?.value).toBe('2'))
    await click(byTest('send-submit'))
    await waitFor(() => expect(byTest<HTMLButtonElement>('send-confirm')?.disabled).toBe(false))
    await click(byTest('send-confirm'))
    await waitFor(() => expect(byTest('send-sent')).not.toBeNull())
    expect(sendNft.mock.calls[0]?.[1]).toMatchObject({ contract: ITEMS, tokenId: 1n, standard: 'erc1155', amount: 2n })
    expect(byTest('send-sent')?.querySelector('.headline')?.textContent).toBe('Sent 2 Sigil Item #1')
    await click(button('Done'))
    await waitFor(() => expect(cards().map((c) => c.querySelector('[data-testid=nft-count]')?.textContent)).toEqual(['×3']))
  })

  it("a refusal is said in the Preview before the wallet is asked (the fee the balance cannot pay); the wallet's rejection after", async () => {
    server([wireNft(1)])
    const { sendNft } = await nftsTab({
      nftTransferFee: vi.fn(async () => ({ fee: 3n * 10n ** 18n, gas: GAS })),
    })
    await waitFor(() => expect(cards()).toHaveLength(1))
    await click(cards()[0])
    await waitFor(() => expect(byTest('nft-send')).not.toBeNull())
    await click(byTest('nft-send'))
    await waitFor(() => expect(byTest('send-to')).not.toBeNull())
    await type(byTest('send-to'), RECEIVER)
    await click(byTest('send-submit'))
    await waitFor(() => expect(byTest('send-error')?.textContent).toBe('Insufficient funds for the network fee (about 3 ETH)'))
    expect(byTest<HTMLButtonElement>('send-confirm')?.disabled).toBe(true)
    expect(sendNft).not.toHaveBeenCalled()
  })
})
