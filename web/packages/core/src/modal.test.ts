import { describe, expect, it } from 'vitest'
import { setAccountAddress } from './account.js'
import { closeModal, goBack, openModal, selectWallet, setModalLoading } from './modal.js'
import { ethereum } from './networks.js'
import { currentView, pushView } from './router.js'
import { testContext } from './test-utils/index.js'

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7'

describe('modal', () => {
  it('open shows Connect when disconnected and tracks MODAL_OPEN', () => {
    const { ctx, events } = testContext()
    openModal(ctx)
    expect(ctx.store.getState().modal.open).toBe(true)
    expect(currentView(ctx.store.getState())).toBe('Connect')
    expect(events).toEqual([{ type: 'track', event: 'MODAL_OPEN', properties: { connected: false } }])
  })

  it('open shows Account when an address is connected', () => {
    const { ctx, events } = testContext()
    setAccountAddress(ctx.store, ethereum, ADDRESS)
    openModal(ctx)
    expect(currentView(ctx.store.getState())).toBe('Account')
    expect(events[0]?.properties).toEqual({ connected: true })
  })

  it('open with a view shows that view; without adapters picks by device', () => {
    const { ctx } = testContext()
    openModal(ctx, { view: 'Networks' })
    expect(currentView(ctx.store.getState())).toBe('Networks')
    const mobile = testContext({}, { adapters: {}, isMobile: true }).ctx
    openModal(mobile)
    expect(currentView(mobile.store.getState())).toBe('AllWallets')
    const desktop = testContext({}, { adapters: {}, isMobile: false }).ctx
    openModal(desktop)
    expect(currentView(desktop.store.getState())).toBe('ConnectingWalletConnectBasic')
  })

  it('opening again starts from a fresh history', () => {
    const { ctx } = testContext()
    openModal(ctx)
    pushView(ctx.store, 'AllWallets')
    closeModal(ctx)
    openModal(ctx)
    expect(ctx.store.getState().router.history).toEqual([{ view: 'Connect' }])
  })

  it('opening on the view already shown alone leaves the history untouched', () => {
    const { ctx } = testContext()
    const before = ctx.store.getState().router
    const changes: string[] = []
    ctx.store.subscribe((state, previous) => {
      if (state.router !== previous.router) changes.push('router')
      if (state.modal !== previous.modal) changes.push('modal')
    })
    openModal(ctx)
    expect(ctx.store.getState().router).toBe(before)
    expect(changes).toEqual(['modal'])
  })

  it('close tracks MODAL_CLOSE only when the modal was open', () => {
    const { ctx, events } = testContext()
    expect(closeModal(ctx)).toBe(true)
    expect(events).toEqual([])
    openModal(ctx)
    closeModal(ctx)
    expect(ctx.store.getState().modal.open).toBe(false)
    expect(events.map((e) => e.event)).toEqual(['MODAL_OPEN', 'MODAL_CLOSE'])
  })

  it('no events reach the sink when analytics is off', () => {
    const { ctx, events } = testContext({ features: { analytics: false } })
    openModal(ctx)
    closeModal(ctx)
    expect(events).toEqual([])
  })

  it('closing is blocked in ApproveTransaction unless forced', () => {
    const { ctx } = testContext()
    openModal(ctx, { view: 'ApproveTransaction' })
    expect(closeModal(ctx)).toBe(false)
    expect(ctx.store.getState().modal.open).toBe(true)
    expect(closeModal(ctx, { force: true })).toBe(true)
    expect(ctx.store.getState().modal.open).toBe(false)
  })

  it('embedded: closing goes to Connect, or Account when connected, and stays shown', () => {
    const { ctx, events } = testContext({ embedded: true })
    openModal(ctx, { view: 'AllWallets' })
    closeModal(ctx)
    expect(ctx.store.getState().modal.open).toBe(true)
    expect(ctx.store.getState().router.history).toEqual([{ view: 'Connect' }])
    setAccountAddress(ctx.store, ethereum, ADDRESS)
    pushView(ctx.store, 'Networks')
    closeModal(ctx)
    expect(ctx.store.getState().router.history).toEqual([{ view: 'Account' }])
    expect(events.map((e) => e.event)).toEqual(['MODAL_OPEN'])
  })

  it('go back pops the stack', () => {
    const { ctx } = testContext()
    openModal(ctx)
    pushView(ctx.store, 'AllWallets')
    goBack(ctx)
    expect(currentView(ctx.store.getState())).toBe('Connect')
    expect(ctx.store.getState().modal.open).toBe(true)
  })

  it('go back with one view left closes', () => {
    const { ctx } = testContext()
    openModal(ctx)
    goBack(ctx)
    expect(ctx.store.getState().modal.open).toBe(false)
  })

  it('go back with UnsupportedChain in the stack closes', () => {
    const { ctx } = testContext()
    openModal(ctx, { view: 'UnsupportedChain' })
    pushView(ctx.store, 'Networks')
    goBack(ctx)
    expect(ctx.store.getState().modal.open).toBe(false)
  })

  it('loading flag', () => {
    const { ctx } = testContext()
    setModalLoading(ctx.store, true)
    expect(ctx.store.getState().modal.loading).toBe(true)
    setModalLoading(ctx.store, false)
    expect(ctx.store.getState().modal.loading).toBe(false)
  })

  it('selecting a wallet routes by connector presence', () => {
    const { ctx } = testContext()
    openModal(ctx)
    // the fake adapter is not set up here, so add its connector by hand
    ctx.store.setState({ connectors: [{ id: 'com.test', name: 'Test', chain: 'eip155', namespaces: ['eip155'], type: 'ANNOUNCED', rdns: 'com.test' }] })
    expect(selectWallet(ctx, { id: '1', name: 'Test', image_id: 'i', rdns: 'com.test' })).toBe('ConnectingExternal')
    expect(currentView(ctx.store.getState())).toBe('ConnectingExternal')
    expect(selectWallet(ctx, { id: '2', name: 'Other', image_id: 'i', rdns: 'com.other' })).toBe('ConnectingWalletConnect')
    const last = ctx.store.getState().router.history.at(-1)
    expect(last?.view === 'ConnectingWalletConnect' ? last.data.wallet.id : undefined).toBe('2')
  })
})
