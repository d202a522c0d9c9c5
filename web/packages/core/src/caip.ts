import { ErrorMessages } from './errors.js'
import type { CaipAddress, CaipNetworkId, ChainNamespace } from './types.js'

export const CHAIN_NAMESPACES: readonly ChainNamespace[] = ['eip155', 'solana', 'polkadot', 'bip122', 'cosmos']

export function isChainNamespace(value: unknown): value is ChainNamespace {
  return typeof value === 'string' && (CHAIN_NAMESPACES as readonly string[]).includes(value)
}

/** CAIP-2 network id: exactly 2 colon-separated, non-empty parts with a known namespace. */
export function isCaipNetworkId(value: unknown): value is CaipNetworkId {
  if (typeof value !== 'string') return false
  const parts = value.split(':')
  return parts.length === 2 && isChainNamespace(parts[0]) && parts[1] !== ''
}

/** CAIP-10 address: exactly 3 colon-separated, non-empty parts with a known namespace. */
export function isCaipAddress(value: unknown): value is CaipAddress {
  if (typeof value !== 'string') return false
  const parts = value.split(':')
  return parts.length === 3 && isChainNamespace(parts[0]) && parts[1] !== '' && parts[2] !== ''
}

export interface ParsedCaipNetworkId {
  chainNamespace: ChainNamespace
  chainId: string
}

export function parseCaipNetworkId(value: string): ParsedCaipNetworkId {
  if (!isCaipNetworkId(value)) throw new Error(`${ErrorMessages.invalidCaipNetworkId}: ${value}`)
  const [chainNamespace, chainId] = value.split(':') as [ChainNamespace, string]
  return { chainNamespace, chainId }
}

export interface ParsedCaipAddress {
  chainNamespace: ChainNamespace
  chainId: string
  caipNetworkId: CaipNetworkId
  address: string
}

export function parseCaipAddress(value: string): ParsedCaipAddress {
  if (!isCaipAddress(value)) throw new Error(`${ErrorMessages.invalidCaipAddress}: ${value}`)
  const [chainNamespace, chainId, address] = value.split(':') as [ChainNamespace, string, string]
  return { chainNamespace, chainId, address, caipNetworkId: `${chainNamespace}:${chainId}` }
}

export function formatCaipNetworkId(namespace: ChainNamespace, chainId: string | number): CaipNetworkId {
  const id: string = `${namespace}:${chainId}`
  if (!isCaipNetworkId(id)) throw new Error(`${ErrorMessages.invalidCaipNetworkId}: ${id}`)
  return id
}

export function formatCaipAddress(caipNetworkId: CaipNetworkId, address: string): CaipAddress {
  const id: string = `${caipNetworkId}:${address}`
  if (!isCaipAddress(id)) throw new Error(`${ErrorMessages.invalidCaipAddress}: ${id}`)
  return id
}
