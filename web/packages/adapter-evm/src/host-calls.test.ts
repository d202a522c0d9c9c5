/**
 * Core's EIP-5792 actions for host apps (sendCalls, getCallsStatus, getCapabilities) over the
 * real eip155 adapter and an injected fake wallet.
 */
import { createSigil, type ConnectorSource, type SigilClient } from '@sigil/core'
import {
  AtomicityNotSupportedError,
  DuplicateIdError,
  getCallsStatus,
  getCapabilities,
  sendCalls,
  UnknownBundleIdError,
  UnsupportedChainIdError,
  UnsupportedNonOptionalCapabilityError,
} from '@sigil/core/calls'
import { ethereum, polygon } from '@sigil/core/networks'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { callsWallet, hashOf, type CallsWalletOptions } from '../../core/src/test-utils/calls-wallet.js'
import { ACCOUNT } from '../../core/src/test-utils/fake-provider.js'
import { MemoryStorage } from '../../core/src/test-utils/index.js'
import { evmAdapter } from './adapter.js'
import { injectedConnector } from './injected.js'

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const ROUTER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const CALLS = [
  { to: TOKEN, data: '0x095ea7b3' },
  { to: ROUTER, data: '0x7ff36ab5', value: 16n },
]

const clients: SigilClient[] = []
afterEach(() => {
  for (const c of clients.splice(0)) c.destroy()
  sessionStorage.clear()
})

/** A modal with the eip155 adapter, connected to a calls wallet on Ethereum. */
async function connected(options: CallsWalletOptions = {}) {
  const wallet = callsWallet(options)
  const connector = injectedConnector({ id: 'com.test', name: 'Test Wallet', chain: 'eip155', namespaces: ['eip155'], type: 'ANNOUNCED' }, wallet.provider)
  const source: ConnectorSource = {
    watch(onChange) {
      onChange([connector])
      return () => {}
    },
  }
  const blockchainApi = { getBalances: vi.fn(async () => []), getIdentity: vi.fn(async () => ({ name: null, avatar: null })), getPrices: vi.fn(async () => []) }
  const client = createSigil(
    { projectId: 'p1', networks: [ethereum, polygon], apiUrl: 'https://api.test' },
    { adapters: [evmAdapter()], connectors: [source], storage: new MemoryStorage(), isMobile: () => false, blockchainApi, reconnectTimeoutMs: 0 },
  )
  clients.push(client)
  await client.connect('com.test')
  return { ...wallet, client, ctx: client.context }
}

const until = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 5000, interval: 20 })

describe('sendCalls (EIP-5792 for host apps)', () => {
  it('a wallet that sends atomic batches gets wallet_sendCalls (2.0.0) and the host its id; its status is the wallet’s', async () => {
    const { ctx, bundles, sent, provider } = await connected({ atomic: 'ready' })
    const result = await sendCalls(ctx, { calls: CALLS })
    expect(result).toEqual({ id: 'wallet-bundle-1' })
    expect(bundles).toEqual([
      {
        version: '2.0.0',
        chainId: '0x1',
        from: ACCOUNT,
        atomicRequired: false,
        calls: [
          { to: TOKEN, data: '0x095ea7b3' },
          { to: ROUTER, data: '0x7ff36ab5', value: '0x10' },
        ],
      },
    ])
    expect(sent).toEqual([])
    expect(await getCallsStatus(ctx, { id: result.id })).toMatchObject({ id: 'wallet-bundle-1', status: 200, atomic: true })
    expect(provider.methods()).toContain('wallet_getCallsStatus')
  })

  it('otherwise sends the calls one by one under one id of Sigil’s, the next once the one before is mined; the status comes from their receipts', async () => {
    const { ctx, sent, mine, receipts } = await connected({ atomic: 'unsupported', mining: 'manual' })
    const { id } = await sendCalls(ctx, { calls: CALLS })
    expect(id).toMatch(/^0x[0-9a-f]{64}$/)
    // The first is sent and not mined: the second waits, the bundle is pending.
    expect(sent.map((t) => t.to)).toEqual([TOKEN])
    expect(await getCallsStatus(ctx, { id })).toEqual({ version: '2.0.0', id, chainId: '0x1', status: 100, atomic: false, receipts: [] })
    mine(1)
    await until(() => expect(sent).toHaveLength(2))
    expect(sent[1]).toMatchObject({ from: ACCOUNT, to: ROUTER, data: '0x7ff36ab5', value: '0x10' })
    mine(2)
    const status = await until(async () => {
      const s = await getCallsStatus(ctx, { id })
      expect(s.status).toBe(200)
      return s
    })
    expect(status.receipts?.map((r) => [r.transactionHash, r.status])).toEqual([
      [hashOf(1), '0x1'],
      [hashOf(2), '0x1'],
    ])
    expect(receipts.size).toBe(2)
  })

  it('a wallet without wallet_getCapabilities has none: the calls go one by one', async () => {
    const { ctx, sent } = await connected({ atomic: false })
    const { id } = await sendCalls(ctx, { calls: CALLS })
    await until(async () => expect((await getCallsStatus(ctx, { id })).status).toBe(200))
    expect(sent).toHaveLength(2)
    expect(await getCapabilities(ctx)).toEqual({})
  })

  it('a later call reverting is a partial revert (600); the first reverting, a revert (500) with nothing more sent', async () => {
    const partial = await connected({ atomic: 'unsupported', reverts: [2] })
    const first = await sendCalls(partial.ctx, { calls: CALLS })
    await until(async () => expect((await getCallsStatus(partial.ctx, { id: first.id })).status).toBe(600))

    const reverted = await connected({ atomic: 'unsupported', reverts: [1] })
    const second = await sendCalls(reverted.ctx, { calls: CALLS })
    await until(async () => expect((await getCallsStatus(reverted.ctx, { id: second.id })).status).toBe(500))
    expect(reverted.sent).toHaveLength(1)
  })

  it('atomicity required where the wallet has none: 5760, nothing sent', async () => {
    const { ctx, sent } = await connected({ atomic: 'unsupported' })
    const error = await sendCalls(ctx, { calls: CALLS, atomicRequired: true }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AtomicityNotSupportedError)
    expect(error).toMatchObject({ code: 5760 })
    expect(sent).toEqual([])
  })

  it('a capability not marked optional that cannot be had: 5700; an optional one is passed on', async () => {
    const one = await connected({ atomic: 'unsupported' })
    await expect(sendCalls(one.ctx, { calls: CALLS, capabilities: { paymasterService: { url: 'https://pm.test' } } })).rejects.toMatchObject({
      code: 5700,
      capability: 'paymasterService',
    })
    const atomic = await connected({ atomic: 'supported', capabilities: { paymasterService: { supported: true } } })
    await expect(sendCalls(atomic.ctx, { calls: CALLS, capabilities: { auxiliaryFunds: { optional: false } } })).rejects.toBeInstanceOf(
      UnsupportedNonOptionalCapabilityError,
    )
    const capabilities = { paymasterService: { url: 'https://pm.test' }, auxiliaryFunds: { optional: true } }
    await sendCalls(atomic.ctx, { calls: CALLS, capabilities })
    expect(atomic.bundles.at(-1)).toMatchObject({ capabilities })
  })

  it('the user declining the first call rejects with 4001 and leaves no bundle', async () => {
    const { ctx, provider } = await connected({ atomic: 'unsupported' })
    provider.handlers.set('eth_sendTransaction', () => {
      throw Object.assign(new Error('User rejected'), { code: 4001 })
    })
    await expect(sendCalls(ctx, { calls: CALLS, id: '0xabc' })).rejects.toMatchObject({ code: 4001, name: 'UserRejectedRequestError' })
    await expect(getCallsStatus(ctx, { id: '0xabc' })).rejects.toBeInstanceOf(UnknownBundleIdError)
  })

  it('an id already used: 5720; another chain than the wallet’s when sending one by one: 5710', async () => {
    const { ctx } = await connected({ atomic: 'unsupported' })
    await sendCalls(ctx, { calls: CALLS, id: '0x01' })
    await expect(sendCalls(ctx, { calls: CALLS, id: '0x01' })).rejects.toBeInstanceOf(DuplicateIdError)
    await expect(sendCalls(ctx, { calls: CALLS, chainId: 137 })).rejects.toBeInstanceOf(UnsupportedChainIdError)
    await expect(sendCalls(ctx, { calls: [] })).rejects.toMatchObject({ code: -32602 })
  })

  it('an unknown id: 5730, whether the wallet has no wallet_getCallsStatus or says so itself', async () => {
    const plain = await connected({ atomic: 'unsupported' })
    await expect(getCallsStatus(plain.ctx, { id: '0xfeed' })).rejects.toMatchObject({ code: 5730, id: '0xfeed' })
    const capable = await connected({ atomic: 'supported' })
    await expect(getCallsStatus(capable.ctx, { id: '0xfeed' })).rejects.toBeInstanceOf(UnknownBundleIdError)
  })

  it('Sigil’s ids are kept in sessionStorage: a reloaded page still answers their status', async () => {
    const first = await connected({ atomic: 'unsupported' })
    const { id } = await sendCalls(first.ctx, { calls: CALLS })
    await until(async () => expect((await getCallsStatus(first.ctx, { id })).status).toBe(200))
    // Another modal instance (the page again) over the same chain.
    const again = await connected({ atomic: 'unsupported' })
    again.mine(1)
    again.mine(2)
    expect(await getCallsStatus(again.ctx, { id })).toMatchObject({ id, status: 200, atomic: false })
  })

  it('getCapabilities forwards wallet_getCapabilities for the account (or the one given) and chains in hex', async () => {
    const { ctx, provider } = await connected({ atomic: 'supported', capabilities: { paymasterService: { supported: true } } })
    expect(await getCapabilities(ctx, { chainIds: [1] })).toEqual({ '0x1': { atomic: { status: 'supported' }, paymasterService: { supported: true } } })
    expect(provider.calls.at(-1)).toEqual({ method: 'wallet_getCapabilities', params: [ACCOUNT, ['0x1']] })
    await getCapabilities(ctx, { address: ROUTER })
    expect(provider.calls.at(-1)).toEqual({ method: 'wallet_getCapabilities', params: [ROUTER] })
  })
})
