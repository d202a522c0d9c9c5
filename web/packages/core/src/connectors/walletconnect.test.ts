/**
 * The WalletConnect connector: its options (relay from the Sigil server, a malformed relay URL
 * refused), the pairing state views show, the session module loaded only when needed, a
 * connection through the core actions, wallet events, disconnect and restore; the session
 * helpers (event addresses, deep links, clock refusals) and the session as a transport (wallet
 * requests through the session, reads to the RPC proxy). The EIP-1193 provider over it is EVM's
 * (adapter-evm's session.test.ts).
 */
import { describe, expect, it, vi } from 'vitest'
import { WalletConnectError } from '../errors.js'
import { resolveOptions } from '../options.js'
import { fakeAdapter, fakeSessionFamilies, MemoryStorage, testClient, testOptions } from '../test-utils/index.js'
import { bitcoin, ethereum, sigilDev, solana } from '../networks.js'
import { eventAddresses } from '../session.js'
import { walletConnectLink, walletLinkTabs } from './deep-link.js'
import type { Connection, ConnectParams } from './types.js'
import {
  isWalletConnectConnector,
  WALLET_CONNECT_ID,
  walletConnectConnector,
  walletConnectConnectors,
  type WalletConnectSession,
  type WalletConnectSessionHost,
  type WalletConnectState,
} from './walletconnect.js'
import { isClockRefusal, proxyUrl, sessionTransport } from './walletconnect-session.js'

const ADDRESS = '0x1111111111111111111111111111111111111111'
const OTHER = '0x2222222222222222222222222222222222222222'

describe('options', () => {
  it("defaults the relay to the Sigil server's /relay (ws for http, wss for https) and Verify to the server", () => {
    expect(resolveOptions(testOptions({ apiUrl: 'http://127.0.0.1:8080' })).walletConnect).toEqual({
      relayUrl: 'ws://127.0.0.1:8080/relay',
      verifyUrl: 'http://127.0.0.1:8080',
    })
    expect(resolveOptions(testOptions({ apiUrl: 'https://sigil.example.org/' })).walletConnect).toEqual({
      relayUrl: 'wss://sigil.example.org/relay',
      verifyUrl: 'https://sigil.example.org',
    })
  })

  it('takes a relay URL, turns off with false, and refuses a relay URL that is not ws(s) with a clear error', () => {
    expect(resolveOptions(testOptions({ apiUrl: 'http://a.test', walletConnect: { relayUrl: 'wss://relay.test/ws/' } })).walletConnect).toEqual({
      relayUrl: 'wss://relay.test/ws',
      verifyUrl: 'http://a.test',
    })
    expect(resolveOptions(testOptions({ walletConnect: false })).walletConnect).toBe(false)
    for (const bad of ['https://relay.test', 'relay', 'ws//x']) {
      expect(() => resolveOptions(testOptions({ walletConnect: { relayUrl: bad } }))).toThrow(
        expect.objectContaining({ code: 'INVALID_RELAY_URL', message: `Invalid WalletConnect relay URL "${bad}": it must start with ws:// or wss://` }),
      )
    }
  })
})

/** A session module double: connect() waits until the test approves, rejects or cancels. */
function fakeSession() {
  let host!: WalletConnectSessionHost
  const provider = { request: vi.fn() }
  let settle: { resolve: (c: Connection) => void; reject: (e: unknown) => void } | undefined
  const session: WalletConnectSession & { warmUp(): Promise<void> } = {
    connect: vi.fn(
      (_params: ConnectParams) =>
        new Promise<Connection>((resolve, reject) => {
          host.setState({ pairing: 'ready', uri: 'wc:abc@2?relay-protocol=irn&symKey=00', expiresAt: Date.now() + 230_000, relay: 'connected' })
          settle = { resolve, reject }
        }),
    ),
    reconnect: vi.fn(async () => undefined as Connection | undefined),
    disconnect: vi.fn(async () => undefined),
    provider: vi.fn((ns: string) => (ns === 'eip155' ? provider : undefined)),
    cancel: vi.fn(() => settle?.reject(WalletConnectError.cancelled())),
    retryRelay: vi.fn(async () => undefined),
    warmUp: vi.fn(async () => undefined),
  }
  const load = vi.fn(async () => (h: WalletConnectSessionHost) => {
    host = h
    return session
  })
  const approve = (accounts = [ADDRESS], chainId = 1) =>
    settle?.resolve({
      connectorId: WALLET_CONNECT_ID,
      accounts: accounts.map((address) => ({ namespace: 'eip155', address, type: 'eoa', chainId })),
      walletInfo: { name: 'Phone Wallet' },
    })
  return { session, load, provider, approve, host: () => host }
}

function wcClient(fake = fakeSession(), storage = new MemoryStorage()) {
  const options = resolveOptions(testOptions({ apiUrl: 'http://127.0.0.1:9', networks: [ethereum, sigilDev()] }))
  const { client } = testClient(
    { apiUrl: 'http://127.0.0.1:9', networks: [ethereum, sigilDev()] },
    {
      storage,
      connectors: [walletConnectConnectors({ options, families: fakeSessionFamilies(), load: fake.load })],
      adapters: [fakeAdapter('eip155').adapter],
    },
  )
  const connector = client.context.connectors.get(WALLET_CONNECT_ID)
  if (!isWalletConnectConnector(connector)) throw new Error('no WalletConnect connector')
  return { client, connector, fake, storage }
}

describe('the connector', () => {
  it('is listed as WalletConnect (type WALLET_CONNECT) for the configured namespaces, and none when turned off or with none it can hold', () => {
    const { client, fake } = wcClient()
    expect(client.store.getState().connectors).toEqual([
      expect.objectContaining({ id: 'walletConnect', name: 'WalletConnect', type: 'WALLET_CONNECT', chain: 'eip155', namespaces: ['eip155'] }),
    ])
    // nothing of the SDK is loaded for listing it
    expect(fake.load).not.toHaveBeenCalled()
    // The namespaces are those of the host's networks that a family (an adapter's session capability) serves.
    const all = fakeSessionFamilies()
    expect(walletConnectConnector({ options: resolveOptions(testOptions({ walletConnect: false })), families: all })).toBeUndefined()
    const families = walletConnectConnector({ options: resolveOptions(testOptions({ networks: [ethereum, solana, bitcoin] })), families: all })
    expect(families?.info).toMatchObject({ chain: 'eip155', namespaces: ['eip155', 'solana', 'bip122'] })
    expect(walletConnectConnector({ options: resolveOptions(testOptions({ networks: [solana] })), families: all })?.info).toMatchObject({
      chain: 'solana',
      namespaces: ['solana'],
    })
    const cosmos = { ...ethereum, chainNamespace: 'cosmos' as const, caipNetworkId: 'cosmos:cosmoshub-4' as const }
    expect(walletConnectConnector({ options: resolveOptions(testOptions({ networks: [cosmos] })), families: all })).toBeUndefined()
  })

  it('connect: the pairing URI shows in the state, approval connects the account, events update it, the wallet ending it disconnects', async () => {
    const { client, connector, fake } = wcClient()
    const states: WalletConnectState[] = []
    connector.subscribeState((s) => states.push(s))
    const connecting = client.connect(WALLET_CONNECT_ID)
    await vi.waitFor(() => expect(connector.getState()).toMatchObject({ pairing: 'ready', uri: expect.stringMatching(/^wc:/) }))
    expect(states[0]).toMatchObject({ pairing: 'loading' })
    expect(client.store.getState().chains.eip155?.connectionStatus).toBe('connecting')
    expect(fake.session.connect).toHaveBeenCalledWith({ namespaces: ['eip155'], networks: [ethereum, expect.objectContaining({ id: 31337 })] })
    fake.approve()
    await connecting
    const state = client.store.getState()
    expect(state.chains.eip155).toMatchObject({ connectionStatus: 'connected', connectorId: 'walletConnect', account: { address: ADDRESS } })
    expect(state.providers.eip155).toEqual({ provider: fake.provider, type: 'WALLET_CONNECT', connectorId: 'walletConnect' })
    fake.host().emit({ type: 'accountsChanged', namespace: 'eip155', accounts: [OTHER] })
    expect(client.store.getState().chains.eip155?.account.address).toBe(OTHER)
    fake.host().emit({ type: 'chainChanged', namespace: 'eip155', chainId: 31337 })
    expect(client.store.getState().chains.eip155?.account.caipAddress).toBe(`eip155:31337:${OTHER}`)
    fake.host().emit({ type: 'disconnect' })
    expect(client.store.getState().chains.eip155?.connectionStatus).toBe('disconnected')
    expect(client.store.getState().providers.eip155).toBeUndefined()
  })

  it("the page's disconnect ends the session; a reload restores it through reconnect() without a new pairing", async () => {
    const storage = new MemoryStorage()
    const first = wcClient(fakeSession(), storage)
    const connecting = first.client.connect(WALLET_CONNECT_ID)
    await vi.waitFor(() => expect(first.connector.getState().pairing).toBe('ready'))
    first.fake.approve()
    await connecting
    // a new page with the same storage: the stored connection is restored
    const again = fakeSession()
    again.session.reconnect = vi.fn(async () => ({
      connectorId: WALLET_CONNECT_ID,
      accounts: [{ namespace: 'eip155' as const, address: ADDRESS, type: 'eoa' as const, chainId: 1 }],
    }))
    const second = wcClient(again, storage)
    await second.client.ready
    expect(again.session.reconnect).toHaveBeenCalledTimes(1)
    expect(again.session.connect).not.toHaveBeenCalled()
    expect(second.client.store.getState().chains.eip155).toMatchObject({ connectionStatus: 'connected', account: { address: ADDRESS } })
    await second.client.disconnect()
    expect(again.session.disconnect).toHaveBeenCalledTimes(1)
    expect(second.client.store.getState().chains.eip155?.connectionStatus).toBe('disconnected')
  })

  it('cancel (the view was left) rejects the pending connect and the namespace goes back to disconnected', async () => {
    const { client, connector } = wcClient()
    const connecting = client.connect(WALLET_CONNECT_ID).catch((e: unknown) => e)
    await vi.waitFor(() => expect(connector.getState().pairing).toBe('ready'))
    connector.cancel()
    expect(await connecting).toMatchObject({ code: 'CANCELLED' })
    expect(client.store.getState().chains.eip155?.connectionStatus).toBe('disconnected')
  })

  it('preload loads the session module once; with start, the SDK client starts too; a failed load shows and is retried', async () => {
    const { connector, fake } = wcClient()
    await connector.preload()
    await connector.preload(true)
    expect(fake.load).toHaveBeenCalledTimes(1)
    expect(fake.session.warmUp).toHaveBeenCalledTimes(1)

    const failing = fakeSession()
    failing.load.mockRejectedValueOnce(new Error('chunk failed'))
    const { client, connector: c2 } = wcClient(failing)
    await expect(client.connect(WALLET_CONNECT_ID)).rejects.toMatchObject({ code: 'SDK_LOAD_FAILED', message: 'WalletConnect could not be loaded.' })
    expect(c2.getState()).toMatchObject({ pairing: 'error', error: { code: 'SDK_LOAD_FAILED' } })
    const again = client.connect(WALLET_CONNECT_ID)
    await vi.waitFor(() => expect(c2.getState().pairing).toBe('ready'))
    failing.approve()
    await again
    expect(failing.load).toHaveBeenCalledTimes(2)
  })
})

describe('session helpers', () => {
  it('accountsChanged data as addresses or CAIP-10; relay refusals for a token expired or not yet valid', () => {
    expect(eventAddresses([ADDRESS, `eip155:1:${OTHER}`, 5])).toEqual([ADDRESS, OTHER])
    expect(eventAddresses('x')).toEqual([])
    expect(
      isClockRefusal(new Error('WebSocket connection closed abnormally with code: 3000 (Authorization error: JWT validation error: JWT Token is expired)')),
    ).toBe(true)
    expect(isClockRefusal(new Error('Authorization error: JWT validation error: JWT Token is not yet valid'))).toBe(true)
    expect(isClockRefusal(new Error('Authorization error: Invalid Project ID'))).toBe(false)
  })

  it('deep links: native schemes and universal links get wc?uri=, unsafe schemes none; tabs follow the links a wallet has', () => {
    const uri = 'wc:ab@2?relay-protocol=irn&symKey=cd'
    const enc = encodeURIComponent(uri)
    expect(walletConnectLink('rainbow://', uri)).toBe(`rainbow://wc?uri=${enc}`)
    expect(walletConnectLink('trust:', uri)).toBe(`trust://wc?uri=${enc}`)
    expect(walletConnectLink('https://metamask.app.link', uri)).toBe(`https://metamask.app.link/wc?uri=${enc}`)
    expect(walletConnectLink('https://link.test/x/', uri)).toBe(`https://link.test/x/wc?uri=${enc}`)
    expect(walletConnectLink('javascript:alert(1)', uri)).toBeUndefined()
    expect(walletConnectLink(null, uri)).toBeUndefined()
    expect(walletLinkTabs({ mobile_link: 'a://', desktop_link: 'https://d.test', webapp_link: null })).toEqual(['mobile', 'desktop'])
    expect(walletLinkTabs(undefined)).toEqual(['mobile'])
  })
})

describe('the session as a transport', () => {
  function transport() {
    const client = { request: vi.fn(async () => '0xsig') }
    const fetchFn = vi.fn(async (..._args: unknown[]) => new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result: '0x64' }), { status: 200 }))
    const namespaces = {
      eip155: {
        accounts: [`eip155:31337:${ADDRESS}`, `eip155:42161:${ADDRESS}`],
        chains: ['eip155:31337', 'eip155:42161'],
        methods: ['personal_sign', 'eth_sendTransaction'],
        events: [],
      },
    }
    const t = sessionTransport(
      { client, topic: 'T', namespaces },
      { apiUrl: 'http://127.0.0.1:9', projectId: 'p1', fetch: fetchFn as unknown as typeof fetch },
      { connectorId: WALLET_CONNECT_ID, type: 'WALLET_CONNECT', name: 'Phone Wallet' },
    )
    return { t, client, fetchFn }
  }

  it("sends the wallet's requests through the session on the chain asked, and reads to the RPC proxy", async () => {
    const { t, client, fetchFn } = transport()
    expect(t.namespace('eip155')).toEqual({
      chains: ['eip155:31337', 'eip155:42161'],
      accounts: [`eip155:31337:${ADDRESS}`, `eip155:42161:${ADDRESS}`],
      methods: ['personal_sign', 'eth_sendTransaction'],
    })
    expect(t.namespace('solana')).toBeUndefined()
    expect(await t.request('eip155:31337', 'personal_sign', ['0x68', ADDRESS])).toBe('0xsig')
    expect(client.request).toHaveBeenCalledWith({ topic: 'T', chainId: 'eip155:31337', request: { method: 'personal_sign', params: ['0x68', ADDRESS] } })
    expect(await t.read('eip155:31337', 'eth_getBalance', [ADDRESS, 'latest'])).toBe('0x64')
    expect(fetchFn.mock.calls[0]?.[0]).toBe(proxyUrl('http://127.0.0.1:9', 'p1', 'eip155:31337'))
    expect(proxyUrl('http://127.0.0.1:9', 'p1', 'eip155:31337')).toBe('http://127.0.0.1:9/v1?chainId=eip155%3A31337&projectId=p1')
  })

  it("a wallet error keeps its code; what a family keeps is this session's only", async () => {
    const { t, client } = transport()
    client.request.mockRejectedValueOnce({ code: 4001, message: 'User rejected.' } as never)
    await expect(t.request('eip155:31337', 'eth_sendTransaction', [{}])).rejects.toMatchObject({ code: 4001, message: 'User rejected.' })
    t.remember('x', { a: 1 })
    expect(t.recall('x')).toEqual({ a: 1 })
    const other = sessionTransport({ client, topic: 'U', namespaces: {} }, { apiUrl: 'http://127.0.0.1:9', projectId: 'p1' }, t.peer)
    expect(other.recall('x')).toBeUndefined()
  })
})
