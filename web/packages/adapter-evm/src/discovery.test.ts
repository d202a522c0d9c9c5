import { afterEach, describe, expect, it } from 'vitest'
import { createDiscovery } from './discovery.js'
import { announce, FakeProvider } from './test-utils/fake-provider.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const c of cleanups.splice(0)) c()
})

describe('wallet discovery', () => {
  it('lists EIP-6963 wallets with their own name, icon and rdns', () => {
    const rabby = new FakeProvider()
    cleanups.push(announce(rabby, { name: 'Rabby Wallet', rdns: 'io.rabby', icon: 'data:image/png;base64,AA==' }))
    const discovery = createDiscovery({})
    cleanups.push(() => discovery.destroy())
    expect(discovery.list()).toEqual([
      {
        connector: { id: 'io.rabby', name: 'Rabby Wallet', imageUrl: 'data:image/png;base64,AA==', rdns: 'io.rabby', chain: 'eip155', type: 'ANNOUNCED' },
        provider: rabby,
      },
    ])
  })

  it('reports wallets announced later', () => {
    const discovery = createDiscovery({})
    cleanups.push(() => discovery.destroy())
    const seen: string[][] = []
    discovery.subscribe((wallets) => seen.push(wallets.map((w) => w.connector.id)))
    cleanups.push(announce(new FakeProvider(), { name: 'A', rdns: 'com.a' }))
    cleanups.push(announce(new FakeProvider(), { name: 'B', rdns: 'com.b' }))
    expect(seen).toEqual([['com.a'], ['com.a', 'com.b']])
    expect(discovery.find('com.b')?.connector.name).toBe('B')
  })

  it('falls back to window.ethereum, unless an announced wallet is that same object', () => {
    const legacy = new FakeProvider()
    const alone = createDiscovery({ ethereum: legacy })
    expect(alone.list().map((w) => w.connector)).toEqual([{ id: 'injected', name: 'Browser Wallet', chain: 'eip155', type: 'INJECTED' }])
    alone.destroy()

    cleanups.push(announce(legacy, { name: 'MetaMask', rdns: 'io.metamask' }))
    const both = createDiscovery({ ethereum: legacy })
    cleanups.push(() => both.destroy())
    expect(both.list().map((w) => w.connector.id)).toEqual(['io.metamask'])
    expect(
      createDiscovery({ ethereum: 'not a provider' })
        .list()
        .map((w) => w.connector.id),
    ).toEqual(['io.metamask'])
  })
})
