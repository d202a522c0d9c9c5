import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { IDENTITY_CACHE_MS, StorageKeys } from '../../storage.js'
import { fakeBlockchainApi, MemoryStorage, testClient } from '../../test-utils/index.js'
import { solana } from '../../networks.js'

const ADDRESS = '0x1111111111111111111111111111111111111111'
const AVATAR = 'data:image/svg+xml;base64,PHN2Zy8+'

describe('identity (ENS name and avatar)', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'))
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  const account = (client: ReturnType<typeof testClient>['client']) => client.store.getState().chains.eip155?.account

  it('is fetched after connect, with the account as sender, into profileName and profileImage', async () => {
    const blockchainApi = fakeBlockchainApi(undefined, { name: 'alice.eth', avatar: AVATAR })
    const { client } = testClient({}, { restore: false, blockchainApi })
    await client.connect('com.test')
    await vi.waitFor(() => expect(account(client)?.profileName).toBe('alice.eth'))
    expect(account(client)?.profileImage).toBe(AVATAR)
    expect(blockchainApi.getIdentity).toHaveBeenCalledWith(ADDRESS, { sender: ADDRESS })
  })

  it('null name and avatar leave the fields undefined', async () => {
    const blockchainApi = fakeBlockchainApi(undefined, { name: null, avatar: null })
    const { client } = testClient({}, { restore: false, blockchainApi })
    await client.connect('com.test')
    await vi.waitFor(() => expect(blockchainApi.getIdentity).toHaveBeenCalled())
    expect(account(client)).toMatchObject({ profileName: undefined, profileImage: undefined })
  })

  it('is kept 5 minutes in browser storage under @appkit/identity_cache: a reload within them asks nothing', async () => {
    const storage = new MemoryStorage()
    const first = fakeBlockchainApi(undefined, { name: 'alice.eth', avatar: null })
    const one = testClient({}, { restore: false, storage, blockchainApi: first })
    await one.client.connect('com.test')
    await vi.waitFor(() => expect(account(one.client)?.profileName).toBe('alice.eth'))
    const stored = JSON.parse(storage.getItem(StorageKeys.identityCache) ?? '{}')
    expect(stored).toEqual({ [ADDRESS]: { name: 'alice.eth', avatar: null, timestamp: expect.any(Number) } })
    const storedAt = stored[ADDRESS].timestamp as number

    // Another page load 5 minutes less 1 ms later: from storage.
    vi.setSystemTime(storedAt + IDENTITY_CACHE_MS - 1)
    const second = fakeBlockchainApi(undefined, { name: 'renamed.eth', avatar: null })
    const two = testClient({}, { storage, blockchainApi: second })
    await two.client.ready
    expect(account(two.client)?.profileName).toBe('alice.eth')
    expect(second.getIdentity).not.toHaveBeenCalled()

    // Past 5 minutes: asked again.
    vi.setSystemTime(storedAt + IDENTITY_CACHE_MS)
    const three = testClient({}, { storage, blockchainApi: second })
    await three.client.ready
    await vi.waitFor(() => expect(account(three.client)?.profileName).toBe('renamed.eth'))
    expect(second.getIdentity).toHaveBeenCalledTimes(1)
  })

  it('a new account drops the old name and fetches its own', async () => {
    const blockchainApi = fakeBlockchainApi(undefined, { name: 'alice.eth', avatar: AVATAR })
    const { client, fake } = testClient({}, { restore: false, blockchainApi })
    await client.connect('com.test')
    await vi.waitFor(() => expect(account(client)?.profileName).toBe('alice.eth'))
    blockchainApi.getIdentity.mockResolvedValueOnce({ name: null, avatar: null })
    fake.events().accountChanged('0x2222222222222222222222222222222222222222')
    expect(account(client)?.profileName).toBeUndefined()
    await vi.waitFor(() => expect(blockchainApi.getIdentity).toHaveBeenCalledTimes(2))
    expect(account(client)).toMatchObject({ profileName: undefined, profileImage: undefined })
  })

  it('a failure is quiet: no name, no banner, nothing stored', async () => {
    const blockchainApi = fakeBlockchainApi()
    blockchainApi.getIdentity.mockRejectedValueOnce(new Error('Not Found'))
    const { client, storage } = testClient({}, { restore: false, blockchainApi })
    await client.connect('com.test')
    await vi.waitFor(() => expect(blockchainApi.getIdentity).toHaveBeenCalled())
    await client.refreshBalance()
    expect(account(client)?.profileName).toBeUndefined()
    expect(client.store.getState().notification.open).toBe(false)
    expect(storage.getItem(StorageKeys.identityCache)).toBeNull()
  })

  it('is not asked on the unsupported-network placeholder, nor for other namespaces', async () => {
    const blockchainApi = fakeBlockchainApi()
    const { client, fake } = testClient({}, { restore: false, blockchainApi })
    fake.state.chainId = 10
    await client.connect('com.test')
    await client.switchNetwork(solana)
    await client.refreshBalance()
    expect(blockchainApi.getIdentity).not.toHaveBeenCalled()
  })
})
