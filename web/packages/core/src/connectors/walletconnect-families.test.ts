/**
 * WalletConnect beyond EVM: the proposal's namespaces from the host's networks (eip155, solana,
 * bip122 with the Solana and Bitcoin RPC references' methods and events), the settled session's
 * accounts in every namespace (Solana 'eoa', Bitcoin 'payment' unless the wallet says
 * 'ordinal'), and what each namespace's adapter gets: a Wallet Standard wallet whose features
 * send solana_* requests, and a Bitcoin backend over signMessage / signPsbt /
 * getAccountAddresses.
 */
import type { SessionTypes } from '@walletconnect/types'
import { describe, expect, it, vi } from 'vitest'
import { bitcoin, ethereum, sigilDev, solana, solanaDevnet } from '../networks.js'
import type { CaipNetwork } from '../types.js'
import {
  addSignature,
  askAddressIntentions,
  base64ToBytes,
  bitcoinEventAddresses,
  bitcoinSessionBackend,
  bytesToBase64,
  decodeBase58,
  encodeBase58,
  orderAccounts,
  proposalNamespaces,
  sessionAccounts,
  solanaSessionWallet,
  standardSolanaChain,
  type AddressIntention,
  type SessionAccess,
} from './walletconnect-families.js'

const EVM = '0x1111111111111111111111111111111111111111'
const SOL = '7Np41oeYqPefeNQEHSv1UDhYrehxin3NStELsSKCT4K2'
const SOL2 = 'GsbwXfJraMomNxBcjYLcG3mxkBUiyWXAB32fGbSMQRdW'
const BTC = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'
const ORD = 'bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297'
const regtest: CaipNetwork = { ...bitcoin, id: '0f9188f13cb7b2c71f2a335e3a4fc328', caipNetworkId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328', name: 'Regtest' }
const localSolana: CaipNetwork = { ...solana, id: 'SigiLDevSoLanaRuntime11111111111', caipNetworkId: 'solana:SigiLDevSoLanaRuntime11111111111', name: 'Dev' }

function namespaces(): SessionTypes.Namespaces {
  return {
    eip155: { chains: ['eip155:31337'], accounts: [`eip155:31337:${EVM}`], methods: ['personal_sign'], events: [] },
    solana: {
      chains: [localSolana.caipNetworkId, solana.caipNetworkId],
      accounts: [`${solana.caipNetworkId}:${SOL}`, `${localSolana.caipNetworkId}:${SOL}`],
      methods: ['solana_signMessage', 'solana_signTransaction', 'solana_signAndSendTransaction', 'solana_signAllTransactions'],
      events: ['accountsChanged', 'chainChanged'],
    },
    bip122: {
      chains: [bitcoin.caipNetworkId],
      accounts: [`${bitcoin.caipNetworkId}:${ORD}`, `${bitcoin.caipNetworkId}:${BTC}`],
      methods: ['signMessage', 'signPsbt', 'getAccountAddresses'],
      events: ['bip122_addressesChanged'],
    },
  }
}

/** A session double: the requests it got, answered by `answer`. */
function access(answer: (method: string, params: unknown, chainId: string) => unknown, ns = namespaces()) {
  const request = vi.fn(async (chainId: string, method: string, params: unknown) => answer(method, params, chainId))
  const session: SessionAccess = { namespaces: () => ns, request }
  return { session, request }
}

/** A legacy wire transaction: one signature slot for `signer` (zeros), a second key, a blockhash, no instructions. */
function wireTransaction(signer: Uint8Array, versioned = false): Uint8Array {
  const other = new Uint8Array(32).fill(7)
  const blockhash = new Uint8Array(32).fill(9)
  const message = [...(versioned ? [0x80] : []), 1, 0, 1, 2, ...signer, ...other, ...blockhash, 0, ...(versioned ? [0] : [])]
  return Uint8Array.from([1, ...new Uint8Array(64), ...message])
}

describe('the proposal', () => {
  it('asks for every configured family: eip155, solana and bip122 chains as the host states them, with their methods and events', () => {
    const asked = proposalNamespaces(['eip155', 'solana', 'bip122'], [sigilDev(), ethereum, localSolana, solanaDevnet, regtest])
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

  it('leaves out namespaces not asked for, and those the host has no network in', () => {
    expect(Object.keys(proposalNamespaces(['eip155', 'solana'], [ethereum, localSolana, regtest]))).toEqual(['eip155', 'solana'])
    expect(Object.keys(proposalNamespaces(['eip155', 'bip122'], [ethereum]))).toEqual(['eip155'])
  })
})

describe("the session's accounts", () => {
  it('reads every namespace: EVM and Solana accounts are eoa, Bitcoin ones payment unless the wallet said ordinal', () => {
    const intentions = new Map<string, AddressIntention>([[ORD, 'ordinal']])
    expect(sessionAccounts(namespaces(), intentions)).toEqual([
      { namespace: 'eip155', address: EVM, type: 'eoa', chainId: 31337 },
      { namespace: 'solana', address: SOL, type: 'eoa', chainId: solana.id },
      { namespace: 'solana', address: SOL, type: 'eoa', chainId: localSolana.id },
      { namespace: 'bip122', address: ORD, type: 'ordinal', chainId: bitcoin.id },
      { namespace: 'bip122', address: BTC, type: 'payment', chainId: bitcoin.id },
    ])
    // without the wallet saying so, payment
    expect(
      sessionAccounts(namespaces())
        .filter((a) => a.namespace === 'bip122')
        .map((a) => a.type),
    ).toEqual(['payment', 'payment'])
    // malformed entries are skipped
    expect(sessionAccounts({ solana: { chains: [], accounts: ['solana:x', 'eip155:1:0xab', 'solana:a:b:c'], methods: [], events: [] } })).toEqual([])
  })

  it("keeps, per namespace, the accounts on the host's first network the session has; Bitcoin payment addresses first", () => {
    const all = sessionAccounts(namespaces(), new Map([[ORD, 'ordinal']]))
    expect(orderAccounts(all, [sigilDev(), localSolana, bitcoin]).map((a) => `${a.namespace}:${a.chainId}:${a.address}:${a.type}`)).toEqual([
      `eip155:31337:${EVM}:eoa`,
      `solana:${localSolana.id}:${SOL}:eoa`,
      `bip122:${bitcoin.id}:${BTC}:payment`,
      `bip122:${bitcoin.id}:${ORD}:ordinal`,
    ])
    // the host has no network the session has in solana: all its solana accounts stay
    expect(orderAccounts(all, [solanaDevnet]).filter((a) => a.namespace === 'solana')).toHaveLength(2)
  })

  it('bip122_addressesChanged entries as objects with intentions, or addresses', () => {
    expect(
      bitcoinEventAddresses([{ address: BTC, intention: 'payment', publicKey: '02ab' }, { address: ORD, intention: 'ordinal' }, `bip122:x:${BTC}`, 3, {}]),
    ).toEqual([{ address: BTC, intention: 'payment', publicKey: '02ab' }, { address: ORD, intention: 'ordinal' }, { address: BTC }])
    expect(bitcoinEventAddresses(null)).toEqual([])
  })
})

describe('encodings', () => {
  it('base58 and base64 round trips; leading zeros kept', () => {
    const bytes = Uint8Array.from([0, 0, 1, 2, 255, 128])
    expect(decodeBase58(encodeBase58(bytes))).toEqual(bytes)
    expect(encodeBase58(decodeBase58(SOL))).toBe(SOL)
    expect(decodeBase58(SOL)).toHaveLength(32)
    expect(base64ToBytes(bytesToBase64(bytes))).toEqual(bytes)
    expect(() => decodeBase58('0OIl')).toThrow('Invalid base58')
  })

  it("puts a signature into the signer's slot of a legacy or versioned wire transaction", () => {
    const signer = decodeBase58(SOL)
    const signature = new Uint8Array(64).fill(5)
    for (const versioned of [false, true]) {
      const wire = wireTransaction(signer, versioned)
      const signed = addSignature(wire, signer, signature)
      expect(signed.subarray(1, 65)).toEqual(signature)
      expect(signed.subarray(65)).toEqual(wire.subarray(65))
      expect(() => addSignature(wire, decodeBase58(SOL2), signature)).toThrow('no signature slot')
    }
  })
})

describe('Solana: a Wallet Standard wallet over the session', () => {
  const features = (wallet: ReturnType<typeof solanaSessionWallet>) =>
    wallet.features as unknown as {
      'standard:connect': { connect(): Promise<{ accounts: { address: string }[] }> }
      'standard:events': { on(event: 'change', listener: (p: { accounts?: readonly { address: string }[] }) => void): () => void }
      'solana:signMessage': {
        signMessage(...inputs: { account: unknown; message: Uint8Array }[]): Promise<{ signature: Uint8Array; signedMessage: Uint8Array }[]>
      }
      'solana:signTransaction': {
        signTransaction(...inputs: { account: unknown; transaction: Uint8Array; chain?: string }[]): Promise<{ signedTransaction: Uint8Array }[]>
      }
      'solana:signAndSendTransaction': {
        signAndSendTransaction(
          ...inputs: { account: unknown; transaction: Uint8Array; chain: string; options?: object }[]
        ): Promise<{ signature: Uint8Array }[]>
      }
    }

  it("lists the session's Solana account once, with its key and the Wallet Standard chains", async () => {
    const wallet = solanaSessionWallet(access(() => undefined).session, { name: 'Phone Wallet', icon: 'data:image/png;base64,AA' })
    expect(wallet.name).toBe('Phone Wallet')
    expect(wallet.chains).toEqual(['solana:localnet', 'solana:mainnet'])
    expect(wallet.accounts.map((a) => a.address)).toEqual([SOL])
    expect(wallet.accounts[0]?.publicKey).toEqual(decodeBase58(SOL))
    expect((await features(wallet)['standard:connect'].connect()).accounts.map((a) => a.address)).toEqual([SOL])
    expect(standardSolanaChain('solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1')).toBe('solana:devnet')
  })

  it('signMessage sends solana_signMessage (base58 message, pubkey) and gives the base58 signature as bytes', async () => {
    const signature = new Uint8Array(64).fill(3)
    const { session, request } = access(() => ({ signature: encodeBase58(signature) }))
    const wallet = solanaSessionWallet(session, { name: 'W' })
    const message = new TextEncoder().encode('hello')
    const [out] = await features(wallet)['solana:signMessage'].signMessage({ account: wallet.accounts[0], message })
    expect(request).toHaveBeenCalledWith(localSolana.caipNetworkId, 'solana_signMessage', { message: encodeBase58(message), pubkey: SOL })
    expect(out?.signature).toEqual(signature)
    expect(out?.signedMessage).toEqual(message)
  })

  it('signTransaction: base64 out; the signed transaction back, or the signature put in place; several at once with solana_signAllTransactions', async () => {
    const signer = decodeBase58(SOL)
    const wire = wireTransaction(signer)
    const signature = new Uint8Array(64).fill(4)
    const signedByWallet = addSignature(wire, signer, new Uint8Array(64).fill(8))
    const { session, request } = access((method, params) => {
      if (method === 'solana_signAllTransactions')
        return { transactions: (params as { transactions: string[] }).transactions.map(() => bytesToBase64(signedByWallet)) }
      return (params as { transaction: string }).transaction === bytesToBase64(wire)
        ? { signature: encodeBase58(signature) }
        : { transaction: bytesToBase64(signedByWallet) }
    })
    const wallet = solanaSessionWallet(session, { name: 'W' })
    const sign = features(wallet)['solana:signTransaction']
    const account = wallet.accounts[0]
    const [one] = await sign.signTransaction({ account, transaction: wire, chain: 'solana:mainnet' })
    expect(request).toHaveBeenLastCalledWith(solana.caipNetworkId, 'solana_signTransaction', { transaction: bytesToBase64(wire) })
    expect(one?.signedTransaction).toEqual(addSignature(wire, signer, signature))
    const versioned = wireTransaction(signer, true)
    const [two] = await sign.signTransaction({ account, transaction: versioned, chain: 'solana:localnet' })
    expect(request).toHaveBeenLastCalledWith(localSolana.caipNetworkId, 'solana_signTransaction', { transaction: bytesToBase64(versioned) })
    expect(two?.signedTransaction).toEqual(signedByWallet)
    const all = await sign.signTransaction({ account, transaction: wire }, { account, transaction: versioned })
    expect(request).toHaveBeenLastCalledWith(localSolana.caipNetworkId, 'solana_signAllTransactions', {
      transactions: [bytesToBase64(wire), bytesToBase64(versioned)],
    })
    expect(all).toHaveLength(2)
  })

  it('signAndSendTransaction sends solana_signAndSendTransaction with its options; the base58 signature comes back as bytes', async () => {
    const signature = new Uint8Array(64).fill(6)
    const { session, request } = access(() => ({ signature: encodeBase58(signature) }))
    const wallet = solanaSessionWallet(session, { name: 'W' })
    const tx = wireTransaction(decodeBase58(SOL))
    const [out] = await features(wallet)['solana:signAndSendTransaction'].signAndSendTransaction({
      account: wallet.accounts[0],
      transaction: tx,
      chain: 'solana:localnet',
      options: { skipPreflight: true },
    })
    expect(request).toHaveBeenCalledWith(localSolana.caipNetworkId, 'solana_signAndSendTransaction', {
      transaction: bytesToBase64(tx),
      sendOptions: { skipPreflight: true },
    })
    expect(out?.signature).toEqual(signature)
  })

  it("the wallet's accountsChanged: the accounts change and standard:events listeners hear it", () => {
    const wallet = solanaSessionWallet(access(() => undefined).session, { name: 'W' })
    const heard: string[][] = []
    const off = features(wallet)['standard:events'].on('change', ({ accounts }) => heard.push((accounts ?? []).map((a) => a.address)))
    wallet.setAddresses([SOL2])
    expect(wallet.accounts.map((a) => a.address)).toEqual([SOL2])
    off()
    wallet.setAddresses([SOL])
    expect(heard).toEqual([[SOL2]])
  })
})

describe('Bitcoin: a backend over the session', () => {
  const info = { id: 'walletConnect', name: 'Phone Wallet', chain: 'bip122' as const, type: 'WALLET_CONNECT' as const }

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
    if (without.bip122) without.bip122.methods = ['signMessage']
    expect(await askAddressIntentions(access(() => answers, without).session, 1000)).toEqual([])
  })
})
