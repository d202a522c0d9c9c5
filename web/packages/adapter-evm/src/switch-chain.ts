import { ErrorMessages, errorCode, RpcErrorCode, SwitchChainError, toSigilError, type CaipNetwork } from '@sigil/core'
import { parseChainId, toHexChainId, type Eip1193Provider } from './provider.js'

/** Some wallets (e.g. mobile in-app browsers) nest the 4902 code in `data.originalError`. */
function isUnrecognizedChain(error: unknown): boolean {
  if (errorCode(error) === RpcErrorCode.unrecognizedChain) return true
  const data = (error as { data?: { originalError?: unknown } } | undefined)?.data
  return data?.originalError !== undefined && errorCode(data.originalError) === RpcErrorCode.unrecognizedChain
}

/** wallet_addEthereumChain parameters for a network (EIP-3085). */
export function addChainParameters(network: CaipNetwork) {
  const rpcUrls = [...network.rpcUrls.default.http, ...(network.rpcUrls.chainDefault?.http ?? [])]
  const explorer = network.blockExplorers?.default.url
  return {
    chainId: toHexChainId(network.id),
    chainName: network.name,
    nativeCurrency: network.nativeCurrency,
    rpcUrls: [...new Set(rpcUrls)],
    ...(explorer ? { blockExplorerUrls: [explorer] } : {}),
  }
}

/**
 * Asks the wallet to switch to `network`. A wallet that does not know the chain (4902) is asked
 * to add it (wallet_addEthereumChain) and, if it did not switch while adding, to switch again.
 * Errors are catalogue errors: UserRejectedRequestError (4001), SwitchChainError (4902) with
 * 'Chain is not supported' when the chain cannot be added.
 */
export async function switchEvmChain(provider: Eip1193Provider, network: CaipNetwork): Promise<void> {
  const chainId = toHexChainId(network.id)
  try {
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId }] })
    return
  } catch (error) {
    if (!isUnrecognizedChain(error)) throw toSigilError(error)
  }
  const params = addChainParameters(network)
  if (params.rpcUrls.length === 0) throw new SwitchChainError(undefined, ErrorMessages.chainNotSupported)
  try {
    await provider.request({ method: 'wallet_addEthereumChain', params: [params] })
  } catch (error) {
    if (errorCode(error) === RpcErrorCode.userRejected) throw toSigilError(error)
    throw new SwitchChainError(error, ErrorMessages.chainNotSupported)
  }
  const current = parseChainId(await provider.request({ method: 'eth_chainId' }))
  if (current === Number(network.id)) return
  try {
    await provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId }] })
  } catch (error) {
    throw toSigilError(error)
  }
}
