import { describe as group, expect, it } from 'vitest'
import { getBase58Decoder } from '@solana/codecs-strings'
import { batchTokens, describe, formatEther, networkName, stripHidden } from './describe.js'

const encodeBase58 = (bytes: Uint8Array) => getBase58Decoder().decode(bytes)

group('approval texts', () => {
  it('personal_sign shows the message as text (or hex for binary data)', () => {
    const hello = `0x${Array.from(new TextEncoder().encode('Hello from the Sigil demo'), (b) => b.toString(16).padStart(2, '0')).join('')}`
    expect(describe('personal_sign', [hello, '0xabc'], 'eip155:1')).toEqual({
      title: 'Sign this message',
      lines: ['Network: Ethereum', { label: 'From', address: '0xabc' }],
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
    expect(formatEther('1')).toBe('< 0.000001 ETH')
    expect(formatEther('0')).toBe('0 ETH')
    expect(describe('eth_sendTransaction', [{ value: '0x0' }], 'eip155:1').title).toBe('Deploy a contract and send 0 ETH')
  })

  it('a batch of calls shows every call in order, ERC-20 transfer and approve decoded', () => {
    const token = '0x5fbdb2315678afecb367f032d93f642f64180aa3'
    const word = (hex: string) => hex.replace(/^0x/, '').padStart(64, '0')
    const bob = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8'
    const approve = `0x095ea7b3${word(bob)}${word('0x1388')}`
    const unlimited = `0x095ea7b3${word(bob)}${'f'.repeat(64)}`
    const transfer = `0xa9059cbb${word(bob)}${word('0x2710')}`
    const d = describe(
      'wallet_sendCalls',
      [
        {
          version: '2.0.0',
          chainId: '0x7a69',
          from: '0xabc',
          atomicRequired: true,
          calls: [
            { to: token, data: approve },
            { to: token, data: transfer },
            { to: bob, value: '0xde0b6b3a7640000' },
            { to: token, data: unlimited },
            { to: token, data: '0x12345678', value: '0x1' },
          ],
        },
      ],
      'eip155:31337',
    )
    expect(d.title).toBe('Approve 5 calls')
    expect(d.warnings).toBeUndefined()
    expect(d.lines).toEqual([
      'Network: Sigil Dev',
      { label: 'From', address: '0xabc' },
      'All calls run together in one transaction, or none does',
      { label: 'Call 1: allow spending 5000 units of the token by', address: bob },
      { label: 'Token', address: token },
      { label: 'Call 2: transfer 10000 units of the token to', address: bob },
      { label: 'Token', address: token },
      { label: 'Call 3: send 1 ETH to', address: bob },
      { label: 'Call 4: allow spending ALL of the token (no limit) by', address: bob },
      { label: 'Token', address: token },
      { label: 'Call 5: a contract call (4 bytes of data) to', address: token },
      'and sends < 0.000001 ETH',
    ])
    // With the token's symbol and decimals read from the chain, amounts are in its units.
    const known = new Map([[token, { symbol: 'USDC', decimals: 6 }]])
    const inUnits = describe(
      'wallet_sendCalls',
      [
        {
          calls: [
            { to: token, data: approve },
            { to: token.toUpperCase().replace('0X', '0x'), data: `0xa9059cbb${word(bob)}${word('0x1e8480')}` },
          ],
        },
      ],
      'eip155:31337',
      new Map(),
      known,
    )
    expect(inUnits.lines).toContainEqual({ label: 'Call 1: allow spending 0.005 USDC by', address: bob })
    expect(inUnits.lines).toContainEqual({ label: 'Call 2: transfer 2 USDC to', address: bob })
    expect(
      batchTokens([
        {
          calls: [
            { to: token, data: approve },
            { to: bob, value: '0x1' },
            { to: token, data: transfer },
          ],
        },
      ]),
    ).toEqual([token])
    // A batch for another chain than the one asked on says so.
    expect(describe('wallet_sendCalls', [{ chainId: '0x1', calls: [] }], 'eip155:31337').warnings).toEqual([
      'Warning: this is signed for Ethereum, but the app asked on Sigil Dev',
    ])
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

  it('names the networks @sigil/core/networks has, and shows any other by its CAIP-2 id', () => {
    expect(networkName('eip155:1')).toBe('Ethereum')
    expect(networkName('eip155:137')).toBe('Polygon')
    expect(networkName('eip155:31337')).toBe('Sigil Dev')
    expect(networkName('solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp')).toBe('Solana')
    expect(networkName('eip155:8453')).toBe('eip155:8453')
    expect(describe('personal_sign', ['0x68'], 'eip155:8453').lines).toEqual(['Network: eip155:8453'])
  })

  it("names a network it does not know by the host page's name; a name it knows for another network keeps the id beside it", () => {
    const host = new Map([
      ['solana:SigiLDevSoLanaRuntime11111111111', 'Sigil Solana Dev'],
      ['eip155:8453', 'Base'],
      ['eip155:666', 'Ethereum'],
      // the frame's own names win over the host's
      ['eip155:1', 'Totally Not Ethereum'],
    ])
    expect(networkName('solana:SigiLDevSoLanaRuntime11111111111', host)).toBe('Sigil Solana Dev')
    expect(networkName('eip155:8453', host)).toBe('Base')
    expect(networkName('eip155:666', host)).toBe('Ethereum (eip155:666)')
    expect(networkName('eip155:1', host)).toBe('Ethereum')
    expect(networkName('eip155:10', host)).toBe('eip155:10')
    expect(describe('solana_signMessage', { message: '2' }, 'solana:SigiLDevSoLanaRuntime11111111111', host).lines).toEqual(['Network: Sigil Solana Dev'])
    const typed = { domain: { name: 'Shop', chainId: 8453 }, primaryType: 'Order', message: {} }
    expect(describe('eth_signTypedData_v4', ['0xabc', typed], 'eip155:666', host).warnings).toEqual([
      'Warning: this is signed for Base, but the app asked on Ethereum (eip155:666)',
    ])
  })

  it('typed data shows the network, chain ID and verifying contract of its domain, not the chain the host sent', () => {
    const typed = {
      domain: { name: 'Shop', chainId: 137, verifyingContract: '0x00000000000000000000000000000000000000c0' },
      primaryType: 'Order',
      message: { item: 'book' },
    }
    const d = describe('eth_signTypedData_v4', ['0xabc', JSON.stringify(typed)], 'eip155:137')
    expect(d.lines).toEqual([
      'Network: Polygon',
      'Chain ID: 137',
      { label: 'Verifying contract', address: '0x00000000000000000000000000000000000000c0' },
      { label: 'From', address: '0xabc' },
    ])
    expect(d.warnings).toBeUndefined()
    // a chain ID as a hex or decimal string is the same chain
    expect(describe('eth_signTypedData_v4', ['0xabc', { ...typed, domain: { chainId: '0x89' } }], 'eip155:137').warnings).toBeUndefined()
    expect(describe('eth_signTypedData_v4', ['0xabc', { ...typed, domain: { chainId: '137' } }], 'eip155:137').warnings).toBeUndefined()
    // without a chain ID in the domain, the request's chain (and no domain lines)
    expect(describe('eth_signTypedData_v4', ['0xabc', { ...typed, domain: { name: 'Shop' } }], 'eip155:10').lines).toEqual([
      'Network: eip155:10',
      { label: 'From', address: '0xabc' },
    ])
  })

  it('typed data for another chain than the request is for says so', () => {
    const typed = { domain: { name: 'Shop', chainId: 1 }, primaryType: 'Permit', message: {} }
    const d = describe('eth_signTypedData_v4', ['0xabc', typed], 'eip155:31337')
    expect(d.lines[0]).toBe('Network: Ethereum')
    expect(d.warnings).toEqual(['Warning: this is signed for Ethereum, but the app asked on Sigil Dev'])
    const odd = describe('eth_signTypedData_v4', ['0xabc', { ...typed, domain: { chainId: 'mainnet' } }], 'eip155:1')
    expect(odd.lines.slice(0, 2)).toEqual(['Network: mainnet', 'Chain ID: mainnet'])
    expect(odd.warnings).toEqual(['Warning: this is signed for mainnet, but the app asked on Ethereum'])
  })

  it("a transaction's network is its own chain ID when it has one, with a warning when the request is for another", () => {
    const tx = { to: '0xdef', value: '0x0', chainId: '0x89' }
    expect(describe('eth_sendTransaction', [tx], 'eip155:137')).toEqual({ title: 'Send 0 ETH to 0xdef', lines: ['Network: Polygon'] })
    expect(describe('eth_sendTransaction', [tx], 'eip155:1').warnings).toEqual(['Warning: this is signed for Polygon, but the app asked on Ethereum'])
    expect(describe('eth_sendTransaction', [{ to: '0xdef' }], 'eip155:42161').lines).toEqual(['Network: Arbitrum One'])
  })

  it('stripHidden takes out bidi controls and zero-width characters, and says when it did', () => {
    const hidden = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069', '\u200E', '\u200F', '\u061C']
    const zeroWidth = ['\u200B', '\u200C', '\u200D', '\u2060', '\uFEFF']
    for (const c of [...hidden, ...zeroWidth]) expect(stripHidden(`pay${c}me`)).toEqual({ text: 'payme', hidden: true })
    expect(stripHidden('plain text, é, 日本, עברית')).toEqual({ text: 'plain text, é, 日本, עברית', hidden: false })
    expect(stripHidden('')).toEqual({ text: '', hidden: false })
  })

  it('the approval shows no hidden characters, anywhere, and warns when the request had some', () => {
    const rlo = '\u202E'
    const zw = '\u200B'
    const message = `0x${Array.from(new TextEncoder().encode(`Send to ${rlo}cod.exe${zw}`), (b) => b.toString(16).padStart(2, '0')).join('')}`
    expect(describe('personal_sign', [message], 'eip155:1')).toEqual({
      title: 'Sign this message',
      lines: ['Network: Ethereum'],
      body: 'Send to cod.exe',
      warnings: [
        'Warning: this request contained hidden characters (invisible or text-direction marks). They are removed here, but what you sign still contains them.',
      ],
    })
    const typed = { domain: { name: `Sh${zw}op`, verifyingContract: `0x${rlo}c0` }, primaryType: `Or${rlo}der`, message: { [`to${zw}`]: `al${rlo}ice` } }
    const d = describe('eth_signTypedData_v4', [`0x${zw}abc`, typed], 'eip155:1')
    expect(d.title).toBe('Sign Order data for Shop')
    expect(d.lines).toEqual(['Network: Ethereum', { label: 'Verifying contract', address: '0xc0' }, { label: 'From', address: '0xabc' }])
    expect(d.body).toBe('to: alice')
    expect(d.warnings).toHaveLength(1)
    expect(describe('eth_sendTransaction', [{ to: `0x${rlo}def` }], 'eip155:1').title).toBe('Send 0 ETH to 0xdef')
    expect(describe(`eth_${zw}other`, [], 'eip155:1').title).toBe('Approve eth_other')
    expect(describe('solana_signMessage', { message: encodeBase58(new TextEncoder().encode(`hi${rlo}`)) }, 'solana:dev').body).toBe('hi')
    // nothing hidden, no warning
    expect(describe('personal_sign', ['0x68'], 'eip155:1').warnings).toBeUndefined()
  })
})
