import { afterEach, describe, expect, it, vi } from 'vitest'
import { createSigil } from '../../client.js'
import { polygon } from '../../networks.js'
import { fakeAdapter, fakeBlockchainApi, fakeConnector, MemoryStorage, testClient, testOptions, tokenBalance } from '../../test-utils/index.js'
import {
  activeActivityAccount,
  activityRows as rowsOf,
  activityState as stateOf,
  amountSign,
  counterparty,
  fetchActivity,
  groupByMonth,
  relativeTime,
  setShowSpam,
  unlistedPending as unlistedOf,
} from './activity.js'
import type { SigilState } from '../../store.js'
import { addPendingTransaction, PENDING_LIMIT, type Transaction } from './state.js'

const ADDRESS = '0x1111111111111111111111111111111111111111'
const OTHER = '0x2222222222222222222222222222222222222222'
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`

/** A history entry of the API's shape: the n-th newest, a minute apart. */
function tx(n: number, extra: { chain?: string; spam?: { reason: string }; op?: string; direction?: 'in' | 'out' } = {}): Transaction {
  const chain = extra.chain ?? 'eip155:1'
  const out = (extra.direction ?? 'out') === 'out'
  return {
    id: `${chain}:${hashOf(n)}`,
    metadata: {
      minedAt: new Date(Date.UTC(2026, 10, 26, 18) - n * 60_000).toISOString(),
      chain,
      status: 'confirmed',
      operationType: extra.op ?? (out ? 'send' : 'receive'),
      sentFrom: out ? ADDRESS : OTHER,
      sentTo: out ? OTHER : ADDRESS,
      hash: hashOf(n),
      nonce: n,
      spam: extra.spam ?? null,
    },
    transfers: [
      {
        fungible_info: { name: 'Sigil', symbol: 'SGL', icon: { url: 'https://x/sgl.png' } },
        direction: out ? 'out' : 'in',
        quantity: { numeric: '1.5' },
        value: 0,
        price: 0,
      },
    ],
  }
}

const activityRows = (state: SigilState) => rowsOf(state.activity, activeActivityAccount(state))
const activityState = (state: SigilState) => stateOf(state.activity, activeActivityAccount(state))
const unlistedPending = (state: SigilState) => unlistedOf(state.activity, activeActivityAccount(state))

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** A history server of `all` (newest first), 20 a page, the cursor being the next index; spam only with includeSpam. */
function historyServer(all: Transaction[], options: { fail?: () => boolean } = {}) {
  const calls: URL[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input))
    calls.push(url)
    if (options.fail?.()) return json({ error: { code: 'UPSTREAM', message: 'down' } }, 502)
    const listed = all.filter((t) => url.searchParams.get('includeSpam') === 'true' || !t.metadata.spam)
    const from = Number(url.searchParams.get('cursor') ?? '0')
    const data = listed.slice(from, from + 20)
    return json({ data, next: from + 20 < listed.length ? String(from + 20) : null })
  })
  vi.stubGlobal('fetch', fetchMock)
  return { calls, fetchMock }
}

async function connected() {
  const { client } = testClient({}, { restore: false })
  await client.connect('com.test')
  return client
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

describe('fetchActivity', () => {
  it('asks the history API for the active account and chain, then the next page by cursor, appending', async () => {
    const server = historyServer(Array.from({ length: 45 }, (_, i) => tx(i)))
    const client = await connected()
    await fetchActivity(client)
    const first = server.calls[0] as URL
    expect(first.origin + first.pathname).toBe(`https://api.test/v1/account/${ADDRESS}/history`)
    expect(first.searchParams.get('chainId')).toBe('eip155:1')
    expect(first.searchParams.get('projectId')).toBe('p1')
    expect(first.searchParams.has('cursor')).toBe(false)
    expect(first.searchParams.has('includeSpam')).toBe(false)
    expect(activityRows(client.store.getState())).toHaveLength(20)
    expect(activityState(client.store.getState())).toMatchObject({ status: 'ready', next: '20' })

    await fetchActivity(client, { next: true })
    expect(server.calls[1]?.searchParams.get('cursor')).toBe('20')
    await fetchActivity(client, { next: true })
    const rows = activityRows(client.store.getState())
    expect(rows.map((r) => r.transaction.metadata.nonce)).toEqual(Array.from({ length: 45 }, (_, i) => i))
    expect(activityState(client.store.getState()).next).toBeNull()
    // At the end: nothing more is asked.
    await fetchActivity(client, { next: true })
    expect(server.calls).toHaveLength(3)
  })

  it('the first page is asked once, even when asked twice at the same time', async () => {
    const server = historyServer([tx(0)])
    const client = await connected()
    await Promise.all([fetchActivity(client), fetchActivity(client)])
    await fetchActivity(client)
    expect(server.calls).toHaveLength(1)
  })

  it('keeps each id once and only the active chain', async () => {
    historyServer([tx(0), tx(1), tx(1), tx(2, { chain: 'eip155:137' }), tx(3)])
    const client = await connected()
    await fetchActivity(client)
    expect(activityRows(client.store.getState()).map((r) => r.transaction.id)).toEqual([tx(0).id, tx(1).id, tx(3).id])
  })

  it("a failure says 'Failed to fetch transactions' and leaves the list empty", async () => {
    let failing = false
    historyServer([tx(0), tx(1)], { fail: () => failing })
    const client = await connected()
    await fetchActivity(client)
    expect(activityRows(client.store.getState())).toHaveLength(2)
    failing = true
    await setShowSpam(client, { show: true })
    expect(activityRows(client.store.getState())).toEqual([])
    expect(activityState(client.store.getState()).status).toBe('failed')
    expect(client.store.getState().notification).toEqual({ open: true, message: 'Failed to fetch transactions', variant: 'error' })
  })

  it('another chain or account starts a new list; an answer for the old one is dropped', async () => {
    const server = historyServer([tx(0), tx(1, { chain: 'eip155:137' })])
    const client = await connected()
    await fetchActivity(client)
    expect(activityRows(client.store.getState()).map((r) => r.transaction.id)).toEqual([tx(0).id])
    await client.switchNetwork(polygon)
    // Before any fetch the old chain's rows are not shown.
    expect(activityRows(client.store.getState())).toEqual([])
    await fetchActivity(client)
    expect(server.calls.at(-1)?.searchParams.get('chainId')).toBe('eip155:137')
    expect(activityRows(client.store.getState()).map((r) => r.transaction.id)).toEqual([tx(1, { chain: 'eip155:137' }).id])
  })

  it('needs an account address: nothing is asked without one', async () => {
    const server = historyServer([tx(0)])
    const { client } = testClient({}, { restore: false })
    await fetchActivity(client)
    expect(server.calls).toHaveLength(0)
    expect(activityRows(client.store.getState())).toEqual([])
  })

  it('flagged rows are left out until shown: showing asks again with includeSpam and marks them; hiding drops them again', async () => {
    const server = historyServer([tx(0), tx(1, { spam: { reason: 'zero-value' }, direction: 'in' }), tx(2)])
    const client = await connected()
    await fetchActivity(client)
    expect(activityRows(client.store.getState()).map((r) => r.transaction.metadata.nonce)).toEqual([0, 2])
    await setShowSpam(client, { show: true })
    expect(server.calls.at(-1)?.searchParams.get('includeSpam')).toBe('true')
    const rows = activityRows(client.store.getState())
    expect(rows.map((r) => r.transaction.metadata.nonce)).toEqual([0, 1, 2])
    expect(rows[1]?.transaction.metadata.spam).toEqual({ reason: 'zero-value' })
    await setShowSpam(client, { show: false })
    expect(server.calls.at(-1)?.searchParams.has('includeSpam')).toBe(false)
    expect(activityRows(client.store.getState()).map((r) => r.transaction.metadata.nonce)).toEqual([0, 2])
  })
})

const SOL = 'So11111111111111111111111111111111111111112'
const TO = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
const chain = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'

/** A client connected to a Solana wallet holding 10 SOL, whose adapter sends with `sendTransfer`. */
async function solanaSender(
  sendTransfer: (provider: unknown, transfer: { amount: bigint; onSubmitted?: ((hash: string) => void) | undefined }) => Promise<string>,
) {
  const wallet = fakeConnector({ id: 'sol', wallets: { solana: { accounts: [SOL], chainId: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' } } })
  const { adapter } = fakeAdapter('solana')
  const client = createSigil(testOptions(), {
    adapters: [{ ...adapter, sendTransfer }],
    connectors: [wallet.source],
    isMobile: () => false,
    blockchainApi: fakeBlockchainApi([tokenBalance({ name: 'Solana', symbol: 'SOL', chainId: chain, numeric: '10', decimals: '9' })]),
    restore: false,
    storage: new MemoryStorage(),
  })
  await client.connect('sol')
  await vi.waitFor(() => expect(client.store.getState().chains.solana?.account.tokenBalance).toHaveLength(1))
  return client
}

describe('pending transactions', () => {
  const pending = (hash: string, extra: { from?: string; chain?: string } = {}) => ({
    hash,
    chain: extra.chain ?? 'eip155:1',
    from: extra.from ?? ADDRESS,
    to: OTHER,
    amount: '0.01',
    symbol: 'ETH',
    direction: 'out' as const,
  })

  it('a send shows at once as pending, first, until the server lists its hash; a refresh merges the new page', async () => {
    const listed = [tx(1), tx(2)]
    historyServer(listed)
    const client = await connected()
    await fetchActivity(client)
    addPendingTransaction(client.store, pending(hashOf(0).toUpperCase().replace('0X', '0x')))
    let rows = activityRows(client.store.getState())
    expect(rows[0]).toMatchObject({ pending: true, transaction: { metadata: { status: 'pending', operationType: 'send', sentTo: OTHER } } })
    expect(rows[0]?.transaction.transfers[0]).toMatchObject({ direction: 'out', quantity: { numeric: '0.01' }, fungible_info: { symbol: 'ETH' } })
    expect(rows).toHaveLength(3)
    expect(unlistedPending(client.store.getState())).toHaveLength(1)

    // Indexed now: the refresh brings it, the pending entry goes.
    listed.unshift(tx(0))
    await fetchActivity(client, { refresh: true })
    rows = activityRows(client.store.getState())
    expect(rows.map((r) => [r.transaction.metadata.nonce, r.pending])).toEqual([
      [0, false],
      [1, false],
      [2, false],
    ])
    expect(unlistedPending(client.store.getState())).toEqual([])
    expect(client.store.getState().activity?.pending).toEqual([])
  })

  it("a send from the modal (client.send) is in the list at once, with its amount and the token's symbol; confirmed once the adapter resolves", async () => {
    historyServer([])
    const client = await solanaSender(async () => 'sig123')
    await client.send({ to: TO, amount: ' 0.5 ', token: 'native' })
    expect(activityRows(client.store.getState())).toEqual([
      {
        pending: true,
        transaction: expect.objectContaining({
          id: `${chain}:sig123`,
          metadata: expect.objectContaining({ status: 'confirmed', operationType: 'send', sentFrom: SOL, sentTo: TO, hash: 'sig123' }),
          transfers: [{ fungible_info: { name: 'SOL', symbol: 'SOL' }, direction: 'out', quantity: { numeric: '0.5' } }],
        }),
      },
    ])
  })

  it('a send the chain reverts is failed; one whose outcome is unknown (no receipt in time) stays pending; one the wallet refused is not listed', async () => {
    historyServer([])
    const outcomes: Record<string, Error> = {
      '1': Object.assign(new Error('execution reverted (transaction sig1)'), { code: 3 }),
      '2': new Error('no receipt for sig2 after 60 s'),
      '3': Object.assign(new Error('User rejected the request.'), { code: 4001 }),
    }
    const client = await solanaSender(async (_provider, transfer) => {
      const n = (transfer.amount / 1_000_000_000n).toString()
      if (n !== '3') transfer.onSubmitted?.(`sig${n}`)
      throw outcomes[n]
    })
    await expect(client.send({ to: TO, amount: '1', token: 'native' })).rejects.toMatchObject({ code: 'EXECUTION_REVERTED' })
    await expect(client.send({ to: TO, amount: '2', token: 'native' })).rejects.toThrow()
    await expect(client.send({ to: TO, amount: '3', token: 'native' })).rejects.toMatchObject({ code: 4001 })
    const rows = activityRows(client.store.getState()).map((r) => [r.transaction.metadata.hash, r.transaction.metadata.status, r.pending])
    expect(rows).toEqual([
      ['sig2', 'pending', true],
      ['sig1', 'failed', true],
    ])
  })

  it('only the active account and chain show theirs; the same hash twice is one entry; at most 99 are kept', async () => {
    historyServer([])
    const client = await connected()
    addPendingTransaction(client.store, pending(hashOf(7)))
    addPendingTransaction(client.store, pending(hashOf(7)))
    addPendingTransaction(client.store, pending(hashOf(8), { from: OTHER }))
    addPendingTransaction(client.store, pending(hashOf(9), { chain: 'eip155:137' }))
    expect(activityRows(client.store.getState()).map((r) => r.transaction.metadata.hash)).toEqual([hashOf(7)])
    for (let i = 0; i < 120; i++) addPendingTransaction(client.store, pending(hashOf(100 + i)))
    expect(client.store.getState().activity?.pending).toHaveLength(PENDING_LIMIT)
  })

  it('a failed refresh (polling) keeps the list and says nothing', async () => {
    let failing = false
    historyServer([tx(1)], { fail: () => failing })
    const client = await connected()
    await fetchActivity(client)
    failing = true
    await fetchActivity(client, { refresh: true })
    expect(activityRows(client.store.getState())).toHaveLength(1)
    expect(client.store.getState().notification.open).toBe(false)
  })
})

describe('display rules', () => {
  it("signs: '+' for receive, deposit, borrow, claim, mint; '-' for withdraw, repay, burn, send; else by direction", () => {
    for (const op of ['receive', 'deposit', 'borrow', 'claim', 'mint']) expect(amountSign(op, { direction: 'out' })).toBe('+')
    for (const op of ['withdraw', 'repay', 'burn', 'send']) expect(amountSign(op, { direction: 'in' })).toBe('-')
    expect(amountSign('trade', { direction: 'in' })).toBe('+')
    expect(amountSign('trade', { direction: 'out' })).toBe('-')
    expect(amountSign('execute', { direction: 'self' })).toBe('')
  })

  it("the counterparty: the sender of what the account got; the receiver of its coin; a token's contract it went through", () => {
    const me = ADDRESS.toUpperCase().replace('0X', '0x')
    expect(counterparty(tx(0, { direction: 'in' }), ADDRESS, 'ETH')).toEqual({ relation: 'from', address: OTHER })
    // tx() sends SGL: the transaction's recipient is the token contract, not whom it paid.
    expect(counterparty(tx(0), me, 'ETH')).toEqual({ relation: 'via', address: OTHER })
    expect(counterparty(tx(0), me, 'SGL')).toEqual({ relation: 'to', address: OTHER })
    const pendingSgl = { ...tx(0), metadata: { ...tx(0).metadata, status: 'pending' as const } }
    expect(counterparty(pendingSgl, me, 'ETH')).toEqual({ relation: 'to', address: OTHER })
  })

  it("the counterparty from the transfer's own sender and recipient where the server names them (Sigil's: a token's receiver)", () => {
    const RECEIVER = '0x3333333333333333333333333333333333333333'
    const withParties = (direction: 'in' | 'out') => {
      const t = tx(0, { direction })
      const [first] = t.transfers
      const parties = direction === 'out' ? { sender: ADDRESS, recipient: RECEIVER } : { sender: RECEIVER, recipient: ADDRESS }
      return { ...t, transfers: [{ ...(first as (typeof t.transfers)[number]), ...parties }] }
    }
    expect(counterparty(withParties('out'), ADDRESS, 'ETH')).toEqual({ relation: 'to', address: RECEIVER })
    expect(counterparty(withParties('in'), ADDRESS, 'ETH')).toEqual({ relation: 'from', address: RECEIVER })
  })

  it("relative times in the largest whole unit: '1 min', '2 hrs', '3 days'", () => {
    const now = Date.UTC(2026, 10, 26, 18)
    const ago = (ms: number) => relativeTime(new Date(now - ms).toISOString(), now)
    expect(ago(30_000)).toEqual({ value: 0, unit: 'now' })
    expect(ago(-5000)).toEqual({ value: 0, unit: 'now' })
    expect(ago(90_000)).toEqual({ value: 1, unit: 'min' })
    expect(ago(2 * 3600_000 + 59_000)).toEqual({ value: 2, unit: 'hr' })
    expect(ago(3 * 86400_000)).toEqual({ value: 3, unit: 'day' })
    expect(ago(65 * 86400_000)).toEqual({ value: 2, unit: 'month' })
    expect(ago(800 * 86400_000)).toEqual({ value: 2, unit: 'year' })
  })

  it('groups by month, in order, with the month named in the locale', () => {
    const rows = ['2026-11-20T12:00:00Z', '2026-11-02T12:00:00Z', '2026-10-15T12:00:00Z', '2025-10-15T12:00:00Z']
    const groups = groupByMonth(rows, (r) => r, 'en-US')
    expect(groups.map((g) => [g.key, g.label, g.rows.length])).toEqual([
      ['2026-11', 'November 2026', 2],
      ['2026-10', 'October 2026', 1],
      ['2025-10', 'October 2025', 1],
    ])
  })
})
