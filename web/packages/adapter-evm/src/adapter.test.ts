import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSigil, StorageKeys, type SigilClient } from '@sigil/core'
import { injectedConnectors } from './injected.js'
import { arbitrum, ethereum, sigilDev } from '@sigil/core/networks'
import { ACCOUNT, announce, FakeProvider } from '../../core/src/test-utils/fake-provider.js'
import { evmAdapter } from './adapter.js'
import { toChecksumAddress } from './checksum.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
  localStorage.clear()
})

const dev = sigilDev()

function setup(opts: { storage?: Map<string, string>; legacy?: boolean; announce?: boolean; wallet?: FakeProvider } = {}) {
  const wallet = opts.wallet ?? new FakeProvider()
  let unannounce = () => {}
  if (opts.announce !== false) {
    unannounce = announce(wallet, { name: 'Test Wallet', rdns: 'com.test', icon: 'data:image/svg+xml,x' })
    cleanups.push(unannounce)
  }
  // Balances come from the Sigil server, faked here, unless the wallet lists its assets (assets.test.ts).
  const getBalances = vi.fn(async () => [
    { name: 'Ether', symbol: 'ETH', chainId: 'eip155:1', price: 0, quantity: { decimals: '18', numeric: '10000.0' }, iconUrl: '' },
  ])
  const blockchainApi = { getBalances, getIdentity: vi.fn(async () => ({ name: null, avatar: null })), getPrices: vi.fn(async () => []) }
  const adapter = evmAdapter()
  const data = opts.storage ?? new Map<string, string>()
  const storage = {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  }
  const client: SigilClient = createSigil(
    { projectId: 'p1', networks: [ethereum, arbitrum, dev], apiUrl: 'https://api.test' },
    {
      adapters: [adapter],
      connectors: [injectedConnectors({ window: opts.legacy ? { ethereum: wallet } : {} })],
      reconnectTimeoutMs: 50,
      storage,
      isMobile: () => false,
      blockchainApi,
    },
  )
  cleanups.push(() => client.destroy())
  return { wallet, adapter, client, data, getBalances, unannounce }
}

const eip155 = (client: SigilClient) => client.store.getState().chains.eip155
/** The wallet's calls less the capability query each balance refresh may make on a new chain. */
const nonBalanceCalls = (wallet: FakeProvider) => wallet.calls.filter((c) => c.method !== 'wallet_getCapabilities')
const nonBalanceMethods = (wallet: FakeProvider) => nonBalanceCalls(wallet).map((c) => c.method)

describe('evm adapter with the injected connectors, through the core client', () => {
  it('announced wallets become connectors', () => {
    const { client } = setup()
    expect(client.store.getState().connectors).toEqual([
      { id: 'com.test', name: 'Test Wallet', imageUrl: 'data:image/svg+xml,x', rdns: 'com.test', chain: 'eip155', namespaces: ['eip155'], type: 'ANNOUNCED' },
    ])
  })

  it('connects: eth_requestAccounts then eth_chainId; account, network and balance land in the store', async () => {
    const { client, wallet, getBalances } = setup()
    await client.connect('com.test')
    expect(wallet.methods().slice(0, 2)).toEqual(['eth_requestAccounts', 'eth_chainId'])
    expect(eip155(client)?.connectionStatus).toBe('connected')
    expect(eip155(client)?.account).toMatchObject({
      address: ACCOUNT,
      caipAddress: `eip155:1:${ACCOUNT}`,
      connectedWalletInfo: { name: 'Test Wallet', icon: 'data:image/svg+xml,x', rdns: 'com.test' },
    })
    await vi.waitFor(() => expect(eip155(client)?.account.balance).toBe('10000.0'))
    expect(getBalances).toHaveBeenCalledWith(ACCOUNT, { chainId: 'eip155:1', currency: 'usd', forceUpdate: false })
    // the wallet is asked only whether it lists assets itself (this one does not know the method)
    expect(wallet.methods()).toEqual(['eth_requestAccounts', 'eth_chainId', 'wallet_getCapabilities'])
  })

  it("a wallet with asset discovery: balances are the wallet's own list, and the balance service is not asked", async () => {
    const wallet = new FakeProvider()
    wallet.handlers.set('wallet_getCapabilities', () => ({ '0x1': { assetDiscovery: { supported: true } } }))
    wallet.handlers.set('wallet_getAssets', () => ({
      '0x1': [{ address: 'native', balance: '0x1bc16d674ec80000', type: 'native', metadata: { decimals: 18, name: 'Ether', symbol: 'ETH' } }],
    }))
    const { client, getBalances } = setup({ wallet })
    await client.connect('com.test')
    await vi.waitFor(() => expect(eip155(client)?.account.balance).toBe('2'))
    expect(getBalances).not.toHaveBeenCalled()
  })

  it('connects through the legacy window.ethereum', async () => {
    const { client } = setup({ legacy: true, announce: false })
    expect(client.store.getState().connectors.map((c) => c.id)).toEqual(['injected'])
    await client.connect('injected')
    expect(eip155(client)?.account.address).toBe(ACCOUNT)
  })

  it('a user rejection maps to 4001 "User rejected the request."', async () => {
    const { client, wallet } = setup()
    wallet.handlers.set('eth_requestAccounts', () => {
      throw Object.assign(new Error('User denied account authorization'), { code: 4001 })
    })
    await expect(client.connect('com.test')).rejects.toMatchObject({ code: 4001, message: 'User rejected the request.' })
    expect(eip155(client)?.connectionStatus).toBe('disconnected')
  })

  it('wallet events flow into the controllers', async () => {
    const { client, wallet } = setup()
    await client.connect('com.test')
    const other = '0x2222222222222222222222222222222222222222'
    wallet.emit('accountsChanged', [other])
    expect(eip155(client)?.account.address).toBe(other)
    wallet.emit('chainChanged', '0xa4b1')
    expect(client.store.getState().activeCaipNetwork).toBe(arbitrum)
    wallet.emit('chainChanged', '0x38')
    expect(client.store.getState().activeCaipNetwork.caipNetworkId).toBe('eip155:56')
    expect(client.store.getState().router.history.at(-1)?.view).toBe('UnsupportedChain')
    wallet.emit('accountsChanged', [])
    expect(eip155(client)?.connectionStatus).toBe('disconnected')
  })

  it('the wallet disconnect event clears the connection and stops listening', async () => {
    const { client, wallet } = setup()
    await client.connect('com.test')
    expect(wallet.listenerCount('chainChanged')).toBe(1)
    wallet.emit('disconnect', { code: 4900 })
    expect(eip155(client)?.connectionStatus).toBe('disconnected')
    expect(wallet.listenerCount('chainChanged')).toBe(0)
  })

  it('switches with wallet_switchEthereumChain', async () => {
    const { client, wallet } = setup()
    await client.connect('com.test')
    await client.switchNetwork(arbitrum)
    expect(nonBalanceCalls(wallet).at(-1)).toEqual({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa4b1' }] })
    expect(wallet.chainId).toBe(42161)
    expect(client.store.getState().activeCaipNetwork).toBe(arbitrum)
  })

  it('adds the chain when the wallet answers 4902, then switches', async () => {
    const { client, wallet } = setup()
    await client.connect('com.test')
    wallet.calls.length = 0
    await client.switchNetwork(dev)
    expect(nonBalanceMethods(wallet)).toEqual(['wallet_switchEthereumChain', 'wallet_addEthereumChain', 'eth_chainId', 'wallet_switchEthereumChain'])
    expect(nonBalanceCalls(wallet)[1]?.params).toEqual([
      {
        chainId: '0x7a69',
        chainName: 'Sigil Dev',
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: ['http://127.0.0.1:8545'],
      },
    ])
    expect(client.store.getState().activeCaipNetwork).toBe(dev)
  })

  it('no second switch when adding already switched', async () => {
    const { client, wallet } = setup()
    await client.connect('com.test')
    wallet.handlers.set('wallet_addEthereumChain', (params) => {
      wallet.knownChains.add(31337)
      wallet.setChain(parseInt((params as [{ chainId: string }])[0].chainId, 16))
      return null
    })
    wallet.calls.length = 0
    await client.switchNetwork(dev)
    expect(nonBalanceMethods(wallet)).toEqual(['wallet_switchEthereumChain', 'wallet_addEthereumChain', 'eth_chainId'])
  })

  it('a rejected switch keeps the network and throws 4001', async () => {
    const { client, wallet } = setup()
    await client.connect('com.test')
    wallet.handlers.set('wallet_switchEthereumChain', () => {
      throw { code: 4001, message: 'User rejected' }
    })
    await expect(client.switchNetwork(arbitrum)).rejects.toMatchObject({ code: 4001, message: 'User rejected the request.' })
    expect(client.store.getState().activeCaipNetwork).toBe(ethereum)
  })

  it('a rejected add-chain throws 4001; any other add failure is "Chain is not supported"', async () => {
    const { client, wallet } = setup()
    await client.connect('com.test')
    wallet.handlers.set('wallet_addEthereumChain', () => {
      throw { code: 4001 }
    })
    await expect(client.switchNetwork(dev)).rejects.toMatchObject({ code: 4001, message: 'User rejected the request.' })
    wallet.handlers.set('wallet_addEthereumChain', () => {
      throw { code: -32602, message: 'bad rpc' }
    })
    await expect(client.switchNetwork(dev)).rejects.toMatchObject({ message: 'Chain is not supported' })
    expect(client.store.getState().activeCaipNetwork).toBe(ethereum)
  })

  it('a 4902 nested in data.originalError also triggers add-chain', async () => {
    const { client, wallet } = setup()
    await client.connect('com.test')
    wallet.handlers.set('wallet_switchEthereumChain', (params) => {
      const id = parseInt((params as [{ chainId: string }])[0].chainId, 16)
      if (!wallet.knownChains.has(id)) throw { code: -32603, data: { originalError: { code: 4902 } } }
      wallet.setChain(id)
      return null
    })
    await client.switchNetwork(dev)
    expect(wallet.methods()).toContain('wallet_addEthereumChain')
    expect(client.store.getState().activeCaipNetwork).toBe(dev)
  })

  it('signs with personal_sign over the hex-encoded message', async () => {
    const { client, wallet } = setup()
    await client.connect('com.test')
    const signature = await client.signMessage('héllo')
    expect(signature).toBe(`0x${'ab'.repeat(65)}`)
    expect(wallet.calls.at(-1)).toEqual({ method: 'personal_sign', params: ['0x68c3a96c6c6f', ACCOUNT] })
    wallet.handlers.set('personal_sign', () => {
      throw { code: 4001 }
    })
    await expect(client.signMessage('x')).rejects.toThrow('User rejected the request.')
  })

  it('disconnect revokes permissions where supported and stops listening', async () => {
    const { client, wallet, data } = setup()
    await client.connect('com.test')
    await client.disconnect()
    expect(wallet.methods()).toContain('wallet_revokePermissions')
    expect(wallet.listenerCount('accountsChanged')).toBe(0)
    expect(data.get(StorageKeys.connectionStatus('eip155'))).toBe('disconnected')
    wallet.handlers.set('wallet_revokePermissions', () => {
      throw { code: 4200 }
    })
    await client.connect('com.test')
    await expect(client.disconnect()).resolves.toBeUndefined()
  })

  it('reconnects on reload with eth_accounts, without prompting', async () => {
    const first = setup()
    await first.client.connect('com.test')
    first.client.destroy()
    first.wallet.calls.length = 0
    const again = setup({ storage: first.data, wallet: first.wallet, announce: false })
    expect(eip155(again.client)?.connectionStatus).toBe('connecting')
    await again.client.ready
    expect(nonBalanceMethods(again.wallet)).toEqual(['eth_accounts', 'eth_chainId'])
    expect(eip155(again.client)?.connectionStatus).toBe('connected')
    expect(eip155(again.client)?.account.address).toBe(ACCOUNT)
  })

  it('reload when the wallet no longer authorises the site ends disconnected', async () => {
    const first = setup()
    await first.client.connect('com.test')
    first.client.destroy()
    first.wallet.authorised = false
    first.wallet.calls.length = 0
    const again = setup({ storage: first.data, wallet: first.wallet, announce: false })
    await again.client.ready
    expect(again.wallet.methods()).toEqual(['eth_accounts'])
    expect(eip155(again.client)?.connectionStatus).toBe('disconnected')
  })

  it('reload waits briefly for a wallet that announces late', async () => {
    const first = setup()
    await first.client.connect('com.test')
    first.client.destroy()
    first.unannounce()
    const again = setup({ storage: first.data, wallet: first.wallet, announce: false })
    expect(again.client.store.getState().connectors).toEqual([])
    setTimeout(() => cleanups.push(announce(again.wallet, { name: 'Test Wallet', rdns: 'com.test' })), 10)
    await again.client.ready
    expect(eip155(again.client)?.connectionStatus).toBe('connected')
  })
})

describe('eip155 rules', () => {
  it('addresses: 40 hex characters with or without 0x', () => {
    const { isAddress } = evmAdapter()
    expect(isAddress?.(ACCOUNT)).toBe(true)
    expect(isAddress?.(ACCOUNT.slice(2))).toBe(true)
    expect(isAddress?.(ACCOUNT.slice(0, -1))).toBe(false)
    expect(isAddress?.(`0x${'g'.repeat(40)}`)).toBe(false)
    expect(isAddress?.('7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV')).toBe(false)
  })

  it('checksums addresses (EIP-55 vectors) and names the chain Ethereum in sign-in messages', async () => {
    expect(toChecksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')
    expect(toChecksumAddress('FB6916095CA1DF60BB79CE92CE3EA74C37C5D359')).toBe('0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359')
    expect(await evmAdapter().signInAccount?.('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toEqual({
      label: 'Ethereum',
      address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    })
  })

  it('names come from the Sigil server with the account as sender', async () => {
    const api = { getIdentity: vi.fn(async () => ({ name: 'alice.eth', avatar: null })), getBalances: vi.fn(), getPrices: vi.fn() }
    expect(await evmAdapter().getIdentity?.(ACCOUNT, api)).toEqual({ name: 'alice.eth', avatar: null })
    expect(api.getIdentity).toHaveBeenCalledWith(ACCOUNT, { sender: ACCOUNT })
  })
})

describe('evm adapter: how addresses are shown', () => {
  it('writes them with the EIP-55 checksum', async () => {
    expect(await evmAdapter().displayAddress?.('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
  })
})
