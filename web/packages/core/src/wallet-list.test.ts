import { describe, expect, it } from 'vitest'
import { buildConnectList, connectFamilies, enabledConnectMethods, installPlatform, interleaveWallets, walletInstallLink } from './wallet-list.js'
import { bitcoin, ethereum, solana } from './networks.js'
import type { SigilState } from './store.js'
import { defaultFeatures, DEFAULT_CONNECTOR_ORDER } from './options.js'
import type { Connector, Wallet } from './types.js'

const w = (id: string, rdns?: string): Wallet => ({ id, name: id, image_id: id, ...(rdns ? { rdns } : {}) })
const announced = (rdns: string): Connector => ({ id: rdns, name: rdns, chain: 'eip155', namespaces: ['eip155'], type: 'ANNOUNCED', rdns })

describe('connect list', () => {
  it('follows the connector order, each wallet shown once', () => {
    const items = buildConnectList({
      order: DEFAULT_CONNECTOR_ORDER,
      connectors: [
        { id: 'injected', name: 'Browser Wallet', chain: 'eip155', namespaces: ['eip155'], type: 'INJECTED' },
        announced('io.rabby'),
        announced('io.metamask'),
        { id: 'wc', name: 'WalletConnect', chain: 'eip155', namespaces: ['eip155'], type: 'WALLET_CONNECT' },
        { id: 'ext', name: 'Ext', chain: 'eip155', namespaces: ['eip155'], type: 'EXTERNAL' },
      ],
      recent: [w('metamask', 'io.metamask'), w('trust')],
      featured: [w('zerion'), w('rainbow'), w('trust')],
      featuredWalletIds: ['rainbow', 'zerion', 'trust'],
      recommended: [w('trust'), w('rainbow'), w('r1'), w('r2'), w('r3'), w('r4'), w('r5')],
    })
    expect(items.map((i) => `${i.section}:${i.kind === 'wallet' ? i.wallet.id : i.connector.id}`)).toEqual([
      'walletConnect:wc',
      'recent:metamask',
      'recent:trust',
      'injected:io.rabby',
      'injected:injected',
      'featured:rainbow',
      'featured:zerion',
      'external:ext',
      'recommended:r1',
      'recommended:r2',
      'recommended:r3',
      'recommended:r4',
    ])
    // a recent wallet that is installed carries its connector
    expect(items[1]).toMatchObject({ kind: 'wallet', connector: { id: 'io.metamask' } })
  })

  it('leaves out excluded wallets and honours a custom order', () => {
    const items = buildConnectList({
      order: ['recommended', 'injected'],
      connectors: [announced('io.rabby')],
      recommended: [w('rabby', 'io.rabby'), w('x')],
      excludeWalletIds: ['x'],
    })
    expect(items.map((i) => i.section)).toEqual(['recommended'])
    expect(items[0]).toMatchObject({ wallet: { id: 'rabby' }, connector: { id: 'io.rabby' } })
  })

  it('connect methods follow the order and the features', () => {
    expect(enabledConnectMethods(defaultFeatures())).toEqual(['email', 'social', 'wallet'])
    expect(enabledConnectMethods({ ...defaultFeatures(), email: false, socials: false })).toEqual(['wallet'])
    expect(enabledConnectMethods({ ...defaultFeatures(), connectMethodsOrder: ['wallet', 'email'] })).toEqual(['wallet', 'email'])
  })
})

describe('wallets per chain family', () => {
  const standard: Connector = { id: 'wallet-standard:Sol', name: 'Sol Wallet', chain: 'solana', namespaces: ['solana'], type: 'ANNOUNCED' }
  const evm = announced('io.evm')

  it("a recent wallet remembered from a page connector is that connector's row, not a second one", () => {
    const items = buildConnectList({
      order: DEFAULT_CONNECTOR_ORDER,
      connectors: [standard],
      recent: [{ id: standard.id, name: standard.name, image_id: '' }],
    })
    expect(items.map((i) => `${i.section}:${i.kind === 'wallet' ? i.wallet.id : i.connector.id}`)).toEqual([`recent:${standard.id}`])
    expect(items[0]).toMatchObject({ connector: { id: standard.id } })
  })

  it("the same wallet through another family's connector (same name, any case) is one row", () => {
    const evmSide: Connector = { ...standard, id: 'multi-evm', chain: 'eip155', namespaces: ['eip155'] }
    const items = buildConnectList({
      order: DEFAULT_CONNECTOR_ORDER,
      connectors: [evmSide],
      recent: [
        { id: standard.id, name: ' sol WALLET ', image_id: '' },
        { id: 'other', name: 'Other', image_id: 'o' },
      ],
    })
    expect(items.map((i) => `${i.section}:${i.kind === 'wallet' ? i.wallet.id : i.connector.id}:${i.connector?.id}`)).toEqual([
      `recent:${standard.id}:multi-evm`,
      'recent:other:undefined',
    ])
  })

  it('recent wallets speaking none of the families listed are left out', () => {
    const items = buildConnectList({
      order: DEFAULT_CONNECTOR_ORDER,
      // Connecting Bitcoin: the page's EVM and Solana connectors are not listed.
      connectors: [],
      pageConnectors: [standard, evm],
      recent: [
        { id: 'io.evm', name: 'io.evm', image_id: '', rdns: 'io.evm' },
        { id: standard.id, name: standard.name, image_id: '' },
        { id: 'btc-app', name: 'BTC App', image_id: 'b', chains: ['bip122:000000000019d6689c085ae165831e93'] },
      ],
      namespaces: new Set(['bip122']),
    })
    expect(items.filter((i) => i.section === 'recent').map((i) => (i.kind === 'wallet' ? i.wallet.id : ''))).toEqual(['btc-app'])
  })

  it("the families listed: the page's, or the active one alone while the visitor connects a further family", () => {
    const state = (active: SigilState['activeNamespace'], connected: SigilState['activeNamespace'][]) =>
      ({
        networks: [ethereum, solana, bitcoin],
        activeNamespace: active,
        chains: Object.fromEntries(connected.map((ns) => [ns, { connectionStatus: 'connected' }])),
      }) as unknown as SigilState
    expect(connectFamilies(state('eip155', []))).toEqual(['eip155', 'solana', 'bip122'])
    expect(connectFamilies(state('bip122', ['eip155', 'solana']))).toEqual(['bip122'])
    expect(connectFamilies(state('eip155', ['eip155']))).toEqual(['eip155', 'solana', 'bip122'])
  })

  it("takes each family's wallets in turn, each wallet once", () => {
    expect(interleaveWallets([[w('m'), w('t'), w('r')], [w('p'), w('t')], [w('x')]]).map((x) => x.id)).toEqual(['m', 'p', 'x', 't', 'r'])
    expect(interleaveWallets([])).toEqual([])
  })
})

describe('getting a wallet', () => {
  const metamask: Wallet = {
    id: 'mm',
    name: 'MetaMask',
    image_id: 'mm',
    app_store: 'https://apps.apple.com/us/app/metamask/id1438144202',
    play_store: 'https://play.google.com/store/apps/details?id=io.metamask',
    chrome_store: 'https://chrome.google.com/webstore/detail/metamask/nkbihfbeogaeaoehlefnkodbefgpgknn',
    homepage: 'https://metamask.io/',
  }
  it("is the device's store, else the wallet's site", () => {
    expect(walletInstallLink(metamask, 'ios')).toBe(metamask.app_store)
    expect(walletInstallLink(metamask, 'android')).toBe(metamask.play_store)
    expect(walletInstallLink(metamask, 'desktop')).toBe(metamask.chrome_store)
    expect(walletInstallLink({ ...metamask, chrome_store: null }, 'desktop')).toBe('https://metamask.io/')
    expect(walletInstallLink({ ...metamask, app_store: '' }, 'ios')).toBe('https://metamask.io/')
  })
  it('only over https: a javascript: or http: link is no link', () => {
    expect(walletInstallLink({ ...metamask, chrome_store: 'javascript:alert(1)', homepage: 'http://metamask.io' }, 'desktop')).toBeUndefined()
  })
  it('knows the phone from its user agent', () => {
    expect(installPlatform('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148')).toBe('ios')
    expect(installPlatform('Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari/537.36')).toBe('android')
    expect(installPlatform('Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36')).toBe('desktop')
  })
})
