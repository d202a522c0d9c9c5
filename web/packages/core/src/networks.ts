import type { CaipNetwork, CaipNetworkId } from './types.js'

/*
 * Networks as plain data. Each is its own export so a host page only ships the ones it imports.
 * `assets.imageId` names the directory's /public/getAssetImage/{id} logo.
 */

const ETH = { name: 'Ether', symbol: 'ETH', decimals: 18 } as const

export const ethereum: CaipNetwork = {
  id: 1,
  caipNetworkId: 'eip155:1',
  chainNamespace: 'eip155',
  name: 'Ethereum',
  nativeCurrency: ETH,
  rpcUrls: { default: { http: ['https://eth.merkle.io'] } },
  blockExplorers: { default: { name: 'Etherscan', url: 'https://etherscan.io' } },
  testnet: false,
  assets: { imageId: 'ethereum' },
}

export const arbitrum: CaipNetwork = {
  id: 42161,
  caipNetworkId: 'eip155:42161',
  chainNamespace: 'eip155',
  name: 'Arbitrum One',
  nativeCurrency: ETH,
  rpcUrls: { default: { http: ['https://arb1.arbitrum.io/rpc'] } },
  blockExplorers: { default: { name: 'Arbiscan', url: 'https://arbiscan.io' } },
  testnet: false,
  assets: { imageId: 'arbitrum' },
}

export const polygon: CaipNetwork = {
  id: 137,
  caipNetworkId: 'eip155:137',
  chainNamespace: 'eip155',
  name: 'Polygon',
  nativeCurrency: { name: 'POL', symbol: 'POL', decimals: 18 },
  rpcUrls: { default: { http: ['https://polygon-rpc.com'] } },
  blockExplorers: { default: { name: 'PolygonScan', url: 'https://polygonscan.com' } },
  testnet: false,
  assets: { imageId: 'polygon' },
}

const SOL = { name: 'Solana', symbol: 'SOL', decimals: 9 } as const

export const solana: CaipNetwork = {
  id: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  caipNetworkId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  chainNamespace: 'solana',
  name: 'Solana',
  nativeCurrency: SOL,
  rpcUrls: { default: { http: ['https://api.mainnet-beta.solana.com'] } },
  blockExplorers: { default: { name: 'Solscan', url: 'https://solscan.io' } },
  testnet: false,
  assets: { imageId: 'solana' },
}

export const solanaDevnet: CaipNetwork = {
  id: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  caipNetworkId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  chainNamespace: 'solana',
  name: 'Solana Devnet',
  nativeCurrency: SOL,
  rpcUrls: { default: { http: ['https://api.devnet.solana.com'] } },
  blockExplorers: { default: { name: 'Solscan', url: 'https://solscan.io/?cluster=devnet' } },
  testnet: true,
  assets: { imageId: 'solana' },
}

export const solanaTestnet: CaipNetwork = {
  id: '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
  caipNetworkId: 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
  chainNamespace: 'solana',
  name: 'Solana Testnet',
  nativeCurrency: SOL,
  rpcUrls: { default: { http: ['https://api.testnet.solana.com'] } },
  blockExplorers: { default: { name: 'Solscan', url: 'https://solscan.io/?cluster=testnet' } },
  testnet: true,
  assets: { imageId: 'solana' },
}

const BTC = { name: 'Bitcoin', symbol: 'BTC', decimals: 8 } as const

export const bitcoin: CaipNetwork = {
  id: '000000000019d6689c085ae165831e93',
  caipNetworkId: 'bip122:000000000019d6689c085ae165831e93',
  chainNamespace: 'bip122',
  name: 'Bitcoin',
  nativeCurrency: BTC,
  rpcUrls: { default: { http: [] } },
  blockExplorers: { default: { name: 'Mempool', url: 'https://mempool.space' } },
  testnet: false,
  assets: { imageId: 'bitcoin' },
}

export const bitcoinTestnet: CaipNetwork = {
  id: '000000000933ea01ad0ee984209779ba',
  caipNetworkId: 'bip122:000000000933ea01ad0ee984209779ba',
  chainNamespace: 'bip122',
  name: 'Bitcoin Testnet',
  nativeCurrency: { name: 'Testnet Bitcoin', symbol: 'tBTC', decimals: 8 },
  rpcUrls: { default: { http: [] } },
  blockExplorers: { default: { name: 'Mempool', url: 'https://mempool.space/testnet' } },
  testnet: true,
  assets: { imageId: 'bitcoin' },
}

export const SIGIL_DEV_RPC_URL = 'http://127.0.0.1:8545'

/** The local development chain (e.g. anvil) at chain id 31337; pass `rpcUrl` to point elsewhere. */
export function sigilDev(options: { rpcUrl?: string } = {}): CaipNetwork {
  const rpcUrl = options.rpcUrl ?? SIGIL_DEV_RPC_URL
  return {
    id: 31337,
    caipNetworkId: 'eip155:31337',
    chainNamespace: 'eip155',
    name: 'Sigil Dev',
    nativeCurrency: ETH,
    rpcUrls: { default: { http: [rpcUrl] } },
    testnet: true,
    // Its own icon (the server's data/icons/sigil/sigil-dev.svg), not Ethereum's.
    assets: { imageId: 'sigil-dev' },
  }
}

/**
 * The placeholder the active network becomes when a wallet sits on a chain the host did not
 * configure: no native currency, no RPC URLs. `id` is the chain reference as the wallet gave it
 * (a number for EVM chains); the CAIP-2 reference otherwise.
 */
export function unsupportedNetwork(caipNetworkId: CaipNetworkId, id?: number | string): CaipNetwork {
  const [chainNamespace, reference] = caipNetworkId.split(':') as [CaipNetwork['chainNamespace'], string]
  return {
    id: id ?? reference,
    caipNetworkId,
    chainNamespace,
    name: 'Unknown Network',
    nativeCurrency: { name: '', symbol: '', decimals: 0 },
    rpcUrls: { default: { http: [] } },
    testnet: false,
  }
}

/** True for the placeholder made by `unsupportedNetwork`. */
export function isUnsupportedNetwork(network: CaipNetwork | undefined): boolean {
  return network !== undefined && network.nativeCurrency.symbol === '' && network.rpcUrls.default.http.length === 0 && network.name === 'Unknown Network'
}

/** The network's first HTTP RPC URL, if it has one. */
export function rpcUrlOf(network: CaipNetwork): string | undefined {
  return network.rpcUrls.default.http[0] ?? network.rpcUrls.chainDefault?.http[0]
}
