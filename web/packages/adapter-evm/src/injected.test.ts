import { afterEach, describe, expect, it } from 'vitest'
import type { ConnectorEvent, WalletConnector } from '@sigil/core'
import { ACCOUNT, announce, FakeProvider } from '../../core/src/test-utils/fake-provider.js'
import { injectedConnector, injectedConnectors } from './injected.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
})

/** Starts the source and keeps its latest list. */
function watch(options: Parameters<typeof injectedConnectors>[0] = {}) {
  const seen: WalletConnector[][] = []
  const stop = injectedConnectors(options).watch((list) => seen.push(list))
  cleanups.push(stop)
  return { seen, latest: () => seen.at(-1) ?? [] }
}

const PARAMS = { namespaces: ['eip155'] as const, networks: [] }

describe('injected connectors (EIP-6963 and window.ethereum)', () => {
  it('lists EIP-6963 wallets with their own name, icon and rdns', () => {
    const rabby = new FakeProvider()
    cleanups.push(announce(rabby, { name: 'Rabby Wallet', rdns: 'io.rabby', icon: 'data:image/png;base64,AA==' }))
    const { latest } = watch({ window: {} })
    expect(latest().map((c) => c.info)).toEqual([
      {
        id: 'io.rabby',
        name: 'Rabby Wallet',
        imageUrl: 'data:image/png;base64,AA==',
        rdns: 'io.rabby',
        chain: 'eip155',
        namespaces: ['eip155'],
        type: 'ANNOUNCED',
      },
    ])
  })

  it('reports wallets announced later; each provider keeps one connector object', () => {
    const { seen, latest } = watch({ window: {} })
    cleanups.push(announce(new FakeProvider(), { name: 'A', rdns: 'com.a' }))
    cleanups.push(announce(new FakeProvider(), { name: 'B', rdns: 'com.b' }))
    expect(seen.map((list) => list.map((c) => c.info.id))).toEqual([[], ['com.a'], ['com.a', 'com.b']])
    expect(seen[1]?.[0]).toBe(latest()[0])
  })

  it('falls back to window.ethereum, unless an announced wallet is that same object', () => {
    const legacy = new FakeProvider()
    const alone = watch({ window: { ethereum: legacy } })
    expect(alone.latest().map((c) => c.info)).toEqual([{ id: 'injected', name: 'Browser Wallet', chain: 'eip155', namespaces: ['eip155'], type: 'INJECTED' }])

    cleanups.push(announce(legacy, { name: 'MetaMask', rdns: 'io.metamask' }))
    expect(
      watch({ window: { ethereum: legacy } })
        .latest()
        .map((c) => c.info.id),
    ).toEqual(['io.metamask'])
    expect(
      watch({ window: { ethereum: 'not a provider' } })
        .latest()
        .map((c) => c.info.id),
    ).toEqual(['io.metamask'])
  })
})

describe('an injected connector', () => {
  const connector = (wallet = new FakeProvider()) => ({
    wallet,
    connector: injectedConnector(
      { id: 'com.test', name: 'Test Wallet', chain: 'eip155', namespaces: ['eip155'], type: 'ANNOUNCED', rdns: 'com.test', imageUrl: 'data:x' },
      wallet,
    ),
  })

  it('connects with eth_requestAccounts then eth_chainId: eip155 EOA accounts and the wallet info', async () => {
    const { wallet, connector: c } = connector()
    expect(c.getProvider('eip155')).toBeUndefined()
    const connection = await c.connect(PARAMS)
    expect(wallet.methods()).toEqual(['eth_requestAccounts', 'eth_chainId'])
    expect(connection).toEqual({
      connectorId: 'com.test',
      accounts: [{ namespace: 'eip155', address: ACCOUNT, type: 'eoa', chainId: 1 }],
      walletInfo: { name: 'Test Wallet', icon: 'data:x', rdns: 'com.test' },
    })
    expect(c.getProvider('eip155')).toBe(wallet)
    expect(c.getProvider('solana')).toBeUndefined()
  })

  it('a refusal is a UserRejectedRequestError; no accounts is NoAccountsError', async () => {
    const { wallet, connector: c } = connector()
    wallet.handlers.set('eth_requestAccounts', () => {
      throw Object.assign(new Error('User denied account authorization'), { code: 4001 })
    })
    await expect(c.connect(PARAMS)).rejects.toMatchObject({ name: 'UserRejectedRequestError', code: 4001, message: 'User rejected the request.' })
    wallet.handlers.set('eth_requestAccounts', () => [])
    await expect(c.connect(PARAMS)).rejects.toMatchObject({ name: 'NoAccountsError', code: 'NO_ACCOUNTS' })
    expect(wallet.listenerCount('accountsChanged')).toBe(0)
  })

  it('reconnects with eth_accounts only while the site is authorised', async () => {
    const { wallet, connector: c } = connector()
    expect(await c.reconnect(PARAMS)).toBeUndefined()
    wallet.authorised = true
    expect((await c.reconnect(PARAMS))?.accounts[0]?.address).toBe(ACCOUNT)
    expect(wallet.methods()).toEqual(['eth_accounts', 'eth_accounts', 'eth_chainId'])
  })

  it("reports the wallet's events while connected, and stops on disconnect (revoking where the wallet can)", async () => {
    const { wallet, connector: c } = connector()
    const events: ConnectorEvent[] = []
    c.subscribe((e) => events.push(e))
    await c.connect(PARAMS)
    wallet.emit('accountsChanged', ['0x2222222222222222222222222222222222222222'])
    wallet.emit('chainChanged', '0x89')
    wallet.emit('chainChanged', 'garbage')
    expect(events).toEqual([
      { type: 'accountsChanged', namespace: 'eip155', accounts: ['0x2222222222222222222222222222222222222222'] },
      { type: 'chainChanged', namespace: 'eip155', chainId: 137 },
    ])
    await c.disconnect()
    expect(wallet.methods()).toContain('wallet_revokePermissions')
    expect(wallet.listenerCount('accountsChanged')).toBe(0)
    expect(c.getProvider('eip155')).toBeUndefined()
    // a wallet without the method: the local disconnect stands
    await c.connect(PARAMS)
    wallet.handlers.set('wallet_revokePermissions', () => {
      throw { code: 4200 }
    })
    await expect(c.disconnect()).resolves.toBeUndefined()
  })

  it("the wallet's own disconnect event is passed on, and listening stops", async () => {
    const { wallet, connector: c } = connector()
    const events: ConnectorEvent[] = []
    c.subscribe((e) => events.push(e))
    await c.connect(PARAMS)
    wallet.emit('disconnect', { code: 4900 })
    expect(events).toEqual([{ type: 'disconnect' }])
    expect(wallet.listenerCount('chainChanged')).toBe(0)
  })
})
