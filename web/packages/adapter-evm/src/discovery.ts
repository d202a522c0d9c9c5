import { createStore, type EIP6963ProviderDetail } from 'mipd'
import type { Connector } from '@sigil/core'
import type { Eip1193Provider } from './provider.js'

/** Connector id of the legacy `window.ethereum` provider. */
export const LEGACY_INJECTED_ID = 'injected'
export const LEGACY_INJECTED_NAME = 'Browser Wallet'

export interface DiscoveredWallet {
  connector: Connector
  provider: Eip1193Provider
}

export interface Discovery {
  list(): DiscoveredWallet[]
  find(connectorId: string): DiscoveredWallet | undefined
  /** Called with the full list on every change. Returns an unsubscribe. */
  subscribe(listener: (wallets: DiscoveredWallet[]) => void): () => void
  destroy(): void
}

export interface DiscoveryWindow {
  ethereum?: unknown
}

function isProvider(value: unknown): value is Eip1193Provider {
  return typeof value === 'object' && value !== null && typeof (value as Eip1193Provider).request === 'function'
}

/**
 * Finds EVM wallets in the page: EIP-6963 announcements (through mipd), each with its own name,
 * icon and rdns, and the legacy `window.ethereum` when no announcement carries that object.
 * Announced wallets are keyed by rdns, which stays the same across reloads (uuid does not).
 */
export function createDiscovery(win: DiscoveryWindow | undefined = globalThis as DiscoveryWindow): Discovery {
  const mipd = createStore()
  const listeners = new Set<(wallets: DiscoveredWallet[]) => void>()

  const fromAnnouncement = ({ info, provider }: EIP6963ProviderDetail): DiscoveredWallet => ({
    connector: { id: info.rdns, name: info.name, imageUrl: info.icon, rdns: info.rdns, chain: 'eip155', type: 'ANNOUNCED' },
    provider: provider as Eip1193Provider,
  })

  const list = (): DiscoveredWallet[] => {
    const announced = mipd.getProviders().map(fromAnnouncement)
    const legacy = win?.ethereum
    if (isProvider(legacy) && !announced.some((w) => w.provider === legacy)) {
      announced.push({
        connector: { id: LEGACY_INJECTED_ID, name: LEGACY_INJECTED_NAME, chain: 'eip155', type: 'INJECTED' },
        provider: legacy,
      })
    }
    return announced
  }

  const unsubscribe = mipd.subscribe(() => {
    const wallets = list()
    for (const l of listeners) l(wallets)
  })

  return {
    list,
    find: (connectorId) => list().find((w) => w.connector.id === connectorId),
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    destroy() {
      unsubscribe()
      listeners.clear()
      mipd.destroy()
    },
  }
}
