import { describe, expect, it } from 'vitest'
import { buildConnectList, enabledConnectMethods } from './wallet-list.js'
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
