import { describe, expect, it } from 'vitest'
import { ethereum, polygon } from './networks.js'
import { resolveOptions } from './options.js'
import { SigilError } from './errors.js'

describe('resolveOptions', () => {
  it('applies the spec defaults', () => {
    const o = resolveOptions({ projectId: 'abc', networks: [ethereum, polygon], apiUrl: 'https://api.example/' })
    expect(o.features).toMatchObject({
      swaps: true,
      onramp: true,
      receive: true,
      send: true,
      email: true,
      emailShowWallets: true,
      history: true,
      analytics: true,
      allWallets: true,
      legalCheckbox: false,
      smartSessions: false,
      collapseWallets: false,
      pay: false,
    })
    expect(o.features.connectorTypeOrder).toEqual(['walletConnect', 'recent', 'injected', 'featured', 'custom', 'external', 'recommended'])
    expect(o.features.connectMethodsOrder).toEqual(['email', 'social', 'wallet'])
    expect(o.features.walletFeaturesOrder).toEqual(['onramp', 'swaps', 'receive', 'send'])
    expect(o.defaultNetwork).toBe(ethereum)
    expect(o.apiUrl).toBe('https://api.example')
    expect(o).toMatchObject({
      includeWalletIds: [],
      excludeWalletIds: [],
      featuredWalletIds: [],
      allowUnsupportedChain: false,
      enableNetworkSwitch: true,
      embedded: false,
      sdkType: 'sigil',
      sdkVersion: '0.1.0',
      themeVariables: {},
    })
  })

  it('keeps host choices over defaults, ignoring undefined ones', () => {
    const o = resolveOptions({
      projectId: ' abc ',
      networks: [ethereum, polygon],
      defaultNetwork: polygon,
      features: { email: false, swaps: undefined, connectMethodsOrder: ['wallet', 'email'] },
      themeMode: 'light',
      themeVariables: { 'sigil-accent': '#ff0000' },
      includeWalletIds: ['a'],
      excludeWalletIds: ['b'],
      featuredWalletIds: ['c'],
    })
    expect(o.projectId).toBe('abc')
    expect(o.defaultNetwork).toBe(polygon)
    expect(o.features.email).toBe(false)
    expect(o.features.swaps).toBe(true)
    expect(o.features.connectMethodsOrder).toEqual(['wallet', 'email'])
    expect(o.themeMode).toBe('light')
    expect(o.themeVariables).toEqual({ 'sigil-accent': '#ff0000' })
    expect([o.includeWalletIds, o.excludeWalletIds, o.featuredWalletIds]).toEqual([['a'], ['b'], ['c']])
  })

  it('defaults the API to the page origin', () => {
    const o = resolveOptions({ projectId: 'abc', networks: [ethereum] })
    expect(o.apiUrl).toBe(window.location.origin)
  })

  it("requires a project id: 'Project ID Not Configured'", () => {
    expect(() => resolveOptions({ projectId: '', networks: [ethereum] })).toThrow('Project ID Not Configured')
    expect(() => resolveOptions({ networks: [ethereum] } as never)).toThrow(SigilError)
  })

  it('requires at least one network', () => {
    expect(() => resolveOptions({ projectId: 'abc', networks: [] })).toThrow('Invalid App Configuration')
  })
})
