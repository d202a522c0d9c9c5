export { createWagmiAdapter, WagmiAdapter, type WagmiAdapterOptions } from './adapter.js'
export { SIGIL_CONNECTOR_ID, sigilAccount, sigilConnector, type SigilBridge } from './connector.js'
export { sigilRpcUrl, toWagmiChain } from './chains.js'
