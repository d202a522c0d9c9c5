import { isEvmAddress, type WalletAsset } from '@sigil/core'
import { toHexChainId, type Eip1193Provider } from './provider.js'

/** EIP-5792 capabilities of one chain, as far as asset discovery goes. */
function supportsAssetDiscovery(capabilities: unknown, chainHex: string): boolean {
  if (typeof capabilities !== 'object' || capabilities === null) return false
  const forChain = (capabilities as Record<string, unknown>)[chainHex]
  if (typeof forChain !== 'object' || forChain === null) return false
  const discovery = (forChain as Record<string, unknown>).assetDiscovery
  return typeof discovery === 'object' && discovery !== null && (discovery as { supported?: unknown }).supported === true
}

const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/

/** One ERC-7811 asset entry as a WalletAsset; undefined for NFTs and anything malformed. */
function toWalletAsset(entry: unknown): WalletAsset | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined
  const { address, balance, type, metadata } = entry as Record<string, unknown>
  if (type !== 'native' && type !== 'erc20') return undefined
  if (typeof balance !== 'string' || !HEX_QUANTITY.test(balance)) return undefined
  const meta = (typeof metadata === 'object' && metadata !== null ? metadata : {}) as Record<string, unknown>
  const decimals = typeof meta.decimals === 'number' ? meta.decimals : type === 'native' ? 18 : undefined
  if (decimals === undefined || !Number.isInteger(decimals) || decimals < 0 || decimals > 255) return undefined
  const symbol = typeof meta.symbol === 'string' ? meta.symbol : undefined
  if (!symbol) return undefined
  const name = typeof meta.name === 'string' && meta.name ? meta.name : symbol
  if (type === 'native') return { balance: BigInt(balance), decimals, name, symbol }
  if (typeof address !== 'string' || !isEvmAddress(address)) return undefined
  return { address, balance: BigInt(balance), decimals, name, symbol }
}

/**
 * The account's native and ERC-20 assets on one chain as the wallet reports them (ERC-7811
 * wallet_getAssets), when its EIP-5792 capabilities say it offers asset discovery there;
 * undefined otherwise, or when the wallet fails to answer, so the caller asks the balance service.
 * Capabilities are asked once per account and chain.
 */
export function createAssetDiscovery() {
  const supported = new Map<string, boolean>()
  return {
    async getAssets(provider: Eip1193Provider, address: string, chainId: number | string): Promise<WalletAsset[] | undefined> {
      const chainHex = toHexChainId(chainId)
      const key = `${address.toLowerCase()}:${chainHex}`
      let ok = supported.get(key)
      if (ok === undefined) {
        try {
          ok = supportsAssetDiscovery(await provider.request({ method: 'wallet_getCapabilities', params: [address, [chainHex]] }), chainHex)
        } catch {
          ok = false // most wallets do not know the method yet
        }
        supported.set(key, ok)
      }
      if (!ok) return undefined
      try {
        const result = await provider.request({ method: 'wallet_getAssets', params: [{ account: address, chainFilter: [chainHex] }] })
        const list = typeof result === 'object' && result !== null ? (result as Record<string, unknown>)[chainHex] : undefined
        if (!Array.isArray(list)) return undefined
        return list.map(toWalletAsset).filter((a): a is WalletAsset => a !== undefined)
      } catch {
        return undefined
      }
    },
    /** Forgets what wallets said (another wallet or account connected). */
    clear() {
      supported.clear()
    },
  }
}
