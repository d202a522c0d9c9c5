import { describe, expect, it, vi } from 'vitest'
import { decodeBase58, encodeBase58 } from '../base58.js'
import type { CaipNetwork } from '../types.js'
import { createEmbeddedSolanaProvider, encodeWireTransaction, withWireSignatures } from './auth-solana.js'

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

describe('the embedded wallet as a Solana provider', () => {
  it('signMessage sends the bytes base58-encoded with the pubkey, on the followed network, and gives the signature bytes', async () => {
    const signature = new Uint8Array(64).fill(9)
    const request = vi.fn(async () => ({ signature: encodeBase58(signature) }))
    const provider = createEmbeddedSolanaProvider({ walletName: 'Embedded wallet', address: () => ADDRESS, network: undefined, request })
    expect(provider.address).toBe(ADDRESS)
    expect(provider.publicKey).toEqual(new Uint8Array(32).fill(7))
    expect(provider.chain).toBe('solana:mainnet')
    provider.useNetwork(dev)
    expect(provider.chain).toBe('solana:localnet')
    expect(await provider.signMessage('hi')).toEqual(signature)
    expect(request).toHaveBeenCalledWith('solana_signMessage', { message: encodeBase58(new TextEncoder().encode('hi')), pubkey: ADDRESS }, dev.caipNetworkId)
  })

  it('a signature that is not 64 bytes, or no Solana account, is an error', async () => {
    const provider = createEmbeddedSolanaProvider({
      walletName: 'w',
      address: () => ADDRESS,
      network: dev,
      request: async () => ({ signature: encodeBase58(new Uint8Array(10)) }),
    })
    await expect(provider.signMessage('hi')).rejects.toMatchObject({ code: -32603 })
    const none = createEmbeddedSolanaProvider({ walletName: 'w', address: () => undefined, network: dev, request: async () => ({}) })
    await expect(none.signMessage('hi')).rejects.toMatchObject({ code: 4100 })
  })

  it('transactions go on the wire (count, signature slots, message) and come back with the signatures in their signers’ slots', async () => {
    const message = Uint8Array.from([1, 2, 3, 4])
    const other = new Uint8Array(64).fill(5)
    const tx = { messageBytes: message, signatures: { [ADDRESS]: null, Other111: other } }
    const wire = encodeWireTransaction(tx)
    expect(wire).toHaveLength(1 + 128 + 4)
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
    const provider = createEmbeddedSolanaProvider({ walletName: 'w', address: () => ADDRESS, network: dev, request })
    const signed = await provider.signTransaction(tx)
    expect(signed.messageBytes).toEqual(message)
    expect(Object.keys(signed.signatures)).toEqual([ADDRESS, 'Other111'])
    expect(signed.signatures[ADDRESS]).toEqual(mine)
    expect(signed.signatures.Other111).toEqual(other)
    expect(request.mock.calls[0]?.[0]).toBe('solana_signTransaction')
    // A reply for other signers is refused rather than misread.
    expect(() => withWireSignatures(tx, Uint8Array.from([1, ...mine, ...message]))).toThrow()
    expect(decodeBase58(ADDRESS)).toEqual(new Uint8Array(32).fill(7))
  })
})
