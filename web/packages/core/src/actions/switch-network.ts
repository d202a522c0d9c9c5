import { setAccountAddress } from '../account.js'
import { providerOf } from '../connection.js'
import { track, type SigilContext } from '../context.js'
import { toSigilError, type SigilError, type SwitchChainError, type UserRejectedRequestError } from '../errors.js'
import { setActiveNetwork, syncWalletNetwork } from '../network.js'
import type { CaipNetwork } from '../types.js'

export interface SwitchNetworkParameters {
  network: CaipNetwork
}

export type SwitchNetworkErrorType = UserRejectedRequestError | SwitchChainError | SigilError

/**
 * Makes `network` active (spec section 4). Switching to another namespace flags the namespace
 * switch until it settled. When the namespace is connected on another network, its wallet is
 * asked first (when its adapter can switch) and the account moves with it; otherwise only the
 * active network (and address) changes. The network id is stored either way.
 */
export async function switchNetwork(ctx: SigilContext, { network }: SwitchNetworkParameters): Promise<void> {
  const { store } = ctx
  const namespace = network.chainNamespace
  if (store.getState().activeNamespace !== namespace) store.setState({ isSwitchingNamespace: true })
  try {
    const chain = store.getState().chains[namespace]
    if (chain?.connectionStatus === 'connected' && chain.network.caipNetwork?.caipNetworkId !== network.caipNetworkId) {
      const adapter = ctx.adapters[namespace]
      const provider = providerOf(ctx, namespace)
      if (adapter?.switchNetwork && provider !== undefined) {
        try {
          await adapter.switchNetwork(provider, network)
        } catch (error) {
          const mapped = toSigilError(error)
          track(ctx, 'SWITCH_NETWORK_ERROR', { network: network.caipNetworkId, message: mapped.message })
          throw mapped
        }
      }
      const before = store.getState().chains[namespace]?.network.caipNetwork?.caipNetworkId
      syncWalletNetwork(ctx, namespace, network.id)
      const address = store.getState().chains[namespace]?.account.address
      if (address) setAccountAddress(store, network, address)
      // The wallet's chainChanged may have moved the account already.
      if (before !== network.caipNetworkId) {
        ctx.accountData.reset(namespace, 'network')
        void ctx.accountData.refresh(namespace)
      }
    } else {
      setActiveNetwork(ctx, network)
    }
  } finally {
    store.setState({ isSwitchingNamespace: false })
  }
  track(ctx, 'SWITCH_NETWORK', { network: network.caipNetworkId })
}
