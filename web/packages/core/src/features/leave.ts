/*
 * Leaving a feature's form, for the features' actions (pay, onramp): here rather than in
 * ../router.ts, which loads with the host page.
 */
import type { SigilStore, View } from '../store.js'

/** Leaves the last `view` and whatever was opened above it: back to what was below (Account when nothing was). */
export function leaveView(store: SigilStore, view: View): void {
  store.setState((state) => {
    const history = state.router.history
    const at = history.map((r) => r.view).lastIndexOf(view)
    const below = at < 0 ? history.slice(0, -1) : history.slice(0, at)
    return { router: { history: below.length ? below : [{ view: 'Account' }] } }
  })
}
