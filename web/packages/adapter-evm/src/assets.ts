import type { WalletAsset } from '@sigil/core'
import { isEvmAddress } from './address.js'
import { toHexChainId, type Eip1193Provider } from './provider.js'

/** `value[key]` when `value` is an object; undefined otherwise (wallet answers are untrusted). */
const field = (value: unknown, key: string): unknown => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined)

const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/

/** One ERC-7811 asset entry as a WalletAsset; undefined for NFTs and anything malformed. */
function toWalletAsset(entry: unknown): WalletAsset | undefined {
  const [address, balance, type, metadata] = ['address', 'balance', 'type', 'metadata'].map((k) => field(entry, k))
  if (type !== 'native' && type !== 'erc20') return undefined
  if (typeof balance !== 'string' || !HEX_QUANTITY.test(balance)) return undefined
  const [decimalsField, symbol, nameField] = ['decimals', 'symbol', 'name'].map((k) => field(metadata, k))
  const decimals = typeof decimalsField === 'number' ? decimalsField : type === 'native' ? 18 : undefined
  if (decimals === undefined || !Number.isInteger(decimals) || decimals < 0 || decimals > 255) return undefined
  if (typeof symbol !== 'string' || !symbol) return undefined
  const name = typeof nameField === 'string' && nameField ? nameField : symbol
  if (type === 'native') return { balance: BigInt(balance), decimals, name, symbol }
  if (typeof address !== 'string' || !isEvmAddress(address)) return undefined
  return { address, balance: BigInt(balance), decimals, name, symbol }
}

/**
 * The account's native and ERC-20 assets on one chain as the wallet reports them (ERC-7811
 * wallet_getAssets), when its EIP-5792 capabilities say it offers asset discovery there;
 * undefined otherwise, or when the wallet fails to answer, so the caller asks the balance service.
 * Capabilities are asked once per wallet, account and chain.
 */
export function createAssetDiscovery() {
  let answers = new WeakMap<Eip1193Provider, Map<string, boolean>>()
  return {
    async getAssets(provider: Eip1193Provider, address: string, chainId: number | string): Promise<WalletAsset[] | undefined> {
      const chainHex = toHexChainId(chainId)
      const key = `${address.toLowerCase()}:${chainHex}`
      const supported = answers.get(provider) ?? new Map<string, boolean>()
      answers.set(provider, supported)
      let ok = supported.get(key)
      if (ok === undefined) {
        try {
          const capabilities = await provider.request({ method: 'wallet_getCapabilities', params: [address, [chainHex]] })
          ok = field(field(field(capabilities, chainHex), 'assetDiscovery'), 'supported') === true
        } catch {
          ok = false // most wallets do not know the method yet
        }
        supported.set(key, ok)
      }
      if (!ok) return undefined
      try {
        const result = await provider.request({ method: 'wallet_getAssets', params: [{ account: address, chainFilter: [chainHex] }] })
        const list = field(result, chainHex)
        if (!Array.isArray(list)) return undefined
        return list.map(toWalletAsset).filter((a): a is WalletAsset => a !== undefined)
      } catch {
        return undefined
      }
    },
    /** Forgets what wallets said. */
    clear() {
      answers = new WeakMap()
    },
  }
}
