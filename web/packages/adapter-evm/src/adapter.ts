import { toSigilError, type ChainAdapter, type Eip1193Provider } from '@sigil/core'
import { isEvmAddress } from './address.js'
import type { createAssetDiscovery } from './assets.js'
import { injectedConnectors } from './injected.js'
import { utf8ToHex } from './provider.js'

/** The eip155 chain adapter: what Sigil does with an EVM wallet's EIP-1193 provider. */
export interface EvmAdapter extends ChainAdapter<Eip1193Provider> {
  readonly namespace: 'eip155'
}

/**
 * EVM chains (eip155), over the EIP-1193 provider of whichever connector reached the wallet:
 * address rules, switching with add-on-4902 (EIP-3085), personal_sign, asset discovery
 * (EIP-5792 capabilities + ERC-7811 wallet_getAssets; otherwise balances come from the Sigil
 * server), ENS names from the Sigil server, EIP-55 addresses in sign-in messages, and sends of
 * the native currency and ERC-20 tokens, and of ERC-721 and ERC-1155 NFTs (loaded on the first send),
 * contract calls for swaps, batched by EIP-5792 where the wallet can (loaded on the first swap). The
 * page's EVM wallets are its injected ones (EIP-6963 and window.ethereum); over WalletConnect
 * and the embedded wallet's frame, an EIP-1193 provider over the session (loaded with it).
 */
export function evmAdapter(): EvmAdapter {
  // Asset discovery loads with the first balance wanted, and switching with the first switch: not with the page.
  let assets: Promise<ReturnType<typeof createAssetDiscovery>> | undefined
  const loadAssets = () => {
    assets ??= import('./assets.js').then((m) => m.createAssetDiscovery())
    assets.catch(() => (assets = undefined))
    return assets
  }
  // NFT sends load with the first one (one import site: the page's script stays small).
  const nft = () => import('./nft.js')
  return {
    namespace: 'eip155',
    isAddress: isEvmAddress,
    switchNetwork: async (provider, network) => (await import('./switch-chain.js')).switchEvmChain(provider, network),
    async signMessage(provider, message, address) {
      try {
        return String(await provider.request({ method: 'personal_sign', params: [utf8ToHex(message), address] }))
      } catch (error) {
        throw toSigilError(error)
      }
    },
    getAssets: async (provider, address, network) => (await loadAssets()).getAssets(provider, address, network.id),
    sendTransfer: async (provider, transfer) => (await import('./send.js')).sendEvmTransfer(provider, transfer),
    transferFee: async (provider, transfer) => (await import('./send.js')).evmTransferFee(provider, transfer),
    sendNft: async (provider, transfer) => (await nft()).sendEvmNft(provider, transfer),
    nftTransferFee: async (provider, transfer) => (await nft()).evmNftFee(provider, transfer),
    getIdentity: (address, api) => api.getIdentity(address, { sender: address }),
    resolveName: async (name, network, api) => (await api.resolveName?.(name, { chainId: network.caipNetworkId })) ?? undefined,
    async displayAddress(address) {
      const { toChecksumAddress } = await import('./checksum.js')
      return toChecksumAddress(address)
    },
    async signInAccount(address) {
      const { toChecksumAddress } = await import('./checksum.js')
      return { label: 'Ethereum', address: toChecksumAddress(address) }
    },
    connectors: injectedConnectors,
    session: { load: () => import('./session.js').then((m) => m.evmSession) },
    calls: { load: () => import('./calls.js').then((m) => m.evmCalls) },
  }
}
