export { bitcoinAdapter, type BitcoinAdapter, type BitcoinAdapterOptions } from './adapter.js'
export { addressNetwork, addressType, BITCOIN_MAINNET, BITCOIN_REGTEST, BITCOIN_TESTNET, isBitcoinAddress, type BitcoinNetworkName } from './address.js'
export {
  isBitcoinStandardWallet,
  satsConnectBackend,
  unisatBackend,
  walletStandardBitcoinBackend,
  type SatsConnectProviderInfo,
  type UnisatApi,
} from './backends.js'
export { bitcoinConnector, type BitcoinBackend } from './connector.js'
export type { AddressPurpose, BitcoinAccount, BitcoinProvider, MessageProtocol, SignPsbtParams } from './provider.js'
export { bitcoinConnectors, type BitcoinConnectorsOptions } from './sources.js'
