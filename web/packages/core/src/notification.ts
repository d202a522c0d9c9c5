import type { NotificationVariant, SigilStore } from './store.js'

/** Delay before a notification replaces one that is open (spec section 4). */
export const NOTIFICATION_REPLACE_DELAY_MS = 150

const pending = new WeakMap<SigilStore, ReturnType<typeof setTimeout>>()

function clearPending(store: SigilStore) {
  const timer = pending.get(store)
  if (timer !== undefined) clearTimeout(timer)
  pending.delete(store)
}

/**
 * Shows a banner. When one is open it is hidden first and the new one shows 150 ms later, so
 * the user sees the change.
 */
export function showNotification(store: SigilStore, message: string, variant: NotificationVariant): void {
  clearPending(store)
  const show = () => store.setState({ notification: { open: true, message, variant } })
  if (!store.getState().notification.open) {
    show()
    return
  }
  store.setState((state) => ({ notification: { ...state.notification, open: false } }))
  pending.set(
    store,
    setTimeout(() => {
      pending.delete(store)
      show()
    }, NOTIFICATION_REPLACE_DELAY_MS),
  )
}

export const showSuccess = (store: SigilStore, message: string) => showNotification(store, message, 'success')
export const showLoading = (store: SigilStore, message: string) => showNotification(store, message, 'loading')
export const showError = (store: SigilStore, message: string) => showNotification(store, message, 'error')

export function hideNotification(store: SigilStore): void {
  clearPending(store)
  store.setState((state) => ({ notification: { ...state.notification, open: false } }))
}
