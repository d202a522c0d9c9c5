/*
 * Whether the Account view offers to choose a name: apart from the feature's actions, so that
 * the Account view asks without loading them.
 */
import type { SigilClient } from '../../client.js'

/** Whether the Account view offers 'Choose a name': an EVM account is connected whose adapter signs, and the host left `features.names` on. */
export function canRegisterName(client: SigilClient): boolean {
  const state = client.store.getState()
  return (
    client.options.features.names !== false &&
    state.activeNamespace === 'eip155' &&
    !!state.chains.eip155?.account.address &&
    !!client.context.adapters.eip155?.signMessage
  )
}
