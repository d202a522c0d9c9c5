/**
 * WalletConnect beyond one family: the proposal's namespaces from the host's networks and the
 * families (their methods and events: the adapters' session tests check each family's own), and
 * the accounts kept per namespace. Each family's accounts, provider and events are its
 * adapter's (adapter-evm, adapter-solana and adapter-bitcoin's session.test.ts).
 */
import { describe, expect, it } from 'vitest'
import { bitcoin, ethereum, sigilDev, solana, solanaDevnet } from '../networks.js'
import { orderAccounts } from '../session.js'
import type { CaipNetwork } from '../types.js'
import { proposalNamespaces } from './walletconnect-session.js'

const EVM = '0x1111111111111111111111111111111111111111'
const SOL = '7Np41oeYqPefeNQEHSv1UDhYrehxin3NStELsSKCT4K2'
const BTC = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'
const ORD = 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297'
const regtest: CaipNetwork = { ...bitcoin, id: '0f9188f13cb7b2c71f2a335e3a4fc328', caipNetworkId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328', name: 'Regtest' }
const localSolana: CaipNetwork = { ...solana, id: 'SigiLDevSoLanaRuntime11111111111', caipNetworkId: 'solana:SigiLDevSoLanaRuntime11111111111', name: 'Dev' }

/** The families' proposal parts, as Sigil's adapters declare them. */
const families = {
  eip155: { methods: ['eth_sendTransaction', 'personal_sign'], events: ['accountsChanged', 'chainChanged'] },
  solana: {
    methods: ['solana_signMessage', 'solana_signTransaction', 'solana_signAndSendTransaction', 'solana_signAllTransactions'],
    events: ['accountsChanged', 'chainChanged'],
  },
  bip122: { methods: ['signMessage', 'signPsbt', 'sendTransfer', 'getAccountAddresses'], events: ['bip122_addressesChanged'] },
}

describe('the proposal', () => {
  it('asks for every configured family: eip155, solana and bip122 chains as the host states them, with their methods and events', () => {
    const asked = proposalNamespaces(families, ['eip155', 'solana', 'bip122'], [sigilDev(), ethereum, localSolana, solanaDevnet, regtest])
    expect(asked.eip155?.chains).toEqual(['eip155:31337', 'eip155:1'])
    expect(asked.eip155?.methods).toContain('personal_sign')
    expect(asked.solana).toEqual({
      chains: ['solana:SigiLDevSoLanaRuntime11111111111', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'],
      methods: ['solana_signMessage', 'solana_signTransaction', 'solana_signAndSendTransaction', 'solana_signAllTransactions'],
      events: ['accountsChanged', 'chainChanged'],
    })
    expect(asked.bip122).toEqual({
      chains: ['bip122:0f9188f13cb7b2c71f2a335e3a4fc328'],
      methods: ['signMessage', 'signPsbt', 'sendTransfer', 'getAccountAddresses'],
      events: ['bip122_addressesChanged'],
    })
  })

  it('leaves out namespaces not asked for, those the host has no network in, and those no family serves', () => {
    expect(Object.keys(proposalNamespaces(families, ['eip155', 'solana'], [ethereum, localSolana, regtest]))).toEqual(['eip155', 'solana'])
    expect(Object.keys(proposalNamespaces(families, ['eip155', 'bip122'], [ethereum]))).toEqual(['eip155'])
    expect(Object.keys(proposalNamespaces({ eip155: families.eip155 }, ['eip155', 'solana'], [ethereum, localSolana]))).toEqual(['eip155'])
  })
})

describe("the session's accounts", () => {
  it("keeps, per namespace, the accounts on the host's first network the session has, in the family's order", () => {
    const all = [
      { namespace: 'eip155' as const, address: EVM, type: 'eoa' as const, chainId: 31337 },
      { namespace: 'solana' as const, address: SOL, type: 'eoa' as const, chainId: solana.id },
      { namespace: 'solana' as const, address: SOL, type: 'eoa' as const, chainId: localSolana.id },
      { namespace: 'bip122' as const, address: BTC, type: 'payment' as const, chainId: bitcoin.id },
      { namespace: 'bip122' as const, address: ORD, type: 'ordinal' as const, chainId: bitcoin.id },
    ]
    expect(orderAccounts(all, [sigilDev(), localSolana, bitcoin]).map((a) => `${a.namespace}:${a.chainId}:${a.address}:${a.type}`)).toEqual([
      `eip155:31337:${EVM}:eoa`,
      `solana:${localSolana.id}:${SOL}:eoa`,
      `bip122:${bitcoin.id}:${BTC}:payment`,
      `bip122:${bitcoin.id}:${ORD}:ordinal`,
    ])
    // the host has no network the session has in solana: all its solana accounts stay
    expect(orderAccounts(all, [solanaDevnet]).filter((a) => a.namespace === 'solana')).toHaveLength(2)
  })
})
