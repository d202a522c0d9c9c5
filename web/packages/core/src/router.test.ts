import { describe, expect, it } from 'vitest'
import { findConnectorForWallet, pickOpenView, popView, pushView, replaceView, resetView, selectWalletView, currentView, goingBackCloses } from './router.js'
import { testContext } from './test-utils/index.js'
import type { Connector, Wallet } from './types.js'

const wallet: Wallet = { id: 'a'.repeat(64), name: 'Rabby', image_id: 'img', rdns: 'io.rabby', injected: [{ namespace: 'eip155', injected_id: 'isRabby' }] }
const connector: Connector = { id: 'io.rabby', name: 'Rabby Wallet', chain: 'eip155', namespaces: ['eip155'], type: 'ANNOUNCED', rdns: 'io.rabby' }

describe('history stack', () => {
  it('views take the parameters the registry gives them (checked by the compiler)', () => {
    const { store } = testContext().ctx
    // @ts-expect-error ConnectingExternal needs the connector to connect with
    pushView(store, 'ConnectingExternal')
    // @ts-expect-error Account takes no parameters
    pushView(store, 'Account', { connector })
    pushView(store, 'ConnectingWalletConnect', { wallet: { id: 'w', name: 'W', image_id: 'i' } })
    const top = store.getState().router.history.at(-1)
    expect(top?.view === 'ConnectingWalletConnect' && top.data.wallet.name).toBe('W')
  })

  it('push, replace, pop and reset', () => {
    const { store } = testContext().ctx
    const views = () => store.getState().router.history.map((e) => e.view)
    expect(views()).toEqual(['Connect'])
    pushView(store, 'AllWallets')
    pushView(store, 'ConnectingExternal', { connector })
    expect(views()).toEqual(['Connect', 'AllWallets', 'ConnectingExternal'])
    const pushed = store.getState().router.history[2]
    expect(pushed?.view === 'ConnectingExternal' && pushed.data.connector).toBe(connector)
    replaceView(store, 'Account')
    expect(views()).toEqual(['Connect', 'AllWallets', 'Account'])
    popView(store)
    expect(currentView(store.getState())).toBe('AllWallets')
    resetView(store, 'Networks')
    expect(views()).toEqual(['Networks'])
    popView(store)
    expect(views()).toEqual(['Networks'])
  })

  it('pushing the view already shown does not stack it twice', () => {
    const { store } = testContext().ctx
    pushView(store, 'AllWallets')
    pushView(store, 'AllWallets')
    expect(store.getState().router.history).toHaveLength(2)
  })

  it('going back closes with one view left or UnsupportedChain in the stack', () => {
    const { store } = testContext().ctx
    expect(goingBackCloses(store.getState())).toBe(true)
    pushView(store, 'Networks')
    expect(goingBackCloses(store.getState())).toBe(false)
    resetView(store, 'UnsupportedChain')
    pushView(store, 'Networks')
    expect(goingBackCloses(store.getState())).toBe(true)
  })
})

describe('pickOpenView', () => {
  it('the given view wins', () => {
    expect(pickOpenView({ requested: 'Networks', isConnected: true, hasAdapters: true, isMobile: false })).toBe('Networks')
    expect(pickOpenView({ requested: 'Connect', isConnected: false, hasAdapters: false, isMobile: true })).toBe('Connect')
  })
  it('Account when connected, Connect otherwise', () => {
    expect(pickOpenView({ isConnected: true, hasAdapters: true, isMobile: false })).toBe('Account')
    expect(pickOpenView({ isConnected: false, hasAdapters: true, isMobile: false })).toBe('Connect')
    expect(pickOpenView({ isConnected: true, hasAdapters: false, isMobile: true })).toBe('Account')
  })
  it('no adapters and nothing connected: AllWallets on mobile, ConnectingWalletConnectBasic elsewhere', () => {
    expect(pickOpenView({ isConnected: false, hasAdapters: false, isMobile: true })).toBe('AllWallets')
    expect(pickOpenView({ isConnected: false, hasAdapters: false, isMobile: false })).toBe('ConnectingWalletConnectBasic')
  })
})

describe('selecting a wallet', () => {
  it('ConnectingExternal with the matching connector', () => {
    expect(selectWalletView([connector], wallet)).toEqual({ view: 'ConnectingExternal', data: { wallet, connector } })
  })
  it('ConnectingWalletConnect when the page has no connector for it', () => {
    const other: Connector = { ...connector, id: 'io.metamask', rdns: 'io.metamask' }
    expect(selectWalletView([other], wallet)).toEqual({ view: 'ConnectingWalletConnect', data: { wallet } })
  })
  it('matches by explorer id, rdns or injected id', () => {
    const byExplorer: Connector = { id: 'x', name: 'X', chain: 'eip155', namespaces: ['eip155'], type: 'EXTERNAL', explorerId: wallet.id }
    const byInjected: Connector = { id: 'isRabby', name: 'Legacy', chain: 'eip155', namespaces: ['eip155'], type: 'INJECTED' }
    expect(findConnectorForWallet([byExplorer], wallet)).toBe(byExplorer)
    expect(findConnectorForWallet([{ ...connector, rdns: 'IO.RABBY' }], wallet)?.id).toBe('io.rabby')
    expect(findConnectorForWallet([byInjected], wallet)).toBe(byInjected)
    expect(findConnectorForWallet([], wallet)).toBeUndefined()
  })
})
