/*
 * The wagmi connector backed by the Sigil modal: wagmi's connect opens the modal, its
 * switchChain and disconnect go through Sigil, and its provider is the one of the wallet Sigil
 * connected. What happens in the modal reaches wagmi through the adapter's sync (adapter.ts).
 */
import type { Eip1193Provider, SigilClient, SigilState } from '@sigil/core'
import { getAddress, SwitchChainError, UserRejectedRequestError, type Address } from 'viem'
import { ChainNotConfiguredError, createConnector } from 'wagmi'

export const SIGIL_CONNECTOR_ID = 'sigil'

/** What the connector needs of the modal, once `createAppKit` has run. */
export interface SigilBridge {
  /** The modal, once it exists and its stored connection is restored (or found gone). */
  client(): Promise<SigilClient>
  /** Set while wagmi's disconnect is being carried out, so the sync does not report it back. */
  disconnecting: boolean
}

/** The eip155 account Sigil has connected, as wagmi wants it; undefined while not connected. */
export function sigilAccount(state: SigilState): { accounts: readonly [Address, ...Address[]]; chainId: number } | undefined {
  const chain = state.chains.eip155
  const network = chain?.network.caipNetwork
  if (chain?.connectionStatus !== 'connected' || !chain.account.address || !network) return undefined
  const all = chain.account.allAccounts.map((a) => a.address)
  const addresses = [chain.account.address, ...all.filter((a) => a.toLowerCase() !== chain.account.address?.toLowerCase())].map((a) => getAddress(a))
  return { accounts: addresses as [Address, ...Address[]], chainId: Number(network.id) }
}

/** Opens the modal and resolves once an eip155 account is connected; rejects when the modal closes first. */
function connectThroughModal(client: SigilClient): Promise<NonNullable<ReturnType<typeof sigilAccount>>> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const state = client.store.getState()
      const account = sigilAccount(state)
      if (account) resolve(account)
      else if (!state.modal.open) reject(new UserRejectedRequestError(new Error('The modal was closed without connecting.')))
      else return
      unsubscribe()
    }
    // Opening goes through more than one store update: watch once it is open.
    client.open()
    const unsubscribe = client.store.subscribe(check)
    check()
  })
}

/** Sigil's errors carry EIP-1193 codes; wagmi's hooks know viem's classes for them. */
function toViemError(error: unknown): unknown {
  const code = (error as { code?: unknown } | undefined)?.code
  if (code === 4001) return new UserRejectedRequestError(error as Error)
  if (code === 4902) return new SwitchChainError(error as Error)
  return error
}

export function sigilConnector(bridge: SigilBridge) {
  return createConnector<Eip1193Provider | undefined>((config) => ({
    id: SIGIL_CONNECTOR_ID,
    name: 'Sigil',
    type: 'sigil',

    async connect({ chainId, isReconnecting } = {}) {
      const client = await bridge.client()
      let account = sigilAccount(client.store.getState())
      if (!account) {
        // Reconnecting never prompts: only a connection Sigil restored counts.
        if (isReconnecting) throw new UserRejectedRequestError(new Error('Not connected in Sigil.'))
        account = await connectThroughModal(client)
      }
      if (chainId !== undefined && chainId !== account.chainId) {
        await this.switchChain?.({ chainId })
        account = { ...account, chainId }
      }
      // The return type depends on `withCapabilities`; wagmi copes with plain addresses either way.
      return account as never
    },

    async disconnect() {
      const client = await bridge.client()
      if (client.store.getState().chains.eip155?.connectionStatus === 'disconnected') return
      bridge.disconnecting = true
      try {
        await client.disconnect('eip155')
      } finally {
        bridge.disconnecting = false
      }
    },

    async getAccounts() {
      const client = await bridge.client()
      return sigilAccount(client.store.getState())?.accounts ?? []
    },

    async getChainId() {
      const client = await bridge.client()
      const state = client.store.getState()
      return sigilAccount(state)?.chainId ?? Number(state.chains.eip155?.network.caipNetwork?.id ?? config.chains[0].id)
    },

    async getProvider() {
      const client = await bridge.client()
      return client.getProvider('eip155') as Eip1193Provider | undefined
    },

    async isAuthorized() {
      const client = await bridge.client()
      return sigilAccount(client.store.getState()) !== undefined
    },

    async switchChain({ chainId }) {
      const chain = config.chains.find((c) => c.id === chainId)
      const client = await bridge.client()
      const network = client.store.getState().networks.find((n) => n.chainNamespace === 'eip155' && Number(n.id) === chainId)
      if (!chain || !network) throw new SwitchChainError(new ChainNotConfiguredError())
      try {
        await client.switchNetwork(network)
      } catch (error) {
        throw toViemError(error)
      }
      config.emitter.emit('change', { chainId })
      return chain
    },

    onAccountsChanged(accounts) {
      if (accounts.length === 0) this.onDisconnect()
      else config.emitter.emit('change', { accounts: accounts.map((a) => getAddress(a)) })
    },

    onChainChanged(chain) {
      config.emitter.emit('change', { chainId: Number(chain) })
    },

    onDisconnect() {
      config.emitter.emit('disconnect')
    },
  }))
}
