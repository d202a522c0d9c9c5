import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BALANCE_CACHE_MS, BALANCE_RETRY_LOCK_MS, listedTokens, nativeBalanceOf, tokenFiatValue, totalFiatValue } from './balance.js'
import { BlockchainApiError } from './blockchain.js'
import { fakeBlockchainApi, fakeWallet, testClient, tokenBalance } from '../../test-utils/index.js'
import { polygon, sigilDev } from '../../networks.js'
import type { WalletAsset } from '../../types.js'

const ADDRESS = '0x1111111111111111111111111111111111111111'
const SGL = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const NFT = '0x9999999999999999999999999999999999999999'

const native = tokenBalance({ numeric: '1.23456789', price: 2000, value: 2469.13578 })
const sgl = tokenBalance({ name: 'Sigil', symbol: 'SGL', address: SGL, numeric: '1000.0009', price: 2.5 })
const usdc = tokenBalance({ name: 'USD Coin', symbol: 'USDC', address: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', decimals: '6', numeric: '12.5', price: 0 })
/** Not a fungible balance: decimals '0' (e.g. an NFT collection) is filtered out. */
const nft = tokenBalance({ name: 'Punks', symbol: 'PUNK', address: NFT, decimals: '0', numeric: '3', price: 0 })

describe('balance rules', () => {
  it('the native entry is the one without a contract address', () => {
    expect(nativeBalanceOf([sgl, native, usdc])).toBe(native)
    expect(nativeBalanceOf([sgl])).toBeUndefined()
  })

  it("tokens whose decimals is the string '0' are not listed", () => {
    expect(listedTokens([native, sgl, nft, usdc])).toEqual([native, sgl, usdc])
  })

  it('fiat value is price × quantity, only with a price', () => {
    expect(tokenFiatValue(sgl)).toBeCloseTo(2500.00225)
    expect(tokenFiatValue(usdc)).toBeUndefined()
    expect(tokenFiatValue(tokenBalance({ numeric: 'x', price: 3 }))).toBeUndefined()
    expect(totalFiatValue([native, sgl, usdc])).toBeCloseTo(1.23456789 * 2000 + 1000.0009 * 2.5)
    expect(totalFiatValue([usdc])).toBeUndefined()
    expect(totalFiatValue([])).toBeUndefined()
  })
})

describe('refreshBalance from the Sigil server', () => {
  const account = (client: ReturnType<typeof testClient>['client']) => client.store.getState().chains.eip155

  it('after connect: balance and symbol from the native entry, the token list without decimals-0 entries', async () => {
    const { client } = testClient({}, { restore: false, blockchainApi: fakeBlockchainApi([native, sgl, nft, usdc]) })
    await client.connect('com.test')
    await vi.waitFor(() => expect(account(client)?.balanceStatus).toBe('ready'))
    expect(account(client)?.account).toMatchObject({ balance: '1.23456789', balanceSymbol: 'ETH', tokenBalance: [native, sgl, usdc] })
  })

  it('asks for the active account on the active network, in usd, without forceUpdate', async () => {
    const blockchainApi = fakeBlockchainApi([native])
    const { client } = testClient({}, { restore: false, blockchainApi })
    await client.connect('com.test')
    await client.refreshBalance()
    expect(blockchainApi.getBalances).toHaveBeenCalledWith(ADDRESS, { chainId: 'eip155:1', currency: 'usd', forceUpdate: false })
    await client.switchNetwork(polygon)
    await vi.waitFor(() => expect(blockchainApi.getBalances).toHaveBeenLastCalledWith(ADDRESS, { chainId: 'eip155:137', currency: 'usd', forceUpdate: false }))
  })

  it('no native entry (a chain the server does not serve): no balance, no tokens', async () => {
    const { client } = testClient({}, { restore: false, blockchainApi: fakeBlockchainApi([]) })
    await client.connect('com.test')
    await vi.waitFor(() => expect(account(client)?.balanceStatus).toBe('ready'))
    expect(account(client)?.account).toMatchObject({ balance: undefined, balanceSymbol: undefined, tokenBalance: [] })
  })

  it('one fetch for concurrent refreshes of the same account', async () => {
    const blockchainApi = fakeBlockchainApi([native])
    const { client } = testClient({}, { restore: false, blockchainApi })
    await client.connect('com.test') // starts one
    await Promise.all([client.refreshBalance(), client.refreshBalance()])
    expect(blockchainApi.getBalances).toHaveBeenCalledTimes(1)
  })

  it('an answer for an account that changed meanwhile is not shown', async () => {
    const blockchainApi = fakeBlockchainApi([native])
    let release!: () => void
    blockchainApi.getBalances.mockImplementationOnce(() => new Promise((resolve) => (release = () => resolve([sgl]))))
    const { client, fake } = testClient({}, { restore: false, blockchainApi })
    await client.connect('com.test')
    // The first account's fetch is under way (balances load their code first) when the account changes.
    await vi.waitFor(() => expect(blockchainApi.getBalances).toHaveBeenCalledTimes(1))
    fake.events().accountChanged('0x2222222222222222222222222222222222222222')
    await vi.waitFor(() => expect(account(client)?.account.balance).toBe('1.23456789'))
    release()
    await Promise.resolve()
    expect(account(client)?.account.tokenBalance).toEqual([native])
  })

  it('the unsupported-network placeholder asks nothing and shows an empty result', async () => {
    const blockchainApi = fakeBlockchainApi([native])
    const { client, fake } = testClient({}, { restore: false, blockchainApi })
    fake.state.chainId = 10
    await client.connect('com.test')
    await client.refreshBalance()
    expect(blockchainApi.getBalances).not.toHaveBeenCalled()
    expect(blockchainApi.getIdentity).not.toHaveBeenCalled()
    expect(account(client)).toMatchObject({ balanceStatus: 'ready', account: { balance: undefined, tokenBalance: [] } })
  })

  it('disconnect clears balances and their status', async () => {
    const { client } = testClient({}, { restore: false, blockchainApi: fakeBlockchainApi([native, sgl]) })
    await client.connect('com.test')
    await client.refreshBalance()
    await client.disconnect()
    expect(account(client)).toMatchObject({ balanceStatus: 'idle', account: { balance: undefined, tokenBalance: [] } })
  })

  it('stores the native balance for the next page load', async () => {
    const { client, storage } = testClient({}, { restore: false, blockchainApi: fakeBlockchainApi([native]) })
    await client.connect('com.test')
    await client.refreshBalance()
    expect(client.storage.getNativeBalance(`eip155:1:${ADDRESS}`)).toMatchObject({ balance: '1.23456789', symbol: 'ETH' })
    expect(storage.getItem('@appkit/native_balance_cache')).toContain('1.23456789')
  })
})

describe('balance cache and retry lock (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'))
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  async function connected(blockchainApi = fakeBlockchainApi([native, sgl])) {
    const { client } = testClient({}, { restore: false, blockchainApi })
    await client.connect('com.test')
    await client.refreshBalance() // settles the fetch connect started
    return { client, blockchainApi }
  }

  it('an answer is reused for 30 s; then the server is asked again', async () => {
    const { client, blockchainApi } = await connected()
    expect(blockchainApi.getBalances).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(BALANCE_CACHE_MS - 1)
    await client.refreshBalance()
    expect(blockchainApi.getBalances).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(1)
    await client.refreshBalance()
    expect(blockchainApi.getBalances).toHaveBeenCalledTimes(2)
  })

  it('force skips the cache, here and on the server (forceUpdate=true)', async () => {
    const { client, blockchainApi } = await connected()
    blockchainApi.getBalances.mockResolvedValueOnce([native, { ...sgl, quantity: { decimals: '18', numeric: '1100' } }])
    await client.refreshBalance(undefined, { force: true })
    expect(blockchainApi.getBalances).toHaveBeenCalledTimes(2)
    expect(blockchainApi.getBalances).toHaveBeenLastCalledWith(ADDRESS, { chainId: 'eip155:1', currency: 'usd', forceUpdate: true })
    expect(client.store.getState().chains.eip155?.account.tokenBalance[1]?.quantity.numeric).toBe('1100')
  })

  it("a failure says 'Token Balance Unavailable', then nothing is fetched for 30 s; after that it is", async () => {
    const blockchainApi = fakeBlockchainApi([native, sgl])
    blockchainApi.getBalances.mockRejectedValueOnce(new BlockchainApiError('All upstreams of eip155:1 are unavailable', 503, 'upstream_unavailable'))
    const { client } = testClient({}, { restore: false, blockchainApi })
    await client.connect('com.test')
    await client.refreshBalance()
    expect(blockchainApi.getBalances).toHaveBeenCalledTimes(1)
    const state = () => client.store.getState()
    expect(state().chains.eip155?.balanceStatus).toBe('failed')
    expect(state().notification).toEqual({ open: true, message: 'Token Balance Unavailable', variant: 'error' })

    // Within the lock: neither a refresh nor a forced one fetches.
    vi.advanceTimersByTime(10_000)
    await client.refreshBalance()
    await client.refreshBalance(undefined, { force: true })
    vi.advanceTimersByTime(BALANCE_RETRY_LOCK_MS - 10_000 - 1)
    await client.refreshBalance()
    expect(blockchainApi.getBalances).toHaveBeenCalledTimes(1)
    expect(state().chains.eip155?.balanceStatus).toBe('failed')

    // The lock is over: the next refresh fetches, and succeeds.
    vi.advanceTimersByTime(1)
    await client.refreshBalance()
    expect(blockchainApi.getBalances).toHaveBeenCalledTimes(2)
    expect(state().chains.eip155?.balanceStatus).toBe('ready')
    expect(state().chains.eip155?.account.tokenBalance).toEqual([native, sgl])
  })

  it('the lock is per chain and account: another network reads at once, the failed one stays locked', async () => {
    const blockchainApi = fakeBlockchainApi([native, sgl])
    blockchainApi.getBalances.mockRejectedValueOnce(new BlockchainApiError('All upstreams of eip155:1 are unavailable', 503, 'upstream_unavailable'))
    const { client } = testClient({}, { restore: false, blockchainApi })
    await client.connect('com.test')
    await client.refreshBalance()
    expect(client.store.getState().chains.eip155?.balanceStatus).toBe('failed')

    await client.switchNetwork(polygon)
    await client.refreshBalance()
    expect(blockchainApi.getBalances).toHaveBeenLastCalledWith(ADDRESS, expect.objectContaining({ chainId: 'eip155:137' }))
    expect(client.store.getState().chains.eip155?.balanceStatus).toBe('ready')

    // Back on the chain that failed, still within the 30 s: nothing is asked.
    const calls = blockchainApi.getBalances.mock.calls.length
    const [ethereum] = client.store.getState().networks
    await client.switchNetwork(ethereum as NonNullable<typeof ethereum>)
    await client.refreshBalance()
    expect(blockchainApi.getBalances).toHaveBeenCalledTimes(calls)
    expect(client.store.getState().chains.eip155?.balanceStatus).toBe('failed')
  })

  it('a new connection reads again, even within 30 s of a failure on another chain', async () => {
    const blockchainApi = fakeBlockchainApi([native, sgl])
    blockchainApi.getBalances.mockRejectedValueOnce(new TypeError('Failed to fetch'))
    const { client, fake } = testClient({}, { restore: false, blockchainApi })
    await client.connect('com.test')
    await client.refreshBalance()
    expect(client.store.getState().chains.eip155?.balanceStatus).toBe('failed')
    await client.disconnect()

    // The visitor comes back at once, the wallet now on Polygon: the balance is read, not left blank.
    vi.advanceTimersByTime(5_000)
    fake.state.chainId = 137
    await client.connect('com.test')
    await client.refreshBalance()
    expect(blockchainApi.getBalances).toHaveBeenCalledTimes(2)
    expect(blockchainApi.getBalances).toHaveBeenLastCalledWith(ADDRESS, expect.objectContaining({ chainId: 'eip155:137' }))
    expect(client.store.getState().chains.eip155).toMatchObject({ balanceStatus: 'ready', account: { balance: '1.23456789' } })

    // And the same chain and account after a disconnect: a new connection is a new start.
    blockchainApi.getBalances.mockRejectedValueOnce(new TypeError('Failed to fetch'))
    await client.refreshBalance(undefined, { force: true })
    expect(client.store.getState().chains.eip155?.balanceStatus).toBe('failed')
    await client.disconnect()
    await client.connect('com.test')
    await client.refreshBalance()
    expect(blockchainApi.getBalances).toHaveBeenCalledTimes(4)
    expect(client.store.getState().chains.eip155?.balanceStatus).toBe('ready')
  })

  it('a failure keeps the balances already shown', async () => {
    const { client, blockchainApi } = await connected()
    blockchainApi.getBalances.mockRejectedValueOnce(new TypeError('Failed to fetch'))
    await client.refreshBalance(undefined, { force: true })
    const chain = client.store.getState().chains.eip155
    expect(chain?.balanceStatus).toBe('failed')
    expect(chain?.account).toMatchObject({ balance: '1.23456789', tokenBalance: [native, sgl] })
  })

  it('a client module that failed to load counts as a failure too', async () => {
    const blockchainApi = fakeBlockchainApi()
    blockchainApi.getBalances.mockImplementationOnce(() => Promise.reject(new Error('Failed to fetch dynamically imported module')))
    const { client } = testClient({}, { restore: false, blockchainApi })
    await client.connect('com.test')
    await client.refreshBalance()
    expect(client.store.getState().notification.message).toBe('Token Balance Unavailable')
  })
})

describe('balances from a wallet with asset discovery (ERC-7811)', () => {
  const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
  const assets: WalletAsset[] = [
    { balance: 1_250_000_000_000_000_000n, decimals: 18, name: 'Ether', symbol: 'ETH' },
    { address: USDC, balance: 12_500_000n, decimals: 6, name: 'USD Coin', symbol: 'USDC' },
    { address: SGL, balance: 0n, decimals: 18, name: 'Sigil', symbol: 'SGL' },
  ]

  function walletClient(
    getAssets: (provider: unknown, address: string, network: { caipNetworkId: string }) => Promise<WalletAsset[] | undefined>,
    networks?: { chainId?: number },
  ) {
    const fake = fakeWallet(networks)
    const adapter = { ...fake.adapter, getAssets: vi.fn(getAssets) }
    const blockchainApi = fakeBlockchainApi([native])
    blockchainApi.getPrices.mockResolvedValue([
      { name: 'Ether', symbol: 'ETH', iconUrl: 'https://api.test/eth.png', price: 3000 },
      { name: 'USD Coin', symbol: 'USDC', iconUrl: 'https://api.test/usdc.png', price: 1 },
    ])
    const { client } = testClient({}, { restore: false, blockchainApi, adapters: [adapter], connectors: [fake.source] })
    return { client, adapter, blockchainApi, fake }
  }

  it("the wallet's assets are the balances, priced by the server; the balance service is not asked", async () => {
    const { client, adapter, blockchainApi, fake } = walletClient(async () => assets)
    await client.connect('com.test')
    await client.refreshBalance()
    // asked through the connected wallet's provider
    expect(adapter.getAssets).toHaveBeenCalledWith(fake.providers.get('eip155'), ADDRESS, expect.objectContaining({ caipNetworkId: 'eip155:1' }))
    expect(blockchainApi.getBalances).not.toHaveBeenCalled()
    // Only what is listed is priced: not the zero SGL balance.
    expect(blockchainApi.getPrices).toHaveBeenCalledWith(['eip155:1:native', `eip155:1:${USDC}`], { currency: 'usd' })
    const account = client.store.getState().chains.eip155?.account
    expect(account).toMatchObject({ balance: '1.25', balanceSymbol: 'ETH' })
    // The zero SGL balance is left out, as the server leaves it out.
    expect(account?.tokenBalance).toEqual([
      {
        name: 'Ether',
        symbol: 'ETH',
        chainId: 'eip155:1',
        price: 3000,
        value: 3750,
        quantity: { decimals: '18', numeric: '1.25' },
        iconUrl: 'https://api.test/eth.png',
      },
      {
        name: 'USD Coin',
        symbol: 'USDC',
        chainId: 'eip155:1',
        address: USDC,
        price: 1,
        value: 12.5,
        quantity: { decimals: '6', numeric: '12.5' },
        iconUrl: 'https://api.test/usdc.png',
      },
    ])
  })

  it('a wallet without asset discovery there (undefined) or failing: the balance service answers', async () => {
    for (const getAssets of [async () => undefined, async () => Promise.reject(new Error('wallet is locked'))]) {
      const { client, blockchainApi } = walletClient(getAssets)
      await client.connect('com.test')
      await client.refreshBalance()
      expect(blockchainApi.getBalances).toHaveBeenCalledTimes(1)
      expect(client.store.getState().chains.eip155?.account.tokenBalance).toEqual([native])
    }
  })

  it('no prices on a testnet, and unpriced (not failed) when the price call fails', async () => {
    const onDev = walletClient(async () => assets, { chainId: sigilDev().id as number })
    await onDev.client.connect('com.test')
    await onDev.client.refreshBalance()
    expect(onDev.blockchainApi.getPrices).not.toHaveBeenCalled()
    expect(onDev.client.store.getState().chains.eip155?.account.tokenBalance.map((t) => [t.chainId, t.price])).toEqual([
      ['eip155:31337', 0],
      ['eip155:31337', 0],
    ])

    const failing = walletClient(async () => assets)
    failing.blockchainApi.getPrices.mockRejectedValue(new BlockchainApiError('down', 503, 'upstream_unavailable'))
    await failing.client.connect('com.test')
    await failing.client.refreshBalance()
    expect(failing.client.store.getState().chains.eip155).toMatchObject({ balanceStatus: 'ready', account: { balance: '1.25' } })
    expect(failing.client.store.getState().notification.open).toBe(false)
  })
})
