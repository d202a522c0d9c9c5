import type { SigilContext } from '../../context.js'
import { currentView } from '../../router.js'

/**
 * Closing is disabled while sign-in is required, the sign-in view shows and no session exists
 * (spec section 4).
 */
export function siwxBlocksClose(ctx: SigilContext): boolean {
  const siwx = ctx.options.siwx
  if (!siwx?.getRequired?.()) return false
  const state = ctx.store.getState()
  return currentView(state) === (siwx.view ?? 'SIWXSignMessage') && state.siwx.status !== 'signed-in'
}
