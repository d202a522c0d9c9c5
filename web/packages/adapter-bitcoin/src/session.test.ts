/**
 * Bitcoin over a session transport (WalletConnect): the proposal's bip122 methods and events, the
 * session's accounts ('payment' unless the wallet says 'ordinal'), what the wallet says of its
 * addresses (getAccountAddresses, bip122_addressesChanged), and a Bitcoin backend over
 * signMessage / signPsbt that the adapter wraps.
 */
import type { CaipNetwork } from '@sigil/core'
import { bitcoin, sigilDev } from '@sigil/core/networks'
import { orderAccounts } from '@sigil/core/session'
import { describe, expect, it, vi } from 'vitest'
import { fakeTransport } from '../../core/src/test-utils/index.js'
import { askAddressIntentions, bitcoinEventAddresses, bitcoinSession, bitcoinSessionBackend, type AddressIntention } from './session.js'

const EVM = '0x1111111111111111111111111111111111111111'
const BTC = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'
const ORD = 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297'
const regtest: CaipNetwork = { ...bitcoin, id: '0f9188f13cb7b2c71f2a335e3a4fc328', caipNetworkId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328', name: 'Regtest' }

function namespaces() {
  return {
    eip155: { chains: ['eip155:31337'], accounts: [`eip155:31337:${EVM}`], methods: ['personal_sign'], events: [] },
    bip122: {
      chains: [bitcoin.caipNetworkId],
      accounts: [`${bitcoin.caipNetworkId}:${ORD}`, `${bitcoin.caipNetworkId}:${BTC}`],
      methods: ['signMessage', 'signPsbt', 'getAccountAddresses'],
      events: ['bip122_addressesChanged'],
    },
  }
}

/** A session double: the requests it got, answered by `answer`. */
function access(answer: (method: string, params: unknown, chainId: string) => unknown, ns: ReturnType<typeof namespaces> = namespaces()) {
  const request = vi.fn(async (chainId: string, method: string, params: unknown) => answer(method, params, chainId))
  return { session: fakeTransport(() => ns, request), request }
}

describe('the proposal and the session’s accounts', () => {
  it('asks for the Bitcoin RPC methods and events', () => {
    expect({ methods: bitcoinSession.methods, events: bitcoinSession.events }).toEqual({
      methods: ['signMessage', 'signPsbt', 'sendTransfer', 'getAccountAddresses'],
      events: ['bip122_addressesChanged'],
    })
  })

  it('Bitcoin accounts are payment unless the wallet said ordinal; payment addresses first', async () => {
    const { session } = access(() => [{ address: ORD, intention: 'ordinal' }])
    // without the wallet saying so, payment
    expect(bitcoinSession.accounts(session).map((a) => a.type)).toEqual(['payment', 'payment'])
    // what the wallet says, asked once when the session is new, is kept with it
    await bitcoinSession.prepare?.(session)
    expect(session.kept.get('bip122-intentions')).toEqual({ [ORD]: 'ordinal' })
    const all = bitcoinSession.accounts(session)
    expect(all).toEqual([
      { namespace: 'bip122', address: BTC, type: 'payment', chainId: bitcoin.id },
      { namespace: 'bip122', address: ORD, type: 'ordinal', chainId: bitcoin.id },
    ])
    expect(orderAccounts(all, [sigilDev(), bitcoin]).map((a) => `${a.namespace}:${a.chainId}:${a.address}:${a.type}`)).toEqual([
      `bip122:${bitcoin.id}:${BTC}:payment`,
      `bip122:${bitcoin.id}:${ORD}:ordinal`,
    ])
  })

  it('bip122_addressesChanged entries as objects with intentions, or addresses', () => {
    expect(
      bitcoinEventAddresses([{ address: BTC, intention: 'payment', publicKey: '02ab' }, { address: ORD, intention: 'ordinal' }, `bip122:x:${BTC}`, 3, {}]),
    ).toEqual([{ address: BTC, intention: 'payment', publicKey: '02ab' }, { address: ORD, intention: 'ordinal' }, { address: BTC }])
    expect(bitcoinEventAddresses(null)).toEqual([])
  })
})

describe('Bitcoin: a backend over the session', () => {
  const info = { id: 'walletConnect', name: 'Phone Wallet', chain: 'bip122' as const, namespaces: ['bip122' as const], type: 'WALLET_CONNECT' as const }

  it('accounts payment first; signMessage and signPsbt go as the Bitcoin RPC asks, on the account’s chain', async () => {
    const { session, request } = access((method) =>
      method === 'signMessage' ? { address: BTC, signature: 'c2ln', messageHash: '' } : { psbt: 'cHNidA==', txid: 'ab' },
    )
    const backend = bitcoinSessionBackend(session, info, new Map([[ORD, 'ordinal']]))
    const accounts = await backend.accounts()
    expect(accounts).toEqual([
      { address: BTC, purpose: 'payment' },
      { address: ORD, purpose: 'ordinals' },
    ])
    expect(await backend.signMessage(accounts[0] as (typeof accounts)[0], 'hi', 'bip322')).toBe('c2ln')
    expect(request).toHaveBeenLastCalledWith(bitcoin.caipNetworkId, 'signMessage', { account: BTC, address: BTC, message: 'hi', protocol: 'bip322' })
    expect(await backend.signPsbt({ psbt: 'cHNidA==', signInputs: { [BTC]: [0, 2] }, broadcast: true })).toEqual({ psbt: 'cHNidA==', txid: 'ab' })
    expect(request).toHaveBeenLastCalledWith(bitcoin.caipNetworkId, 'signPsbt', {
      account: BTC,
      psbt: 'cHNidA==',
      signInputs: [
        { address: BTC, index: 0 },
        { address: BTC, index: 2 },
      ],
      broadcast: true,
    })
  })

  it('sendTransfer: the session method with the amount in satoshis as a string; the txid back', async () => {
    const { session, request } = access(() => ({ txid: 'cd' }))
    const backend = bitcoinSessionBackend(session, info, new Map([[ORD, 'ordinal']]))
    expect(await backend.sendTransfer?.({ to: ORD, amount: 15_000n })).toBe('cd')
    expect(request).toHaveBeenLastCalledWith(bitcoin.caipNetworkId, 'sendTransfer', { account: BTC, recipientAddress: ORD, amount: '15000' })
    const silent = bitcoinSessionBackend(access(() => ({})).session, info, new Map())
    await expect(silent.sendTransfer?.({ to: ORD, amount: 1n })).rejects.toThrow('no transaction id')
  })

  it('bip122_addressesChanged: the watcher gets the new accounts with what the wallet says they are for', async () => {
    const intentions = new Map<string, AddressIntention>()
    const backend = bitcoinSessionBackend(access(() => undefined).session, info, intentions)
    const seen: unknown[] = []
    backend.watch((accounts) => seen.push(accounts))
    backend.setAddresses([
      { address: ORD, intention: 'ordinal' },
      { address: BTC, intention: 'payment', publicKey: '02aa' },
    ])
    expect(seen).toEqual([
      [
        { address: BTC, purpose: 'payment', publicKey: '02aa' },
        { address: ORD, purpose: 'ordinals' },
      ],
    ])
    expect(intentions.get(ORD)).toBe('ordinal')
  })

  it('getAccountAddresses when the session allows it; nothing when the wallet fails or is slow', async () => {
    const answers = [
      { address: BTC, intention: 'payment' },
      { address: ORD, intention: 'ordinal' },
    ]
    const { session, request } = access(() => answers)
    expect(await askAddressIntentions(session, 1000)).toEqual(answers)
    expect(request).toHaveBeenCalledWith(bitcoin.caipNetworkId, 'getAccountAddresses', { account: ORD })
    expect(await askAddressIntentions(access(() => Promise.reject(new Error('no'))).session, 1000)).toEqual([])
    expect(await askAddressIntentions(access(() => new Promise(() => undefined)).session, 10)).toEqual([])
    const without = namespaces()
    without.bip122.methods = ['signMessage']
    expect(await askAddressIntentions(access(() => answers, without).session, 1000)).toEqual([])
  })

  it('bound to the session: the provider over the backend; the wallet’s address changes are kept for a reload and heard, payment first', async () => {
    const { session } = access((method) => (method === 'signMessage' ? { signature: 'c2ln' } : undefined))
    const binding = bitcoinSession.open(session, {
      network: regtest,
      accounts: [{ namespace: 'bip122', address: BTC, type: 'payment', chainId: bitcoin.id }],
    })
    expect(binding.provider.walletName).toBe('Phone Wallet')
    expect(await binding.provider.signMessage({ address: BTC, message: 'hi' })).toBe('c2ln')
    expect(
      binding.event?.(
        'bip122_addressesChanged',
        [
          { address: ORD, intention: 'ordinal' },
          { address: BTC, intention: 'payment' },
        ],
        bitcoin.caipNetworkId,
      ),
    ).toEqual({ accounts: [BTC, ORD] })
    expect(session.kept.get('bip122-intentions')).toEqual({ [ORD]: 'ordinal', [BTC]: 'payment' })
    expect(binding.provider.accounts.map((a) => a.purpose)).toEqual(['payment', 'ordinals'])
    expect(binding.event?.('accountsChanged', [BTC], bitcoin.caipNetworkId)).toBeUndefined()
  })
})
