import { afterEach, describe, expect, it, vi } from 'vitest'
import { canSend, createSigil, type CaipNetwork, type SigilClient } from '@sigil/core'
import { bitcoin, ethereum } from '@sigil/core/networks'
import type { Wallet } from '@wallet-standard/base'
import { bitcoinAdapter } from './adapter.js'
import { addressNetwork, addressType, BITCOIN_REGTEST, isBitcoinAddress } from './address.js'
import { unisatBackend, walletStandardBitcoinBackend, type UnisatApi } from './backends.js'
import { bitcoinConnector } from './connector.js'
import type { BitcoinProvider } from './provider.js'
import { bitcoinConnectors } from './sources.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
})

const PAYMENT = 'bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080'
const ORDINALS = 'bcrt1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqc8gma6'
const MAINNET = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'
const regtest: CaipNetwork = { ...bitcoin, id: BITCOIN_REGTEST, caipNetworkId: `bip122:${BITCOIN_REGTEST}`, name: 'Regtest', testnet: true }

describe('Bitcoin addresses', () => {
  it('accepts bech32 and base58 forms and tells their network and kind', () => {
    for (const a of [
      PAYMENT,
      ORDINALS,
      MAINNET,
      '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2',
      '3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy',
      'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx',
    ]) {
      expect(isBitcoinAddress(a)).toBe(true)
    }
    for (const a of ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', 'So11111111111111111111111111111111111111112', 'bc1QAR0SRRR', 'bc1qb']) {
      expect(isBitcoinAddress(a)).toBe(false)
    }
    expect(addressNetwork(PAYMENT)).toBe('regtest')
    expect(addressNetwork(MAINNET)).toBe('mainnet')
    expect(addressNetwork('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx')).toBe('testnet')
    expect(addressType(PAYMENT)).toBe('p2wpkh')
    expect(addressType(ORDINALS)).toBe('p2tr')
    expect(addressType('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toBe('p2sh')
  })
})

/** A sats-connect provider in the page, answering JSON-RPC as wallets do. */
function satsProvider(options: { reject?: boolean; methods?: string[] } = {}) {
  const calls: { method: string; params: unknown }[] = []
  let authorised = false
  const ok = (result: unknown) => ({ jsonrpc: '2.0', id: '1', result })
  const err = (code: number, message: string) => ({ jsonrpc: '2.0', id: '1', error: { code, message } })
  const addresses = [
    { address: ORDINALS, publicKey: 'aa', purpose: 'ordinals', addressType: 'p2tr' },
    { address: PAYMENT, publicKey: 'bb', purpose: 'payment', addressType: 'p2wpkh' },
  ]
  const provider = {
    request: vi.fn(async (method: string, params: unknown) => {
      calls.push({ method, params })
      if (method === 'getInfo') return ok({ version: '1.5.0', platform: 'web', methods: [], supports: [] })
      if (method === 'getAccounts') {
        if (options.reject) return err(-32000, 'User rejected the request.')
        authorised = true
        return ok(addresses)
      }
      if (method === 'wallet_getAccount') return authorised ? ok({ addresses }) : err(-32002, 'Access denied')
      if (method === 'signMessage') return ok({ signature: `sig:${(params as { protocol: string }).protocol}` })
      if (method === 'signPsbt') return ok({ psbt: 'signed', txid: 'ab'.repeat(32) })
      if (method === 'sendTransfer') return ok({ txid: 'cd'.repeat(32) })
      if (method === 'wallet_renouncePermissions') return ok(null)
      return err(-32601, 'Method not found')
    }),
    addListener: vi.fn(() => () => {}),
  }
  const id = `FakeBtc${Math.random().toString(36).slice(2)}`
  const w = window as unknown as Record<string, unknown>
  w[id] = provider
  w.btc_providers = [{ id, name: 'Fake Xverse', icon: 'data:image/svg+xml,x', ...(options.methods ? { methods: options.methods } : {}) }]
  cleanups.push(() => {
    delete w[id]
    delete w.btc_providers
  })
  return { id, provider, calls }
}

function setup(networks: CaipNetwork[] = [ethereum, regtest, bitcoin]) {
  const client: SigilClient = createSigil(
    { projectId: 'p1', networks, apiUrl: 'https://api.test' },
    {
      adapters: [bitcoinAdapter()],
      connectors: [bitcoinConnectors({ walletStandard: false })],
      restore: false,
      isMobile: () => false,
      blockchainApi: { getBalances: vi.fn(async () => []), getIdentity: vi.fn(), getPrices: vi.fn(async () => []) } as never,
    },
  )
  cleanups.push(() => client.destroy())
  return client
}

describe('sats-connect wallets through the core client', () => {
  it('connects payment and ordinals addresses, payment first, on the network of the address', async () => {
    const { id, calls } = satsProvider()
    const client = setup()
    const connector = client.store.getState().connectors.find((c) => c.name === 'Fake Xverse')
    expect(connector).toMatchObject({ id: `sats-connect:${id}`, chain: 'bip122' })
    await client.connect(`sats-connect:${id}`)
    const chain = client.store.getState().chains.bip122
    expect(chain?.account.address).toBe(PAYMENT)
    expect(chain?.account.allAccounts).toEqual([
      { address: PAYMENT, type: 'payment' },
      { address: ORDINALS, type: 'ordinal' },
    ])
    expect(chain?.network.caipNetwork?.caipNetworkId).toBe(regtest.caipNetworkId)
    expect(calls.find((c) => c.method === 'getAccounts')?.params).toEqual({ purposes: ['payment', 'ordinals'] })
  })

  it('signs sign-in messages with BIP-322 by default, ECDSA on request, and PSBTs', async () => {
    const { id, calls } = satsProvider()
    const client = setup()
    await client.connect(`sats-connect:${id}`)
    expect(await client.signMessage('hello')).toBe('sig:BIP322')
    expect(calls.find((c) => c.method === 'signMessage')?.params).toEqual({ address: PAYMENT, message: 'hello', protocol: 'BIP322' })
    const provider = client.getProvider('bip122') as BitcoinProvider
    expect(await provider.signMessage({ address: PAYMENT, message: 'x', protocol: 'ecdsa' })).toBe('sig:ECDSA')
    await expect(provider.signMessage({ address: MAINNET, message: 'x' })).rejects.toThrow(/not an account/)
    expect(await provider.signPsbt({ psbt: 'cHNidP8=', signInputs: { [PAYMENT]: [0] }, broadcast: true })).toEqual({ psbt: 'signed', txid: 'ab'.repeat(32) })
    expect(await bitcoinAdapter({ signInProtocol: 'ecdsa' }).signMessage?.(provider, 'y', PAYMENT)).toBe('sig:ECDSA')
  })

  it("sends bitcoin through the wallet's own sendTransfer (the wallet picks inputs and fee); a wallet without it is offered no send", async () => {
    const { id, calls } = satsProvider()
    const client = setup()
    // No Bitcoin wallet connected yet: nothing to send with (and no throw: the Account view asks).
    expect(canSend(client, 'bip122')).toBe(false)
    await client.connect(`sats-connect:${id}`)
    expect(canSend(client, 'bip122')).toBe(true)
    const provider = client.getProvider('bip122') as BitcoinProvider
    const adapter = bitcoinAdapter()
    expect(await adapter.sendTransfer?.(provider, { from: PAYMENT, to: MAINNET, amount: 12_345n, network: regtest })).toBe('cd'.repeat(32))
    expect(calls.find((c) => c.method === 'sendTransfer')?.params).toEqual({ recipients: [{ address: MAINNET, amount: 12_345 }] })
    // No tokens on Bitcoin here.
    expect(() => adapter.sendTransfer?.(provider, { from: PAYMENT, to: MAINNET, amount: 1n, token: { address: 'x', decimals: 0 }, network: regtest })).toThrow(
      'Unsupported chain',
    )
    await client.disconnect()

    const listed = satsProvider({ methods: ['getAccounts', 'signMessage', 'signPsbt'] })
    const other = setup()
    await other.connect(`sats-connect:${listed.id}`)
    expect(canSend(other, 'bip122')).toBe(false)
  })

  it("maps the wallet's rejection to code 4001 and leaves bip122 disconnected", async () => {
    const { id } = satsProvider({ reject: true })
    const client = setup()
    await expect(client.connect(`sats-connect:${id}`)).rejects.toMatchObject({ code: 4001 })
    expect(client.store.getState().chains.bip122?.connectionStatus).toBe('disconnected')
  })
})

describe('Unisat and Wallet Standard backends', () => {
  it('Unisat: one payment address with its key; messages bip322-simple or ecdsa; PSBT as hex', async () => {
    const unisat: UnisatApi = {
      requestAccounts: vi.fn(async () => [PAYMENT]),
      getAccounts: vi.fn(async () => []),
      getPublicKey: vi.fn(async () => '02ab'),
      signMessage: vi.fn(async (_m: string, type?: string) => `u:${type}`),
      signPsbt: vi.fn(async (hex: string) => `${hex}ff`),
    }
    const connector = bitcoinConnector(unisatBackend(unisat))
    expect(await connector.reconnect({ namespaces: ['bip122'], networks: [regtest] })).toBeUndefined()
    const connection = await connector.connect({ namespaces: ['bip122'], networks: [regtest] })
    expect(connection.accounts).toEqual([{ namespace: 'bip122', address: PAYMENT, type: 'payment', chainId: BITCOIN_REGTEST }])
    const provider = connector.getProvider('bip122') as BitcoinProvider
    expect(provider.accounts[0]).toEqual({ address: PAYMENT, purpose: 'payment', publicKey: '02ab', addressType: 'p2wpkh' })
    expect(await provider.signMessage({ address: PAYMENT, message: 'm' })).toBe('u:bip322-simple')
    expect(await provider.signMessage({ address: PAYMENT, message: 'm', protocol: 'ecdsa' })).toBe('u:ecdsa')
    // base64 'AAE=' is the bytes 00 01: the wallet gets hex and its hex answer comes back as base64.
    expect(await provider.signPsbt({ psbt: 'AAE=' })).toEqual({ psbt: 'AAH/' })
    expect(unisat.signPsbt).toHaveBeenCalledWith('0001', { autoFinalized: false })
    // Unisat without sendBitcoin cannot send; with it, the satoshis go as a number.
    expect(provider.sendTransfer).toBeUndefined()
    const paying = bitcoinConnector(unisatBackend({ ...unisat, sendBitcoin: vi.fn(async () => 'ef'.repeat(32)) }))
    await paying.connect({ namespaces: ['bip122'], networks: [regtest] })
    expect(await (paying.getProvider('bip122') as BitcoinProvider).sendTransfer?.({ to: PAYMENT, amount: 5000n })).toBe('ef'.repeat(32))
  })

  it('Wallet Standard: bitcoin:connect accounts by purpose; signatures come back base64', async () => {
    const publicKey = new Uint8Array([2, 1])
    const accounts = [
      { address: PAYMENT, publicKey, chains: ['bitcoin:regtest'], features: [] },
      { address: ORDINALS, publicKey, chains: ['bitcoin:regtest'], features: [] },
    ]
    const wallet = {
      name: 'Std BTC',
      icon: 'data:image/svg+xml,x',
      chains: ['bitcoin:regtest'],
      accounts,
      features: {
        'bitcoin:connect': { connect: vi.fn(async () => ({ accounts })) },
        'bitcoin:signMessage': { signMessage: vi.fn(async () => [{ signature: new Uint8Array([1, 2, 3]) }]) },
      },
    } as unknown as Wallet
    const connector = bitcoinConnector(walletStandardBitcoinBackend(wallet))
    const connection = await connector.connect({ namespaces: ['bip122'], networks: [bitcoin, regtest] })
    expect(connection.accounts.map((a) => [a.address, a.type])).toEqual([
      [PAYMENT, 'payment'],
      [ORDINALS, 'ordinal'],
    ])
    const provider = connector.getProvider('bip122') as BitcoinProvider
    expect(await provider.signMessage({ address: PAYMENT, message: 'hi' })).toBe('AQID')
  })
})

describe('a Bitcoin backend handed over by a connector (WalletConnect)', () => {
  it("is wrapped in a Bitcoin provider over the connection's accounts, following the backend's account changes; providers pass as they are", async () => {
    let watcher: ((accounts: { address: string; purpose: 'payment' | 'ordinals' }[]) => void) | undefined
    const signMessage = vi.fn(async (account: { address: string }, message: string, protocol: string) => `${account.address}:${message}:${protocol}`)
    const backend = {
      info: { id: 'walletConnect', name: 'Phone Wallet', chain: 'bip122' as const, namespaces: ['bip122' as const], type: 'WALLET_CONNECT' as const },
      connect: async () => [],
      accounts: async () => [],
      disconnect: async () => undefined,
      signMessage,
      signPsbt: async ({ psbt }: { psbt: string }) => ({ psbt }),
      watch: (cb: typeof watcher) => {
        watcher = cb
        return () => undefined
      },
    }
    const adapter = bitcoinAdapter()
    const provider = adapter.wrapProvider?.(backend, {
      network: regtest,
      accounts: [
        { namespace: 'bip122', address: ORDINALS, type: 'ordinal', chainId: BITCOIN_REGTEST },
        { namespace: 'bip122', address: PAYMENT, type: 'payment', chainId: BITCOIN_REGTEST },
      ],
    })
    expect(provider?.walletName).toBe('Phone Wallet')
    expect(provider?.network).toBe(regtest)
    expect(provider?.accounts).toEqual([
      { address: PAYMENT, purpose: 'payment' },
      { address: ORDINALS, purpose: 'ordinals' },
    ])
    expect(await provider?.signMessage({ address: PAYMENT, message: 'hi' })).toBe(`${PAYMENT}:hi:bip322`)
    watcher?.([{ address: ORDINALS, purpose: 'payment' }])
    expect(provider?.accounts.map((a) => a.address)).toEqual([ORDINALS])
    await expect(provider?.signMessage({ address: PAYMENT, message: 'hi' })).rejects.toThrow(/not an account/)
    expect(adapter.wrapProvider?.(provider, { network: regtest, accounts: [] })).toBeUndefined()
  })
})
