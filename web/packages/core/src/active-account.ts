import type { SigilState } from './store.js'
import type { CaipNetwork } from './types.js'

/** The active namespace's network (the chain its account is on), else the modal's active network. */
export const activeNetwork = (state: SigilState): CaipNetwork => state.chains[state.activeNamespace]?.network.caipNetwork ?? state.activeCaipNetwork

/** The active account as CAIP-10 (`eip155:1:0x…`): the key of a feature's per-account list; undefined without an address. */
export function activeCaipAccount(state: SigilState): string | undefined {
  const address = state.chains[state.activeNamespace]?.account.address
  return address ? `${activeNetwork(state).caipNetworkId}:${address}` : undefined
}
