/**
 * EVM over a session transport: the proposal's eip155 methods and events, the session's eip155
 * accounts, and the EIP-1193 provider over a WalletConnect session (wallet methods to the wallet,
 * reads to the RPC proxy) or over a transport that switches chains itself (the embedded wallet).
 */
import { ethereum, sigilDev } from '@sigil/core/networks'
import { orderAccounts } from '@sigil/core/session'
import { describe, expect, it, vi } from 'vitest'
import { proxyUrl, sessionTransport } from '../../core/src/connectors/walletconnect-session.js'
import { fakeTransport } from '../../core/src/test-utils/index.js'
import { EIP155_EVENTS, EIP155_METHODS, evmSession, SessionProvider } from './session.js'

const ADDRESS = '0x1111111111111111111111111111111111111111'
const OTHER = '0x2222222222222222222222222222222222222222'

describe('the proposal and the session’s accounts', () => {
  it('asks for the wallet methods and the EVM events', () => {
    expect(evmSession.methods).toBe(EIP155_METHODS)
    expect(evmSession.methods).toContain('personal_sign')
    expect(evmSession.events).toEqual(EIP155_EVENTS)
    expect(EIP155_EVENTS).toEqual(['accountsChanged', 'chainChanged'])
  })

  it('reads eip155 accounts from a session and prefers the first of the host networks the session has', () => {
    const namespaces = {
      eip155: {
        accounts: [`eip155:42161:${OTHER}`, `eip155:1:${ADDRESS}`, `eip155:31337:${ADDRESS}`],
        chains: ['eip155:1', 'eip155:42161', 'eip155:31337'],
        methods: ['personal_sign', 'eth_sendTransaction'],
        events: ['accountsChanged'],
      },
    }
    const all = evmSession.accounts(fakeTransport(() => namespaces, vi.fn()))
    expect(all.map((a) => `${a.chainId}:${a.address}`)).toEqual([`42161:${OTHER}`, `1:${ADDRESS}`, `31337:${ADDRESS}`])
    expect(orderAccounts(all, [sigilDev(), ethereum])).toEqual([{ namespace: 'eip155', address: ADDRESS, type: 'eoa', chainId: 31337 }])
    expect(orderAccounts(all, [])).toHaveLength(3)
  })

  it('EVM accounts are eoa; malformed ones and those of other namespaces are skipped', () => {
    const namespaces = {
      eip155: { chains: ['eip155:31337'], accounts: [`eip155:31337:${ADDRESS}`, 'eip155:x:0xab', 'eip155:1', `solana:a:${ADDRESS}`], methods: [] },
    }
    expect(evmSession.accounts(fakeTransport(() => namespaces, vi.fn()))).toEqual([{ namespace: 'eip155', address: ADDRESS, type: 'eoa', chainId: 31337 }])
  })
})

describe('the EIP-1193 provider over a session', () => {
  function provider(methods = namespacesFor().eip155.methods) {
    const client = { request: vi.fn(async () => '0xsig') }
    const fetchFn = vi.fn(async (..._args: unknown[]) => new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x64' }), { status: 200 }))
    const ns = namespacesFor()
    ns.eip155.methods = methods
    const transport = sessionTransport(
      { client, topic: 'T', namespaces: ns },
      { apiUrl: 'http://127.0.0.1:9', projectId: 'p1', fetch: fetchFn as unknown as typeof fetch },
      { connectorId: 'walletConnect', type: 'WALLET_CONNECT', name: 'Phone Wallet' },
    )
    const p = new SessionProvider(transport, 31337)
    return { p, client, fetchFn }
  }
  function namespacesFor() {
    return {
      eip155: {
        accounts: [`eip155:31337:${ADDRESS}`, `eip155:42161:${ADDRESS}`],
        chains: ['eip155:31337', 'eip155:42161'],
        methods: ['personal_sign', 'eth_sendTransaction'],
        events: [],
      },
    }
  }

  it('answers accounts and chain itself, sends wallet methods to the wallet on the current chain, and reads to the RPC proxy', async () => {
    const { p, client, fetchFn } = provider()
    expect(await p.request({ method: 'eth_accounts' })).toEqual([ADDRESS])
    expect(await p.request({ method: 'eth_chainId' })).toBe('0x7a69')
    expect(await p.request({ method: 'personal_sign', params: ['0x68', ADDRESS] })).toBe('0xsig')
    expect(client.request).toHaveBeenCalledWith({ topic: 'T', chainId: 'eip155:31337', request: { method: 'personal_sign', params: ['0x68', ADDRESS] } })
    expect(await p.request({ method: 'eth_getBalance', params: [ADDRESS, 'latest'] })).toBe('0x64')
    expect(fetchFn.mock.calls[0]?.[0]).toBe(proxyUrl('http://127.0.0.1:9', 'p1', 'eip155:31337'))
    expect(proxyUrl('http://127.0.0.1:9', 'p1', 'eip155:31337')).toBe('http://127.0.0.1:9/v1?chainId=eip155%3A31337&projectId=p1')
  })

  it('switching to a chain the session has needs no wallet round trip and emits chainChanged; a wallet error keeps its code', async () => {
    const { p, client } = provider()
    const changed: unknown[] = []
    p.on('chainChanged', (c: unknown) => changed.push(c))
    await p.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa4b1' }] })
    expect(changed).toEqual(['0xa4b1'])
    expect(client.request).not.toHaveBeenCalled()
    client.request.mockRejectedValueOnce({ code: 4001, message: 'User rejected.' } as never)
    await expect(p.request({ method: 'eth_sendTransaction', params: [{}] })).rejects.toMatchObject({ code: 4001, message: 'User rejected.' })
  })

  it('a transport that switches itself (the embedded wallet) is asked for every switch, and the move is heard', async () => {
    const switchChain = vi.fn(async (_chain: string) => undefined)
    const request = vi.fn(async () => ({}))
    const transport = fakeTransport(
      () => ({ eip155: { chains: ['eip155:1', 'eip155:137'], accounts: [`eip155:1:${ADDRESS}`, `eip155:137:${ADDRESS}`], methods: [] } }),
      request,
      {
        switchChain,
      },
    )
    const binding = evmSession.open(transport, { network: ethereum, accounts: [{ namespace: 'eip155', address: ADDRESS, type: 'eoa', chainId: 1 }] })
    const moved: unknown[] = []
    binding.subscribe?.((e) => moved.push(e))
    const p = binding.provider
    await p.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x89' }] })
    expect(switchChain).toHaveBeenCalledWith('eip155:137')
    expect(await p.request({ method: 'eth_chainId' })).toBe('0x89')
    expect(moved).toEqual([{ chainId: 137 }])
    expect(await p.request({ method: 'eth_accounts' })).toEqual([ADDRESS])
    // A request with no params goes as it is: the transport decides how to send it.
    await p.request({ method: 'eth_blockNumber' })
    expect(request).not.toHaveBeenCalled()
  })

  it('EIP-5792 requests go to the wallet (the embedded wallet: its frame) whatever methods the session lists', async () => {
    const request = vi.fn(async (_chain: string, method: string) => (method === 'wallet_sendCalls' ? { id: '0xb1' } : {}))
    const read = vi.fn(async () => undefined)
    const transport = fakeTransport(
      () => ({ eip155: { chains: ['eip155:1'], accounts: [`eip155:1:${ADDRESS}`], methods: ['eth_sendTransaction'] } }),
      request,
      {
        read,
        switchChain: async () => undefined,
      },
    )
    const { provider } = evmSession.open(transport, { network: ethereum, accounts: [{ namespace: 'eip155', address: ADDRESS, type: 'eoa', chainId: 1 }] })
    const bundle = { version: '2.0.0', chainId: '0x1', from: ADDRESS, atomicRequired: false, calls: [{ to: OTHER }] }
    expect(await provider.request({ method: 'wallet_sendCalls', params: [bundle] })).toEqual({ id: '0xb1' })
    await provider.request({ method: 'wallet_getCallsStatus', params: ['0xb1'] })
    await provider.request({ method: 'wallet_getCapabilities', params: [ADDRESS, ['0x1']] })
    expect(request.mock.calls).toEqual([
      ['eip155:1', 'wallet_sendCalls', [bundle]],
      ['eip155:1', 'wallet_getCallsStatus', ['0xb1']],
      ['eip155:1', 'wallet_getCapabilities', [ADDRESS, ['0x1']]],
    ])
    expect(read).not.toHaveBeenCalled()
  })

  it("the wallet's events: accounts and chain for EVM (an event naming no chain is EVM's), none for another family's chain", () => {
    const transport = fakeTransport(() => ({ eip155: { chains: ['eip155:1'], accounts: [`eip155:1:${ADDRESS}`], methods: [] } }), vi.fn())
    const binding = evmSession.open(transport, { network: ethereum, accounts: [{ namespace: 'eip155', address: ADDRESS, type: 'eoa', chainId: 1 }] })
    const heard: unknown[] = []
    binding.provider.on?.('chainChanged', (c: unknown) => heard.push(c))
    expect(binding.event?.('accountsChanged', [`eip155:1:${OTHER}`], undefined)).toEqual({ accounts: [OTHER] })
    expect(binding.event?.('chainChanged', '0x89', 'eip155:137')).toEqual({ chainId: 137 })
    expect(heard).toEqual(['0x89'])
    expect(binding.event?.('chainChanged', 'garbage', undefined)).toBeUndefined()
    expect(binding.event?.('accountsChanged', [OTHER], 'solana:abc')).toBeUndefined()
  })
})
