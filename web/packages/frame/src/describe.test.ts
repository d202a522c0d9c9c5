import { describe as group, expect, it } from 'vitest'
import { encodeBase58 } from '@sigil/core/base58'
import { describe, formatEther } from './describe.js'

group('approval texts', () => {
  it('personal_sign shows the message as text (or hex for binary data)', () => {
    const hello = `0x${Array.from(new TextEncoder().encode('Hello from the Sigil demo'), (b) => b.toString(16).padStart(2, '0')).join('')}`
    expect(describe('personal_sign', [hello, '0xabc'], 'eip155:1')).toEqual({
      title: 'Sign this message',
      lines: ['Network: eip155:1', 'From 0xabc'],
      body: 'Hello from the Sigil demo',
    })
    expect(describe('personal_sign', ['0x0001ff'], 'eip155:1').body).toBe('Binary data: 0x0001ff')
  })

  it('typed data names its type, domain and fields', () => {
    const typed = { domain: { name: 'Shop' }, primaryType: 'Order', message: { item: 'book', price: { amount: 3 } } }
    const d = describe('eth_signTypedData_v4', ['0xabc', JSON.stringify(typed)], 'eip155:10')
    expect(d.title).toBe('Sign Order data for Shop')
    expect(d.body).toBe('item: book\nprice.amount: 3')
  })

  it('a transaction says what it sends to whom, and how much call data', () => {
    const d = describe('eth_sendTransaction', [{ to: '0xdef', value: '0x2386f26fc10000', data: '0xa9059cbb00' }], 'eip155:31337')
    expect(d.title).toBe('Send 0.01 ETH to 0xdef')
    expect(d.lines).toContain('With 5 bytes of contract call data')
    expect(formatEther('0xde0b6b3a7640000')).toBe('1 ETH')
    expect(formatEther('1')).toBe('0 ETH')
    expect(describe('eth_sendTransaction', [{ value: '0x0' }], 'eip155:1').title).toBe('Deploy a contract and send 0 ETH')
  })

  it('a Solana message (base58 on the way) shows as the text it encodes, binary as hex', () => {
    const message = encodeBase58(new TextEncoder().encode('Hello from the Sigil demo'))
    expect(describe('solana_signMessage', { message, pubkey: 'x' }, 'solana:dev')).toEqual({
      title: 'Sign this Solana message',
      lines: ['Network: solana:dev'],
      body: 'Hello from the Sigil demo',
    })
    expect(describe('solana_signMessage', { message: encodeBase58(Uint8Array.from([0, 1, 255])) }, 'solana:dev').body).toBe('Binary data: 0x0001ff')
  })
})
