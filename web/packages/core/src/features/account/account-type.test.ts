import { afterEach, describe, expect, it, vi } from 'vitest'
import { AUTH_CONNECTOR_ID } from '../../connectors/auth.js'
import { createSigil, type SigilClient } from '../../client.js'
import type { Connection } from '../../connectors/types.js'
import { sigilDev, solana } from '../../networks.js'
import { fakeAuthConnector, fakeBlockchainApi, fakeWallet, MemoryStorage, testOptions } from '../../test-utils/index.js'
import {
  accountTypeOf,
  AccountTypeUnavailableError,
  canSwitchAccountType,
  DEFAULT_ACCOUNT_TYPES,
  PREFERRED_ACCOUNT_TYPES_KEY,
  setPreferredAccountType,
} from './account-type.js'

const ADDRESS = '0x1111111111111111111111111111111111111111'
const clients: SigilClient[] = []
afterEach(() => {
  for (const c of clients.splice(0)) c.destroy()
})

/** The embedded wallet connected on 31337 (a smart-account network when `enabled` says so). */
async function embedded(overrides: Parameters<typeof fakeAuthConnector>[0] = {}, enabled: number[] = [31337]) {
  const { auth, source } = fakeAuthConnector({
    connect: vi.fn(
      async (): Promise<Connection> => ({
        connectorId: AUTH_CONNECTOR_ID,
        accounts: [{ namespace: 'eip155', address: ADDRESS, type: 'eoa', chainId: 31337 }],
        smartAccountEnabledNetworks: enabled,
      }),
    ),
    ...overrides,
  })
  const storage = new MemoryStorage()
  const client = createSigil(testOptions({ networks: [sigilDev(), solana] }), {
    adapters: [fakeWallet().adapter],
    connectors: [source],
    storage,
    isMobile: () => false,
    blockchainApi: fakeBlockchainApi(),
    reconnectTimeoutMs: 0,
  })
  clients.push(client)
  await client.connect(AUTH_CONNECTOR_ID)
  return { client, auth, storage }
}

describe('preferred account type', () => {
  it('the embedded login fills the smart-account networks; the switch is offered on one of them', async () => {
    const { client } = await embedded()
    expect(client.store.getState().chains.eip155?.network.smartAccountEnabledNetworks).toEqual([31337])
    expect(canSwitchAccountType(client)).toBe(true)
    // The account the frame gave is an EOA: that is its type until the user prefers another.
    expect(accountTypeOf(client.store.getState(), 'eip155')).toBe('eoa')
    const elsewhere = await embedded({}, [1])
    expect(canSwitchAccountType(elsewhere.client)).toBe(false)
  })

  it('asks the frame, keeps the choice in state and storage, and the address stays', async () => {
    const setPreferred = vi.fn(async (type: 'eoa' | 'smartAccount' | 'payment') => ({ type, address: ADDRESS }))
    const { client, storage } = await embedded({ setPreferredAccountType: setPreferred })
    const result = await setPreferredAccountType(client.context, { namespace: 'eip155', type: 'smartAccount' })
    expect(setPreferred).toHaveBeenCalledWith('smartAccount')
    expect(result).toEqual({ type: 'smartAccount', address: ADDRESS })
    const account = client.store.getState().chains.eip155?.account
    expect(account?.address).toBe(ADDRESS)
    expect(account?.preferredAccountTypes).toEqual({ eip155: 'smartAccount' })
    expect(account?.allAccounts).toEqual([{ address: ADDRESS, type: 'smartAccount' }])
    expect(accountTypeOf(client.store.getState(), 'eip155')).toBe('smartAccount')
    expect(JSON.parse(storage.getItem(PREFERRED_ACCOUNT_TYPES_KEY) ?? '{}')).toEqual({ eip155: 'smartAccount' })
  })

  it('where the frame keeps the EOA (no smart account on the chain), the EOA is what is kept', async () => {
    const { client, storage } = await embedded({ setPreferredAccountType: vi.fn(async () => ({ type: 'eoa' as const, address: ADDRESS })) })
    expect(await setPreferredAccountType(client.context, { namespace: 'eip155', type: 'smartAccount' })).toEqual({ type: 'eoa', address: ADDRESS })
    expect(accountTypeOf(client.store.getState(), 'eip155')).toBe('eoa')
    expect(JSON.parse(storage.getItem(PREFERRED_ACCOUNT_TYPES_KEY) ?? '{}')).toEqual({ eip155: 'eoa' })
  })

  it('an embedded wallet whose frame cannot switch: a typed error, nothing kept', async () => {
    const { client, storage } = await embedded({ setPreferredAccountType: vi.fn(async () => undefined) })
    await expect(setPreferredAccountType(client.context, { namespace: 'eip155', type: 'eoa' })).rejects.toBeInstanceOf(AccountTypeUnavailableError)
    expect(storage.getItem(PREFERRED_ACCOUNT_TYPES_KEY)).toBeNull()
    expect(client.store.getState().chains.eip155?.account.preferredAccountTypes).toEqual({})
  })

  it('each namespace has its default until one is preferred (eip155 smart account, bip122 payment, others EOA)', () => {
    expect(DEFAULT_ACCOUNT_TYPES).toMatchObject({ eip155: 'smartAccount', bip122: 'payment', solana: 'eoa', polkadot: 'eoa' })
  })
})
