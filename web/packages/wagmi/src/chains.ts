import type { CaipNetwork } from '@sigil/core'
import type { Chain } from 'viem'

/** A Sigil network as a viem chain (the two shapes are nearly the same). */
export function toWagmiChain(network: CaipNetwork): Chain {
  const explorer = network.blockExplorers?.default
  return {
    id: Number(network.id),
    name: network.name,
    nativeCurrency: network.nativeCurrency,
    rpcUrls: { default: { http: [...network.rpcUrls.default.http] } },
    ...(explorer ? { blockExplorers: { default: explorer } } : {}),
    testnet: network.testnet,
  }
}

/** The Sigil server's JSON-RPC proxy for a network (`POST {apiUrl}/v1?chainId=eip155:N&projectId=…`). */
export function sigilRpcUrl(apiUrl: string, projectId: string, network: CaipNetwork): string {
  const url = new URL('/v1', apiUrl)
  url.searchParams.set('chainId', network.caipNetworkId)
  url.searchParams.set('projectId', projectId)
  return url.toString()
}
