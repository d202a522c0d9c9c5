import { setAccountProps } from '../../account.js'
import type { BlockchainClient, Identity } from './blockchain.js'
import type { SigilContext } from '../../context.js'
import { isUnsupportedNetwork } from '../../networks.js'
import type { ChainNamespace } from '../../types.js'

export interface IdentityController {
  /**
   * Sets the account's `profileName` and `profileImage` from its identity (ENS for eip155):
   * from browser storage when asked less than 5 minutes ago, else through the namespace's
   * adapter (getIdentity). Namespaces whose adapter has no names are left alone.
   */
  refresh(namespace: ChainNamespace): Promise<void>
  /** Drops the name and image (the account changed). */
  reset(namespace: ChainNamespace): void
}

export function createIdentityController(ctx: SigilContext, api: () => Promise<BlockchainClient>): IdentityController {
  const { store } = ctx
  const inFlight = new Map<string, Promise<void>>()

  const apply = (namespace: ChainNamespace, address: string, identity: Pick<Identity, 'name' | 'avatar'>) => {
    if (store.getState().chains[namespace]?.account.address !== address) return
    setAccountProps(store, namespace, { profileName: identity.name ?? undefined, profileImage: identity.avatar ?? undefined })
  }

  return {
    async refresh(namespace) {
      const chain = store.getState().chains[namespace]
      const address = chain?.account.address
      // Spec section 7: data calls are skipped on an unsupported network.
      const adapter = ctx.adapters[namespace]
      if (!adapter?.getIdentity || !address || isUnsupportedNetwork(chain?.network.caipNetwork)) return
      const lookup = adapter.getIdentity.bind(adapter)
      const cached = ctx.storage.getIdentity(address)
      if (cached) return apply(namespace, address, cached)
      const key = address.toLowerCase()
      const running = inFlight.get(key)
      if (running) return running
      const promise = (async () => {
        try {
          const identity = await lookup(address, await api())
          ctx.storage.setIdentity(address, identity)
          apply(namespace, address, identity)
        } catch {
          // A name is decoration: without one the account shows its shortened address.
        } finally {
          inFlight.delete(key)
        }
      })()
      inFlight.set(key, promise)
      return promise
    },
    reset(namespace) {
      setAccountProps(store, namespace, { profileName: undefined, profileImage: undefined })
    },
  }
}
