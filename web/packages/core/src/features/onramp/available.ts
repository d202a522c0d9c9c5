/*
 * Whether the Account view offers to buy: apart from the feature's actions, so that the Account
 * view asks without loading them.
 */
import type { SigilClient } from '../../client.js'

/** Whether the Account view offers 'Buy' on the active network: the host left `onramp` on and it is an EVM or Solana network (spec section 9). */
export function canBuy(client: SigilClient): boolean {
  const namespace = client.store.getState().activeNamespace
  return client.options.features.onramp && (namespace === 'eip155' || namespace === 'solana')
}
