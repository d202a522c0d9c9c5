import { createClient, formatUnits, http, type Address } from 'viem'
import { getBalance } from 'viem/actions'
import type { CaipNetwork } from '@sigil/core'

/** RPC client limits (spec section 9): 10 s timeout, 3 retries from 150 ms. */
const RPC_TIMEOUT_MS = 10_000
const RPC_RETRIES = 3
const RPC_RETRY_DELAY_MS = 150

/**
 * Native balance of `address` on `network`, read from the network's own RPC URL with a viem
 * client. Kept in its own module so viem loads only when a balance is wanted.
 */
export async function getNativeBalance(address: string, network: CaipNetwork): Promise<{ balance: string; symbol: string }> {
  const url = network.rpcUrls.default.http[0] ?? network.rpcUrls.chainDefault?.http[0]
  if (!url) throw new Error(`No RPC URL for ${network.caipNetworkId}`)
  // A bare client plus the one action used: createPublicClient would pull in every public action.
  const client = createClient({
    transport: http(url, { timeout: RPC_TIMEOUT_MS, retryCount: RPC_RETRIES, retryDelay: RPC_RETRY_DELAY_MS }),
  })
  const wei = await getBalance(client, { address: address as Address })
  return { balance: formatUnits(wei, network.nativeCurrency.decimals), symbol: network.nativeCurrency.symbol }
}
