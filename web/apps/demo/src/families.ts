import { bitcoinAdapter, bitcoinConnectors } from '@sigil/adapter-bitcoin'
import { solanaAdapter, solanaConnectors } from '@sigil/adapter-solana'
import type { ChainAdapter, ChainNamespace, ConnectorSource } from '@sigil/core'
import { config } from './config.js'

/**
 * The Solana and Bitcoin parts of the page, loaded only when the page configures those
 * families (an EVM-only page never downloads them).
 */
export interface FamilyParts {
  adapters: ChainAdapter[]
  connectors: ConnectorSource[]
}

export function familyParts(families: readonly ChainNamespace[]): FamilyParts {
  const adapters: ChainAdapter[] = []
  const connectors: ConnectorSource[] = []
  if (families.includes('solana')) {
    adapters.push(solanaAdapter() as ChainAdapter)
    connectors.push(solanaConnectors())
  }
  if (families.includes('bip122')) {
    adapters.push(bitcoinAdapter({ signInProtocol: config.bitcoinSignIn }) as ChainAdapter)
    connectors.push(bitcoinConnectors())
  }
  return { adapters, connectors }
}
