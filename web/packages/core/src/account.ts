import { formatCaipAddress } from './caip.js'
import { initialAccountState, updateChain, type SigilState, type SigilStore } from './store.js'
import type { AccountState, CaipAddress, CaipNetwork, ChainNamespace } from './types.js'

/** Merges fields into one namespace's account state. */
export function setAccountProps(store: SigilStore, namespace: ChainNamespace, props: Partial<AccountState>): void {
  updateChain(store, namespace, (chain) => ({ account: { ...chain.account, ...props } }))
}

/** Sets the connected address on `network`, deriving `address`, `caipAddress` and the explorer link. */
export function setAccountAddress(store: SigilStore, network: CaipNetwork, address: string): CaipAddress {
  const caipAddress = formatCaipAddress(network.caipNetworkId, address)
  const explorer = network.blockExplorers?.default.url
  setAccountProps(store, network.chainNamespace, {
    caipAddress,
    address,
    addressExplorerUrl: explorer ? `${explorer.replace(/\/+$/, '')}/address/${address}` : undefined,
  })
  return caipAddress
}

/** Empties the namespace's balances (its account or network changed): status 'idle'. */
export function resetBalances(store: SigilStore, namespace: ChainNamespace): void {
  updateChain(store, namespace, (chain) => ({
    account: { ...chain.account, balance: undefined, balanceSymbol: undefined, tokenBalance: [] },
    balanceStatus: 'idle',
  }))
}

/** Clears every account field of the namespace; status becomes disconnected. */
export function resetAccount(store: SigilStore, namespace: ChainNamespace): void {
  updateChain(store, namespace, () => ({ account: initialAccountState() }))
}

/** The account of the active namespace. */
export function activeAccount(state: SigilState): AccountState {
  return state.chains[state.activeNamespace]?.account ?? initialAccountState()
}
