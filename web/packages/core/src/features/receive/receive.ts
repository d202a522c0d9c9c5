/*
 * `@sigil/core/receive`: what the Receive view shows beside the address (spec section 1;
 * WALLET-FEATURES section 3). Loaded with the view, never with the host page.
 */
import type { SigilState } from '../../store.js'
import type { CaipNetwork } from '../../types.js'

/** The address to receive on: the active account's, when one is connected. */
export function receiveAddress(state: SigilState): string | undefined {
  return state.chains[state.activeNamespace]?.account.address
}

/**
 * The host's other networks of `active`'s family (`networks`: those the host configured): the
 * same address receives there too (an EVM address on every EVM network), each network's
 * assets on their own network.
 */
export function compatibleNetworks(networks: readonly CaipNetwork[], active: CaipNetwork): CaipNetwork[] {
  return networks.filter((n) => n.chainNamespace === active.chainNamespace && n.caipNetworkId !== active.caipNetworkId)
}
