export { evmAdapter, type EvmAdapter, type EvmAdapterOptions } from './adapter.js'
export { createDiscovery, LEGACY_INJECTED_ID, LEGACY_INJECTED_NAME, type DiscoveredWallet, type Discovery, type DiscoveryWindow } from './discovery.js'
export { addChainParameters, switchEvmChain } from './switch-chain.js'
export { parseChainId, toHexChainId, utf8ToHex, type Eip1193Provider, type ProviderInfo } from './provider.js'
