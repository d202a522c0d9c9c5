/*
 * Whether the Account view offers 'Deposit from exchange': apart from the feature's actions, so
 * that the Account view asks without loading them.
 */
import type { SigilClient } from '../../client.js'

/** Whether the Account view offers a deposit from an exchange: the host turned `pay` on (it is off by default) and the active network is an EVM one (the server reads eip155 balances). */
export function canPay(client: SigilClient): boolean {
  return client.options.features.pay === true && client.store.getState().activeNamespace === 'eip155'
}
