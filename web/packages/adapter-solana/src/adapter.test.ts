import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSigil, type CaipNetwork, type SigilClient } from '@sigil/core'
import { ethereum, solana, solanaDevnet } from '@sigil/core/networks'
import { getWallets } from '@wallet-standard/app'
import type { Wallet, WalletAccount } from '@wallet-standard/base'
import { solanaAdapter } from './adapter.js'
import { isSolanaAddress } from './address.js'
import { decodeBase58, encodeBase58 } from './base58.js'
import { standardChain } from './chains.js'
import { solanaConnectors, walletStandardConnector } from './wallet-standard.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
})

const ADDRESS = 'So11111111111111111111111111111111111111112'
const OTHER = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
const local: CaipNetwork = { ...solanaDevnet, id: 'SigiLDevSoLanaRuntime11111111111', caipNetworkId: 'solana:SigiLDevSoLanaRuntime11111111111', name: 'Local' }

const account = (address: string, chains = ['solana:mainnet', 'solana:devnet', 'solana:localnet']): WalletAccount => ({
  address,
  publicKey: decodeBase58(address) as Uint8Array,
  chains: chains as WalletAccount['chains'],
  features: ['solana:signMessage'],
})

/** A Wallet Standard wallet whose answers tests script. */
function fakeWallet(options: { accounts?: WalletAccount[]; reject?: boolean; name?: string } = {}) {
  const listeners = new Set<(p: { accounts?: readonly WalletAccount[] }) => void>()
  const calls: { feature: string; input: unknown }[] = []
  let authorised: WalletAccount[] = []
  const wallet = {
    version: '1.0.0' as const,
    name: options.name ?? 'Fake Solana',
    icon: 'data:image/svg+xml,x' as const,
    chains: ['solana:mainnet', 'solana:devnet', 'solana:localnet'] as const,
    get accounts() {
      return authorised
    },
    features: {
      'standard:connect': {
        version: '1.0.0',
        connect: vi.fn(async (input?: { silent?: boolean }) => {
          calls.push({ feature: 'standard:connect', input })
          if (input?.silent) return { accounts: authorised }
          if (options.reject) throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
          authorised = options.accounts ?? [account(ADDRESS)]
          return { accounts: authorised }
        }),
      },
      'standard:disconnect': {
        version: '1.0.0',
        disconnect: vi.fn(async () => {
          authorised = []
        }),
      },
      'standard:events': {
        version: '1.0.0',
        on: (_e: 'change', l: (p: { accounts?: readonly WalletAccount[] }) => void) => {
          listeners.add(l)
          return () => listeners.delete(l)
        },
      },
      'solana:signMessage': {
        version: '1.0.0',
        signMessage: vi.fn(async (...inputs: { message: Uint8Array }[]) => {
          calls.push({ feature: 'solana:signMessage', input: inputs })
          return inputs.map(({ message }) => ({ signedMessage: message, signature: new Uint8Array(64).fill(7) }))
        }),
      },
      'solana:signAndSendTransaction': {
        version: '1.0.0',
        signAndSendTransaction: vi.fn(async (...inputs: { transaction: Uint8Array; chain: string }[]) => {
          calls.push({ feature: 'solana:signAndSendTransaction', input: inputs })
          return inputs.map(() => ({ signature: new Uint8Array(64).fill(1) }))
        }),
      },
    },
  }
  const change = (accounts: WalletAccount[]) => {
    authorised = accounts
    for (const l of [...listeners]) l({ accounts })
  }
  return { wallet: wallet as unknown as Wallet, calls, change }
}

describe('Solana addresses and base58', () => {
  it('accepts base58 addresses of 32 bytes and refuses the rest (spec section 5)', () => {
    expect(isSolanaAddress(ADDRESS)).toBe(true)
    expect(isSolanaAddress(OTHER)).toBe(true)
    expect(isSolanaAddress('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')).toBe(false)
    expect(isSolanaAddress('So1111111111111111111111111111111')).toBe(false)
    expect(isSolanaAddress(`${ADDRESS.slice(0, -1)}0`)).toBe(false)
    expect(isSolanaAddress('1'.repeat(45))).toBe(false)
  })

  it('round-trips bytes, leading zeros included', () => {
    const bytes = new Uint8Array([0, 0, 1, 2, 255, 128])
    expect(decodeBase58(encodeBase58(bytes))).toEqual(bytes)
    expect(encodeBase58(new Uint8Array(32))).toBe('11111111111111111111111111111111')
    expect(decodeBase58('0OIl')).toBeUndefined()
  })

  it('names the public clusters as wallets do, and any other cluster localnet', () => {
    expect(standardChain(solana)).toBe('solana:mainnet')
    expect(standardChain(solanaDevnet)).toBe('solana:devnet')
    expect(standardChain(local)).toBe('solana:localnet')
  })
})

describe('Wallet Standard connector', () => {
  const networks = [ethereum, local, solana]

  it('connects the Solana accounts on the first configured cluster the account supports', async () => {
    const { wallet } = fakeWallet({ accounts: [account(ADDRESS), account(OTHER)] })
    const connector = walletStandardConnector(wallet)
    expect(connector.info).toMatchObject({ id: 'wallet-standard:fake-solana', name: 'Fake Solana', chain: 'solana', type: 'ANNOUNCED' })
    const connection = await connector.connect({ namespaces: ['solana'], networks })
    expect(connection.accounts).toEqual([
      { namespace: 'solana', address: ADDRESS, type: 'eoa', chainId: local.id },
      { namespace: 'solana', address: OTHER, type: 'eoa', chainId: local.id },
    ])
    const provider = connector.getProvider('solana') as { address: string; chain: string }
    expect(provider.address).toBe(ADDRESS)
    expect(provider.chain).toBe('solana:localnet')
    expect(connector.getProvider('eip155')).toBeUndefined()
  })

  it('a declined prompt rejects with code 4001; no Solana account is NoAccountsError', async () => {
    await expect(walletStandardConnector(fakeWallet({ reject: true }).wallet).connect({ namespaces: ['solana'], networks })).rejects.toMatchObject({
      code: 4001,
    })
    const evmOnly = fakeWallet({ accounts: [account(ADDRESS, ['ethereum:1'])] })
    await expect(walletStandardConnector(evmOnly.wallet).connect({ namespaces: ['solana'], networks })).rejects.toMatchObject({
      name: 'NoAccountsError',
    })
  })

  it('reconnects silently, or not at all when the site is not authorised', async () => {
    const fake = fakeWallet()
    const connector = walletStandardConnector(fake.wallet)
    expect(await connector.reconnect({ namespaces: ['solana'], networks })).toBeUndefined()
    expect(fake.calls).toEqual([{ feature: 'standard:connect', input: { silent: true } }])
    await connector.connect({ namespaces: ['solana'], networks })
    expect((await connector.reconnect({ namespaces: ['solana'], networks }))?.accounts[0]?.address).toBe(ADDRESS)
  })

  it('turns wallet changes into account events, and no accounts into a disconnect', async () => {
    const fake = fakeWallet()
    const connector = walletStandardConnector(fake.wallet)
    const events: unknown[] = []
    connector.subscribe((e) => events.push(e))
    await connector.connect({ namespaces: ['solana'], networks })
    fake.change([account(OTHER)])
    expect((connector.getProvider('solana') as { address: string }).address).toBe(OTHER)
    fake.change([])
    expect(events).toEqual([
      { type: 'accountsChanged', namespace: 'solana', accounts: [OTHER] },
      { type: 'disconnect', namespace: 'solana' },
    ])
    expect(connector.getProvider('solana')).toBeUndefined()
  })

  it('signs and sends on the chain of the modal network, answering the base58 signature', async () => {
    const fake = fakeWallet()
    const connector = walletStandardConnector(fake.wallet)
    await connector.connect({ namespaces: ['solana'], networks })
    const provider = connector.getProvider('solana') as import('./provider.js').SolanaProvider
    const transaction = { messageBytes: new Uint8Array([1, 2, 3]), signatures: { [ADDRESS]: null } } as never
    expect(await provider.signAndSendTransaction(transaction)).toBe(encodeBase58(new Uint8Array(64).fill(1)))
    await solanaAdapter().switchNetwork?.(provider, solanaDevnet)
    await provider.signAndSendTransaction(transaction, { skipPreflight: true })
    const sent = fake.calls.filter((c) => c.feature === 'solana:signAndSendTransaction').map((c) => (c.input as { chain: string; options?: unknown }[])[0])
    expect(sent.map((s) => s?.chain)).toEqual(['solana:localnet', 'solana:devnet'])
    expect(sent[1]?.options).toEqual({ skipPreflight: true })
    // The wire transaction: one signature slot (empty), then the message.
    const first = fake.calls.find((c) => c.feature === 'solana:signAndSendTransaction')?.input as { transaction: Uint8Array }[] | undefined
    const wire = first?.[0]?.transaction
    expect(wire?.length).toBe(1 + 64 + 3)
    expect(Array.from(wire?.slice(-3) ?? [])).toEqual([1, 2, 3])
  })
})

describe('solana adapter through the core client', () => {
  function setup() {
    const fake = fakeWallet({ name: 'Registered Solana' })
    const unregister = getWallets().register(fake.wallet)
    cleanups.push(unregister)
    const getBalances = vi.fn(async () => [
      { name: 'Solana', symbol: 'SOL', chainId: local.caipNetworkId, price: 0, quantity: { decimals: '9', numeric: '10.5' }, iconUrl: '' },
    ])
    const client: SigilClient = createSigil(
      { projectId: 'p1', networks: [ethereum, local], apiUrl: 'https://api.test' },
      {
        adapters: [solanaAdapter()],
        connectors: [solanaConnectors()],
        restore: false,
        isMobile: () => false,
        blockchainApi: { getBalances, getIdentity: vi.fn(), getPrices: vi.fn(async () => []) } as never,
      },
    )
    cleanups.push(() => client.destroy())
    return { client, fake, getBalances }
  }

  it('lists the registered wallet, connects it as the solana namespace and reads its balance', async () => {
    const { client, getBalances } = setup()
    const connector = client.store.getState().connectors.find((c) => c.name === 'Registered Solana')
    expect(connector).toMatchObject({ id: 'wallet-standard:registered-solana', chain: 'solana' })
    await client.connect(connector?.id as string)
    const chain = client.store.getState().chains.solana
    expect(chain?.connectionStatus).toBe('connected')
    expect(chain?.account.address).toBe(ADDRESS)
    expect(chain?.account.caipAddress).toBe(`${local.caipNetworkId}:${ADDRESS}`)
    expect(chain?.account.allAccounts).toEqual([{ address: ADDRESS, type: 'eoa' }])
    expect(client.store.getState().activeNamespace).toBe('solana')
    await vi.waitFor(() => expect(client.store.getState().chains.solana?.account.balance).toBe('10.5'))
    expect(getBalances).toHaveBeenCalledWith(ADDRESS, expect.objectContaining({ chainId: local.caipNetworkId }))
  })

  it('signs sign-in text with the wallet and gives the signature in base58', async () => {
    const { client, fake } = setup()
    await client.connect('wallet-standard:registered-solana')
    expect(await client.signMessage('hello')).toBe(encodeBase58(new Uint8Array(64).fill(7)))
    const signed = fake.calls.find((c) => c.feature === 'solana:signMessage')?.input as { message: Uint8Array }[]
    expect(new TextDecoder().decode(signed[0]?.message)).toBe('hello')
    expect(await solanaAdapter().signInAccount?.(ADDRESS)).toEqual({ label: 'Solana', address: ADDRESS })
  })
})

describe('a Wallet Standard wallet handed over by a connector (WalletConnect)', () => {
  it('is wrapped in a Solana provider that signs through its features and follows its accounts; providers pass as they are', async () => {
    const { wallet, calls, change } = fakeWallet()
    change([account(ADDRESS)])
    const adapter = solanaAdapter()
    const provider = adapter.wrapProvider?.(wallet, { network: local, accounts: [] })
    expect(provider?.address).toBe(ADDRESS)
    expect(provider?.chain).toBe('solana:localnet')
    expect(await provider?.signMessage('hi')).toEqual(new Uint8Array(64).fill(7))
    expect(calls.at(-1)).toMatchObject({ feature: 'solana:signMessage', input: [{ account: { address: ADDRESS }, message: new TextEncoder().encode('hi') }] })
    change([account(OTHER)])
    expect(provider?.address).toBe(OTHER)
    expect(adapter.wrapProvider?.(provider, { network: local, accounts: [] })).toBeUndefined()
    expect(adapter.wrapProvider?.(undefined, { network: local, accounts: [] })).toBeUndefined()
  })
})
