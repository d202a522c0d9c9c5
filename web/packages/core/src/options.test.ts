import { describe, expect, it } from 'vitest'
import { bitcoin, ethereum, polygon, solana } from './networks.js'
import { resolveOptions } from './options.js'
import { ConfigurationError, SigilError } from './errors.js'

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

  it('refuses an EVM or Solana network without an RPC URL, naming it; Bitcoin needs none (balances come through the server)', () => {
    const noRpc = { ...polygon, rpcUrls: { default: { http: [] } } }
    expect(() => resolveOptions({ projectId: 'abc', networks: [ethereum, noRpc] })).toThrow('Network eip155:137 has no RPC URL')
    expect(() => resolveOptions({ projectId: 'abc', networks: [{ ...solana, rpcUrls: { default: { http: [] } } }] })).toThrow(
      `Network ${solana.caipNetworkId} has no RPC URL`,
    )
    expect(() => resolveOptions({ projectId: 'abc', networks: [{ ...polygon, rpcUrls: undefined } as never] })).toThrow(ConfigurationError)
    // A chain default alone is enough.
    expect(
      resolveOptions({ projectId: 'abc', networks: [{ ...noRpc, rpcUrls: { default: { http: [] }, chainDefault: { http: ['https://rpc.example'] } } }] })
        .networks,
    ).toHaveLength(1)
    expect(resolveOptions({ projectId: 'abc', networks: [ethereum, bitcoin] }).networks).toHaveLength(2)
  })

  it('refuses a feature it does not know, naming it', () => {
    expect(() => resolveOptions({ projectId: 'abc', networks: [ethereum], features: { emial: true } as never })).toThrow('Unknown feature `emial`')
    expect(resolveOptions({ projectId: 'abc', networks: [ethereum], features: { names: false, pay: true } }).features.pay).toBe(true)
  })

  it('each refusal is a ConfigurationError with its own code', () => {
    const codeOf = (options: Parameters<typeof resolveOptions>[0]) => {
      try {
        resolveOptions(options)
      } catch (error) {
        return error instanceof ConfigurationError ? error.code : 'not a ConfigurationError'
      }
      return 'accepted'
    }
    expect(codeOf({ projectId: ' ', networks: [ethereum] })).toBe('PROJECT_ID_NOT_CONFIGURED')
    expect(codeOf({ projectId: 'abc', networks: [] })).toBe('NO_NETWORKS')
    expect(codeOf({ projectId: 'abc', networks: [{ ...ethereum, rpcUrls: { default: { http: [] } } }] })).toBe('NO_RPC_URL')
    expect(codeOf({ projectId: 'abc', networks: [ethereum], features: { nope: 1 } as never })).toBe('UNKNOWN_FEATURE')
    expect(codeOf({ projectId: 'abc', networks: [ethereum], siwx: {} as never, siweConfig: {} as never })).toBe('SIWE_AND_SIWX')
  })

  it('passes the legal links through', () => {
    const o = resolveOptions({
      projectId: 'abc',
      networks: [ethereum],
      termsConditionsUrl: 'https://a.example/terms',
      privacyPolicyUrl: 'https://a.example/privacy',
    })
    expect([o.termsConditionsUrl, o.privacyPolicyUrl]).toEqual(['https://a.example/terms', 'https://a.example/privacy'])
  })
})
