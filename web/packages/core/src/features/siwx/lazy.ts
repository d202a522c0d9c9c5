import type { SigilContext } from '../../context.js'
import type { SigilState } from '../../store.js'
import type { SiwxController, SiwxControllerDeps } from './controller.js'

const connected = (s: SigilState) => s.chains[s.activeNamespace]?.connectionStatus === 'connected'

/**
 * The sign-in controller, loaded once there is something to sign in (a connection) or an action
 * asks for it: sign-in only ever follows a connection, so its code need not load with the page.
 * Once loaded, the controller reads the state as it is then and follows it from there.
 */
export function lazySiwxController(ctx: SigilContext, deps: SiwxControllerDeps): SiwxController {
  if (!ctx.options.siwx) return { sign: async () => {}, cancel: async () => {}, signOut: async () => {}, destroy: () => {} }
  let loaded: Promise<SiwxController> | undefined
  let destroyed = false
  const load = () => {
    loaded ??= import('./controller.js').then((m) => {
      const controller = m.createSiwxController(ctx, deps)
      if (destroyed) controller.destroy()
      return controller
    })
    unsubscribe()
    return loaded
  }
  const unsubscribe = ctx.store.subscribe((s) => {
    if (connected(s)) void load()
  })
  if (connected(ctx.store.getState())) void load()
  return {
    sign: () => load().then((c) => c.sign()),
    cancel: () => load().then((c) => c.cancel()),
    signOut: () => load().then((c) => c.signOut()),
    destroy() {
      destroyed = true
      unsubscribe()
      void loaded?.then((c) => c.destroy())
    },
  }
}
