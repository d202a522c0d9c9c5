/*
 * The modal's side effects, as watchers of the store (and of the embedded wallet's requests):
 * state helpers and actions only change state; these open and close views in answer to it.
 * Each returns its stop; the client starts them.
 */
import { isAuthConnector, type EmbeddedRequestEvent } from './connectors/auth.js'
import type { WalletConnector } from './connectors/types.js'
import type { SigilContext } from './context.js'
import { closeModal, openModal } from './modal.js'
import { shouldShowUnsupportedChain } from './network.js'
import { showError } from './notification.js'
import { currentView, popView, replaceView } from './router.js'

/**
 * UnsupportedChain (spec section 4): when the active network becomes one the host did not
 * request (a wallet on an unconfigured chain: the placeholder), switching is on and unsupported
 * chains are not allowed, the warning shows (stacked over an open modal); once the active
 * network is an allowed one again, the warning has done its job and the modal closes.
 */
export function watchUnsupportedChain(ctx: SigilContext): () => void {
  return ctx.store.subscribe((state, previous) => {
    if (state.activeCaipNetwork === previous.activeCaipNetwork) return
    const showing = currentView(state) === 'UnsupportedChain' && state.modal.open
    if (shouldShowUnsupportedChain(ctx)) {
      if (!showing) openModal(ctx, { view: 'UnsupportedChain' })
    } else if (showing) {
      closeModal(ctx, { force: true })
    }
  })
}

/*
 * What the embedded wallet's requests do to the modal (spec section 4): an unsafe request shows
 * the ApproveTransaction view (the frame's own approval UI made visible there) until it settles,
 * then the view is popped or the modal closes (a failure other than the user's rejection shows
 * TransactionFailed in its place, with why), and a success refreshes the native balance; a
 * request the embedded wallet does not allow opens the modal, shows the error after 300 ms and is
 * rejected. Closing the approval view by force aborts the pending request.
 */
/** Spec section 4: the not-allowed error shows 300 ms after the modal opens. */
export const NOT_ALLOWED_ERROR_DELAY_MS = 300

export function watchEmbeddedRequests(ctx: SigilContext, connector: WalletConnector): () => void {
  if (!isAuthConnector(connector)) return () => undefined
  const { store } = ctx
  let pending: { abort: () => void; openedModal: boolean } | undefined
  const stopStore = store.subscribe((state, previous) => {
    // The approval view went away while the request still waits (a forced close): give it up.
    if (pending && currentView(previous) === 'ApproveTransaction' && (currentView(state) !== 'ApproveTransaction' || !state.modal.open)) {
      const { abort } = pending
      pending = undefined
      abort()
    }
  })
  const stopRequests = connector.subscribeRequests((event: EmbeddedRequestEvent) => {
    const state = store.getState()
    if (event.type === 'approval-start') {
      pending = { abort: event.abort, openedModal: !state.modal.open }
      openModal(ctx, { view: 'ApproveTransaction' })
    } else if (event.type === 'approval-end') {
      const was = pending
      pending = undefined
      if (was && currentView(store.getState()) === 'ApproveTransaction') {
        // A refusal (no funds, a revert) is said in the modal, in place of the approval.
        if (event.failure) replaceView(store, 'TransactionFailed', event.failure)
        else if (was.openedModal || store.getState().router.history.length <= 1) closeModal(ctx, { force: true })
        else popView(store)
      }
      if (event.ok) void ctx.accountData.refresh(state.activeNamespace)
    } else if (event.type === 'not-allowed') {
      if (!state.modal.open) openModal(ctx)
      setTimeout(() => showError(store, event.message), NOT_ALLOWED_ERROR_DELAY_MS)
    }
  })
  return () => {
    stopStore()
    stopRequests()
  }
}
