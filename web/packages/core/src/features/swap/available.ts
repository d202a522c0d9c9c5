/*
 * Whether the Account view offers a swap: apart from the feature's actions, so that the Account
 * view asks without loading them.
 */
import type { SigilClient } from '../../client.js'

/** Whether the Account view offers a swap on the active network: the host left `swaps` on and the family can send calls (EVM). */
export function canSwap(client: SigilClient): boolean {
  const state = client.store.getState()
  const adapter = client.context.adapters[state.activeNamespace]
  return client.options.features.swaps && adapter?.calls !== undefined && adapter.sendsWith?.(state.providers[state.activeNamespace]?.provider) !== false
}
