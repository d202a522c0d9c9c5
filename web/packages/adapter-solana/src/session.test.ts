/**
 * Solana over a session transport (WalletConnect, the embedded wallet's frame): the proposal's
 * solana methods and events, the session's Solana accounts, the encodings (@solana/kit's codecs),
 * and a Wallet Standard wallet whose features send solana_* requests through the transport,
 * wrapped in the adapter's provider.
 */
import type { CaipNetwork } from '@sigil/core'
import { solana, solanaDevnet } from '@sigil/core/networks'
import { orderAccounts } from '@sigil/core/session'
import { getTransactionDecoder, getTransactionEncoder, type Transaction } from '@solana/kit'
import { describe, expect, it, vi } from 'vitest'
import { fakeTransport } from '../../core/src/test-utils/index.js'
import {
  addSignature,
  base64ToBytes,
  bytesToBase64,
  decodeBase58,
  encodeBase58,
  SOLANA_EVENTS,
  SOLANA_METHODS,
  solanaSession,
  solanaSessionWallet,
  standardSolanaChain,
} from './session.js'

const EVM = '0x1111111111111111111111111111111111111111'
const SOL = '7Np41oeYqPefeNQEHSv1UDhYrehxin3NStELsSKCT4K2'
const SOL2 = 'GsbwXfJraMomNxBcjYLcG3mxkBUiyWXAB32fGbSMQRdW'
const localSolana: CaipNetwork = { ...solana, id: 'SigiLDevSoLanaRuntime11111111111', caipNetworkId: 'solana:SigiLDevSoLanaRuntime11111111111', name: 'Dev' }

function namespaces() {
  return {
    eip155: { chains: ['eip155:31337'], accounts: [`eip155:31337:${EVM}`], methods: ['personal_sign'], events: [] },
    solana: {
      chains: [localSolana.caipNetworkId, solana.caipNetworkId],
      accounts: [`${solana.caipNetworkId}:${SOL}`, `${localSolana.caipNetworkId}:${SOL}`],
      methods: ['solana_signMessage', 'solana_signTransaction', 'solana_signAndSendTransaction', 'solana_signAllTransactions'],
      events: ['accountsChanged', 'chainChanged'],
    },
  }
}

/** A session double: the requests it got, answered by `answer`. */
function access(answer: (method: string, params: unknown, chainId: string) => unknown, ns = namespaces()) {
  const request = vi.fn(async (chainId: string, method: string, params: unknown) => answer(method, params, chainId))
  return { session: fakeTransport(() => ns, request), request }
}

/** A legacy wire transaction: one signature slot for `signer` (zeros), a second key, a blockhash, no instructions. */
function wireTransaction(signer: Uint8Array, versioned = false): Uint8Array {
  const other = new Uint8Array(32).fill(7)
  const blockhash = new Uint8Array(32).fill(9)
  const message = [...(versioned ? [0x80] : []), 1, 0, 1, 2, ...signer, ...other, ...blockhash, 0, ...(versioned ? [0] : [])]
  return Uint8Array.from([1, ...new Uint8Array(64), ...message])
}

describe('the proposal and the session’s accounts', () => {
  it('asks for the Solana RPC methods and events', () => {
    expect({ methods: solanaSession.methods, events: solanaSession.events }).toEqual({
      methods: ['solana_signMessage', 'solana_signTransaction', 'solana_signAndSendTransaction', 'solana_signAllTransactions'],
      events: ['accountsChanged', 'chainChanged'],
    })
    expect(SOLANA_METHODS).toBe(solanaSession.methods)
    expect(SOLANA_EVENTS).toBe(solanaSession.events)
  })

  it("Solana accounts are eoa, per chain; kept on the host's first network the session has, else all", () => {
    const all = solanaSession.accounts(access(() => undefined).session)
    expect(all).toEqual([
      { namespace: 'solana', address: SOL, type: 'eoa', chainId: solana.id },
      { namespace: 'solana', address: SOL, type: 'eoa', chainId: localSolana.id },
    ])
    expect(orderAccounts(all, [localSolana]).map((a) => `${a.namespace}:${a.chainId}:${a.address}:${a.type}`)).toEqual([`solana:${localSolana.id}:${SOL}:eoa`])
    // the host has no network the session has in solana: all its solana accounts stay
    expect(orderAccounts(all, [solanaDevnet]).filter((a) => a.namespace === 'solana')).toHaveLength(2)
    // malformed entries are skipped
    expect(
      solanaSession.accounts(
        access(() => undefined, { solana: { chains: [], accounts: ['solana:x', 'eip155:1:0xab', 'solana:a:b:c'], methods: [], events: [] } } as never).session,
      ),
    ).toEqual([])
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
    const { session } = access(() => undefined)
    const wallet = solanaSessionWallet(fakeTransport(() => namespaces(), session.request, { peer: { name: 'Phone Wallet', icon: 'data:image/png;base64,AA' } }))
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
    const wallet = solanaSessionWallet(session)
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
    const wallet = solanaSessionWallet(session)
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
    const wallet = solanaSessionWallet(session)
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
    const wallet = solanaSessionWallet(access(() => undefined).session)
    const heard: string[][] = []
    const off = features(wallet)['standard:events'].on('change', ({ accounts }) => heard.push((accounts ?? []).map((a) => a.address)))
    wallet.setAddresses([SOL2])
    expect(wallet.accounts.map((a) => a.address)).toEqual([SOL2])
    off()
    wallet.setAddresses([SOL])
    expect(heard).toEqual([[SOL2]])
  })

  it("the wallet's events, for the solana chains only: accounts, and the cluster it moved to", () => {
    const { session } = access(() => undefined)
    const binding = solanaSession.open(session, {
      network: localSolana,
      accounts: [{ namespace: 'solana', address: SOL, type: 'eoa', chainId: localSolana.id }],
    })
    expect(binding.event?.('accountsChanged', [`${solana.caipNetworkId}:${SOL2}`], solana.caipNetworkId)).toEqual({ accounts: [SOL2] })
    expect(binding.provider.address).toBe(SOL2)
    expect(binding.event?.('chainChanged', solanaDevnet.caipNetworkId, solana.caipNetworkId)).toEqual({ chainId: solanaDevnet.id })
    expect(binding.event?.('chainChanged', 'abc', solana.caipNetworkId)).toEqual({ chainId: 'abc' })
    expect(binding.event?.('accountsChanged', [SOL], undefined)).toBeUndefined()
    expect(binding.event?.('accountsChanged', [SOL], 'eip155:1')).toBeUndefined()
  })
})

/** The embedded wallet's frame as a transport: a user's Solana account on the host's networks; it signs messages and transactions only. */
function frameTransport(address: string | undefined, request: (method: string, params: Record<string, unknown>, chainId: string) => Promise<unknown>) {
  return fakeTransport(
    () => ({
      solana: {
        chains: [dev.caipNetworkId],
        accounts: address ? [`${dev.caipNetworkId}:${address}`] : [],
        methods: ['solana_signMessage', 'solana_signTransaction'],
      },
    }),
    (chainId, method, params) => request(method, params as Record<string, unknown>, chainId),
    { peer: { connectorId: 'sigil-embedded', type: 'AUTH', name: 'Embedded wallet' } },
  )
}

const dev: CaipNetwork = {
  id: 'SigiLDevSoLanaRuntime11111111111',
  caipNetworkId: 'solana:SigiLDevSoLanaRuntime11111111111',
  chainNamespace: 'solana',
  name: 'Sigil Solana Dev',
  nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
  rpcUrls: { default: { http: ['http://rpc.invalid/v1?chainId=solana:dev'] } },
  testnet: true,
}
const ADDRESS = encodeBase58(new Uint8Array(32).fill(7))
const OTHER_SIGNER = encodeBase58(new Uint8Array(32).fill(5))
const open = (transport: ReturnType<typeof frameTransport>, network: CaipNetwork | undefined) =>
  solanaSession.open(transport, { network, accounts: [{ namespace: 'solana', address: ADDRESS, type: 'eoa', chainId: dev.id }] }).provider

/** A legacy message both ADDRESS and OTHER_SIGNER sign: header, the two keys, a blockhash, no instructions. */
const twoSignerMessage = () => Uint8Array.from([2, 0, 0, 2, ...new Uint8Array(32).fill(7), ...new Uint8Array(32).fill(5), ...new Uint8Array(32).fill(9), 0])

describe('the embedded wallet as a Solana provider', () => {
  it('signMessage sends the bytes base58-encoded with the pubkey, on the followed network, and gives the signature bytes', async () => {
    const signature = new Uint8Array(64).fill(9)
    const request = vi.fn(async (..._args: unknown[]) => ({ signature: encodeBase58(signature) }))
    const provider = open(frameTransport(ADDRESS, request), undefined)
    expect(provider.walletName).toBe('Embedded wallet')
    expect(provider.address).toBe(ADDRESS)
    expect(provider.publicKey).toEqual(new Uint8Array(32).fill(7))
    expect(provider.chain).toBe('solana:mainnet')
    provider.useNetwork(dev)
    expect(provider.chain).toBe('solana:localnet')
    expect(await provider.signMessage('hi')).toEqual(signature)
    expect(request).toHaveBeenCalledWith('solana_signMessage', { message: encodeBase58(new TextEncoder().encode('hi')), pubkey: ADDRESS }, dev.caipNetworkId)
  })

  it('a signature that is not 64 bytes, or no Solana account, is an error', async () => {
    const provider = open(
      frameTransport(ADDRESS, async () => ({ signature: encodeBase58(new Uint8Array(10)) })),
      dev,
    )
    await expect(provider.signMessage('hi')).rejects.toMatchObject({ code: -32603 })
    const none = open(
      frameTransport(undefined, async () => ({})),
      dev,
    )
    await expect(none.signMessage('hi')).rejects.toMatchObject({ code: 4100 })
  })

  it('transactions go on the wire (count, signature slots, message) and come back with the signatures in their signers’ slots', async () => {
    const message = twoSignerMessage()
    const other = new Uint8Array(64).fill(5)
    const tx = { messageBytes: message, signatures: { [ADDRESS]: null, [OTHER_SIGNER]: other } } as unknown as Transaction
    const wire = new Uint8Array(getTransactionEncoder().encode(tx))
    expect(wire).toHaveLength(1 + 128 + message.length)
    expect(wire[0]).toBe(2)
    expect(wire.slice(1, 65).every((b) => b === 0)).toBe(true)
    expect(wire.slice(65, 129)).toEqual(other)
    expect(wire.slice(129)).toEqual(message)

    const mine = new Uint8Array(64).fill(3)
    const request = vi.fn(async (_method: string, params: Record<string, unknown>) => {
      const bytes = Uint8Array.from(atob(String(params.transaction)), (c) => c.charCodeAt(0))
      bytes.set(mine, 1)
      return { transaction: btoa(String.fromCharCode(...bytes)) }
    })
    const provider = open(frameTransport(ADDRESS, request), dev)
    const signed = await provider.signTransaction(tx)
    expect(signed.messageBytes).toEqual(message)
    expect(Object.keys(signed.signatures)).toEqual([ADDRESS, OTHER_SIGNER])
    expect(signed.signatures[ADDRESS as keyof typeof signed.signatures]).toEqual(mine)
    expect(signed.signatures[OTHER_SIGNER as keyof typeof signed.signatures]).toEqual(other)
    expect(request.mock.calls[0]?.[0]).toBe('solana_signTransaction')
    // A reply for other signers is refused rather than misread.
    expect(() => getTransactionDecoder().decode(Uint8Array.from([1, ...mine, ...message]))).toThrow()
    expect(decodeBase58(ADDRESS)).toEqual(new Uint8Array(32).fill(7))
  })

  it('signAndSendTransaction: signed in the frame, sent through the network’s RPC endpoint', async () => {
    const request = vi.fn(async (_method: string, params: Record<string, unknown>) => ({ transaction: params.transaction }))
    const fetchFn = vi.fn(async (..._args: unknown[]) => new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result: 'sig58' }), { status: 200 }))
    vi.stubGlobal('fetch', fetchFn)
    const provider = open(frameTransport(ADDRESS, request), dev)
    const tx = { messageBytes: twoSignerMessage(), signatures: { [ADDRESS]: null, [OTHER_SIGNER]: null } } as unknown as Transaction
    expect(await provider.signAndSendTransaction(tx)).toBe('sig58')
    expect(request.mock.calls.map((c) => c[0])).toEqual(['solana_signTransaction'])
    expect(fetchFn.mock.calls[0]?.[0]).toBe(dev.rpcUrls.default.http[0])
    expect(JSON.parse(String((fetchFn.mock.calls[0]?.[1] as RequestInit | undefined)?.body))).toMatchObject({
      method: 'sendTransaction',
      params: [expect.any(String), { encoding: 'base64' }],
    })
  })
})
