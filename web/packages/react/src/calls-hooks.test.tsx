/** The EIP-5792 hooks (useSendCalls, useCallsStatus, useCapabilities) over the eip155 adapter and fake EIP-1193 wallets. */
import { act } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { evmAdapter, injectedConnector } from '@sigil/adapter-evm'
import type { ConnectorSource } from '@sigil/core'
import { callsWallet, hashOf, type CallsWalletOptions } from '../../core/src/test-utils/calls-wallet.js'
import type { AppKit } from './appkit.js'
import { useCallsStatus, useCapabilities, useSendCalls, type UseCallsStatusOptions, type UseSendCalls } from './calls.js'
import { cleanup, render, stubDirectory, testAppKit, waitFor } from './test-utils.js'

const TOKEN = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const ROUTER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const CALLS = [
  { to: TOKEN, data: '0x095ea7b3' },
  { to: ROUTER, data: '0x7ff36ab5', value: 16n },
]

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
  sessionStorage.clear()
})

/** The modal with the eip155 adapter, connected to a calls wallet (Ethereum). */
async function connected(options: CallsWalletOptions) {
  stubDirectory()
  const wallet = callsWallet(options)
  const connector = injectedConnector({ id: 'com.test', name: 'Test Wallet', chain: 'eip155', namespaces: ['eip155'], type: 'ANNOUNCED' }, wallet.provider)
  const source: ConnectorSource = {
    watch(onChange) {
      onChange([connector])
      return () => {}
    },
  }
  const { appKit } = testAppKit({ adapters: [evmAdapter()], connectors: [source] })
  current = appKit
  await act(() => appKit.client.connect('com.test'))
  return wallet
}

let sender: UseSendCalls | undefined
/** Sends through useSendCalls and follows the bundle it sent with useCallsStatus. */
function Bundle({ options }: { options: UseCallsStatusOptions }) {
  sender = useSendCalls()
  const status = useCallsStatus(sender.data, options)
  return (
    <dl>
      <dd id="id">{sender.data ?? ''}</dd>
      <dd id="pending">{String(sender.isPending)}</dd>
      <dd id="error">{sender.error ? String(sender.error.code) : ''}</dd>
      <dd id="status">{status.data ? String(status.data.status) : ''}</dd>
      <dd id="receipts">{status.data?.receipts?.map((r) => r.transactionHash).join(',') ?? ''}</dd>
      <dd id="atomic">{status.data ? String(status.data.atomic) : ''}</dd>
    </dl>
  )
}

function Capabilities() {
  const { data, isPending } = useCapabilities({ chainIds: [1] })
  return <output id="caps">{isPending || !data ? '' : JSON.stringify(data)}</output>
}

const text = (container: HTMLElement, id: string) => container.querySelector(`#${id}`)?.textContent

describe('EIP-5792 hooks', () => {
  it('useSendCalls sends one by one where the wallet has no atomic batches; useCallsStatus polls until the bundle is confirmed', async () => {
    const wallet = await connected({ atomic: 'unsupported', mining: 'manual' })
    const { container } = render(<Bundle options={{ pollUntilFinal: true, intervalMs: 20 }} />)
    let sending: Promise<string | undefined> | undefined
    act(() => {
      sending = sender?.sendCalls({ calls: CALLS })
    })
    expect(text(container, 'pending')).toBe('true')
    const id = await act(async () => sending)
    expect(id).toMatch(/^0x[0-9a-f]{64}$/)
    expect(text(container, 'id')).toBe(id)
    expect(text(container, 'pending')).toBe('false')
    await waitFor(() => expect(text(container, 'status')).toBe('100'))
    wallet.mine(1)
    await waitFor(() => expect(wallet.sent).toHaveLength(2))
    wallet.mine(2)
    await waitFor(() => expect(text(container, 'status')).toBe('200'))
    expect(text(container, 'receipts')).toBe(`${hashOf(1)},${hashOf(2)}`)
    expect(text(container, 'atomic')).toBe('false')
  })

  it('an atomic wallet gets wallet_sendCalls; its status is its own', async () => {
    const wallet = await connected({ atomic: 'supported' })
    const { container } = render(<Bundle options={{}} />)
    await act(async () => {
      await sender?.sendCalls({ calls: CALLS, atomicRequired: true })
    })
    expect(wallet.bundles).toHaveLength(1)
    expect(text(container, 'id')).toBe('wallet-bundle-1')
    await waitFor(() => expect(text(container, 'status')).toBe('200'))
    expect(text(container, 'atomic')).toBe('true')
  })

  it('a refusal is the hook’s error: atomicity required where the wallet has none is 5760', async () => {
    await connected({ atomic: 'unsupported' })
    const { container } = render(<Bundle options={{}} />)
    await act(async () => {
      expect(await sender?.sendCalls({ calls: CALLS, atomicRequired: true })).toBeUndefined()
    })
    expect(text(container, 'error')).toBe('5760')
    expect(text(container, 'id')).toBe('')
    await expect(act(async () => sender?.sendCallsAsync({ calls: CALLS, atomicRequired: true }))).rejects.toMatchObject({ code: 5760 })
  })

  it('useCapabilities answers the wallet’s capabilities for the connected account', async () => {
    const wallet = await connected({ atomic: 'ready', capabilities: { paymasterService: { supported: true } } })
    const { container } = render(<Capabilities />)
    await waitFor(() => expect(text(container, 'caps')).not.toBe(''))
    expect(JSON.parse(text(container, 'caps') ?? '')).toEqual({ '0x1': { atomic: { status: 'ready' }, paymasterService: { supported: true } } })
    expect(wallet.provider.calls.filter((c) => c.method === 'wallet_getCapabilities').at(-1)?.params).toEqual([wallet.provider.accounts[0], ['0x1']])
  })
})
