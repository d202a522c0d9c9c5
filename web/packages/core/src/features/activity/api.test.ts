import { describe, expect, it, vi } from 'vitest'
import { BlockchainApiError } from '../account/blockchain.js'
import { createHistoryClient } from './api.js'

const identity = { projectId: 'p1', sdkType: 'sigil', sdkVersion: '1.0.0' }
const respond = (body: unknown, status = 200) =>
  vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }))
const item = {
  id: 'eip155:31337:0xabc',
  metadata: {
    minedAt: '2026-11-26T18:00:00Z',
    chain: 'eip155:31337',
    status: 'confirmed',
    operationType: 'approve',
    sentFrom: '0x1',
    sentTo: '0x2',
    hash: '0xabc',
    nonce: 7,
    spam: null,
  },
  transfers: null,
}

describe('history API client', () => {
  it('asks GET /v1/account/{address}/history with the identity, the chain, the cursor and includeSpam', async () => {
    const fetch = respond({ data: [], next: null })
    const api = createHistoryClient({ baseUrl: 'https://api.test/', ...identity, fetch })
    await api.getHistory('0xAbC', { chainId: 'eip155:1', cursor: 'c2', includeSpam: true })
    const url = new URL(String((fetch.mock.calls[0] as unknown[])[0]))
    expect(url.origin + url.pathname).toBe('https://api.test/v1/account/0xAbC/history')
    expect(Object.fromEntries(url.searchParams)).toEqual({ projectId: 'p1', st: 'sigil', sv: '1.0.0', chainId: 'eip155:1', cursor: 'c2', includeSpam: 'true' })
    await api.getHistory('0xAbC', { chainId: 'eip155:1' })
    const plain = new URL(String((fetch.mock.calls[1] as unknown[])[0]))
    expect([plain.searchParams.has('cursor'), plain.searchParams.has('includeSpam')]).toEqual([false, false])
  })

  it('reads a page: transfers null as none, a missing next as the end', async () => {
    const api = createHistoryClient({ baseUrl: '', ...identity, fetch: respond({ data: [item] }) })
    const page = await api.getHistory('0x1', { chainId: 'eip155:31337' })
    expect(page.next).toBeNull()
    expect(page.data).toEqual([{ ...item, transfers: [] }])
  })

  it("keeps a transfer's sender and recipient (whom a token went to: the transaction's sentTo is its contract)", async () => {
    const transfer = { fungible_info: { name: 'Sigil', symbol: 'SGL', icon: { url: '' } }, direction: 'out', quantity: { numeric: '1' }, value: 0, price: 0 }
    const parties = { sender: '0x1', recipient: '0x3' }
    const api = createHistoryClient({ baseUrl: '', ...identity, fetch: respond({ data: [{ ...item, transfers: [{ ...transfer, ...parties }] }], next: null }) })
    const [read] = (await api.getHistory('0x1', { chainId: 'eip155:31337' })).data
    expect(read?.transfers[0]).toEqual({ ...transfer, ...parties })
  })

  it("a non-OK answer is a BlockchainApiError with the server's code; an answer of another shape is refused", async () => {
    const failing = createHistoryClient({ baseUrl: '', ...identity, fetch: respond({ error: { code: 'UPSTREAM', message: 'down' } }, 502) })
    await expect(failing.getHistory('0x1', { chainId: 'eip155:1' })).rejects.toEqual(
      expect.objectContaining({ status: 502, code: 'UPSTREAM', message: 'down' }),
    )
    await expect(failing.getHistory('0x1', { chainId: 'eip155:1' })).rejects.toBeInstanceOf(BlockchainApiError)
    const odd = createHistoryClient({ baseUrl: '', ...identity, fetch: respond({ items: [] }) })
    await expect(odd.getHistory('0x1', { chainId: 'eip155:1' })).rejects.toThrow()
  })
})
