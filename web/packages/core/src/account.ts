import { formatCaipAddress } from './caip.js'
import { initialAccountState, updateChain, type SigilState, type SigilStore } from './store.js'
import type { AccountState, CaipAddress, CaipNetwork, ChainNamespace } from './types.js'

/** Merges fields into one namespace's account state. */
export function setAccountProps(store: SigilStore, namespace: ChainNamespace, props: Partial<AccountState>): void {
  updateChain(store, namespace, (chain) => ({ account: { ...chain.account, ...props } }))
}

/**
 * The page of an address or a transaction on the network's block explorer, or undefined without
 * one. The explorer's query stays ('https://solscan.io/?cluster=devnet' gives
 * 'https://solscan.io/tx/…?cluster=devnet').
 */
export function explorerUrl(network: CaipNetwork, kind: 'address' | 'tx', id: string): string | undefined {
  const base = network.blockExplorers?.default.url
  if (!base) return undefined
  try {
    const url = new URL(base)
    url.pathname = `${url.pathname.replace(/\/+$/, '')}/${kind}/${id}`
    return url.toString()
  } catch {
    return undefined
  }
}

/** Sets the connected address on `network`, deriving `address`, `caipAddress` and the explorer link. */
export function setAccountAddress(store: SigilStore, network: CaipNetwork, address: string): CaipAddress {
  const caipAddress = formatCaipAddress(network.caipNetworkId, address)
  setAccountProps(store, network.chainNamespace, { caipAddress, address, addressExplorerUrl: explorerUrl(network, 'address', address) })
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
