import { describe, expect, it, vi } from 'vitest'
import type { FamilySession } from '../adapter.js'
import { ethereum, polygon, solana } from '../networks.js'
import { MemoryStorage } from '../test-utils/index.js'
import type { CaipNetwork } from '../types.js'
import { SigilError, UserRejectedRequestError } from '../errors.js'
import { LoginCacheKeys, type EmbeddedRequestEvent } from './auth.js'
import type { SessionTransport } from './transport.js'
import type { ConnectorEvent } from './types.js'

/** The frame's answers, by request type, in order; what the connector asked. */
const script: Record<string, unknown[]> = {}
const asked: { type: string; payload: unknown }[] = []
/** The options the connector made its bridge with. */
let bridgeOptions: { onHeight?: (height: number) => void } = {}

vi.mock('../frame/bridge.js', () => ({
  FRAME_SIGN_OUT_WAIT_MS: 3000,
  FrameBridge: class {
    constructor(options: typeof bridgeOptions) {
      bridgeOptions = options
    }
    ready = Promise.resolve()
    async request(type: string, payload?: unknown) {
      asked.push({ type, payload })
      const next = script[type]?.shift()
      if (next instanceof Error) throw next
      return next ?? {}
    }
    show() {}
  },
}))

const { createAuthImpl } = await import('./auth-impl.js')

const USER = {
  address: '0x1111111111111111111111111111111111111111',
  chainId: 'eip155:1',
  accounts: [{ namespace: 'eip155', address: '0x1111111111111111111111111111111111111111', type: 'eoa' }],
  preferredAccountType: 'eoa',
}

function impl() {
  const storage = new MemoryStorage()
  const { connector } = createAuthImpl(
    { frameUrl: 'https://frame.example', projectId: 'p', version: '1', chainId: () => 'eip155:1', storage },
    { emit: () => undefined, emitRequest: () => undefined },
  )
  asked.length = 0
  return { connector, storage }
}

describe('the embedded wallet: social login', () => {
  it('asks connect social again while pending, then keeps the provider and username in the login cache; the connection carries them', async () => {
    const { connector, storage } = impl()
    script.GET_SOCIAL_REDIRECT_URI = [{ uri: 'https://idp.example/auth?state=s1' }]
    script.CONNECT_SOCIAL = [{ pending: true }, { pending: true }, { ...USER, email: 'alice@example.com', provider: 'github', userName: 'alice' }]
    script.GET_USER = [{ ...USER, email: 'alice@example.com' }]
    expect(await connector.getSocialRedirectUri('github', { returnUrl: 'https://shop.example/' })).toBe('https://idp.example/auth?state=s1')
    expect(storage.getItem(LoginCacheKeys.socialProvider)).toBe('github')
    expect(await connector.connectSocial('https://idp.example/auth?state=s1')).toEqual({ provider: 'github', userName: 'alice' })
    expect(asked.map((a) => a.type)).toEqual(['GET_SOCIAL_REDIRECT_URI', 'CONNECT_SOCIAL', 'CONNECT_SOCIAL', 'CONNECT_SOCIAL'])
    expect(asked[0]?.payload).toEqual({ provider: 'github', returnUrl: 'https://shop.example/' })
    const connection = await connector.connect({ namespaces: ['eip155'], networks: [] })
    expect([connection.socialProvider, connection.user]).toEqual(['github', { email: 'alice@example.com', username: 'alice' }])
    expect(storage.getItem(LoginCacheKeys.emailLogin)).toBe('true')
    expect(storage.getItem(LoginCacheKeys.socialUsername)).toBe('alice')
    // Disconnecting forgets the whole login cache (spec section 4).
    await connector.disconnect()
    expect(Object.values(LoginCacheKeys).map((k) => storage.getItem(k))).toEqual(Object.values(LoginCacheKeys).map(() => null))
  })

  it('stops asking once aborted', async () => {
    const { connector } = impl()
    const controller = new AbortController()
    script.CONNECT_SOCIAL = [{ pending: true }, { pending: true }, { pending: true }]
    const first = connector.connectSocial('https://idp.example/auth?state=s1', { signal: controller.signal })
    controller.abort()
    await expect(first).rejects.toThrow('Something went wrong')
    expect(asked.filter((a) => a.type === 'CONNECT_SOCIAL').length).toBeLessThanOrEqual(1)
  })

  it('Farcaster: the channel URL, then the userName once the app signed in; an email login afterwards drops the social keys', async () => {
    const { connector, storage } = impl()
    script.GET_FARCASTER_URI = [{ url: 'https://farcaster.xyz/~/siwf?channelToken=c1' }]
    script.CONNECT_FARCASTER = [{ pending: true }, { userName: 'alice' }]
    expect(await connector.getFarcasterUri()).toBe('https://farcaster.xyz/~/siwf?channelToken=c1')
    expect(storage.getItem(LoginCacheKeys.farcasterUrl)).toBe('https://farcaster.xyz/~/siwf?channelToken=c1')
    expect(await connector.connectFarcaster()).toEqual({ provider: 'farcaster', userName: 'alice' })
    expect([storage.getItem(LoginCacheKeys.socialProvider), storage.getItem(LoginCacheKeys.socialUsername)]).toEqual(['farcaster', 'alice'])
    script.CONNECT_EMAIL = [{ action: 'VERIFY_OTP' }]
    await connector.connectEmail('bob@example.com')
    expect([storage.getItem(LoginCacheKeys.socialProvider), storage.getItem(LoginCacheKeys.socialUsername)]).toEqual([null, null])
  })
})

describe('the embedded wallet as a session transport', () => {
  const SOL = '7Np41oeYqPefeNQEHSv1UDhYrehxin3NStELsSKCT4K2'
  const user = {
    ...USER,
    accounts: [...USER.accounts, { namespace: 'solana', address: SOL, type: 'eoa' }],
  }

  /** A family that records the transport and start it was bound with, and lets the test move its chain. */
  function family() {
    const opened: { transport: SessionTransport; start: { network: CaipNetwork | undefined } }[] = []
    let move: ((event: { chainId: number }) => void) | undefined
    const session: FamilySession = {
      methods: [],
      events: [],
      accounts: () => [],
      open(transport, start) {
        opened.push({ transport, start })
        return {
          provider: { family: true },
          subscribe: (listener) => {
            move = listener
            return () => undefined
          },
        }
      },
    }
    return { capability: { load: async () => session }, opened, move: (chainId: number) => move?.({ chainId }) }
  }

  it("binds each namespace the user has an account in to its family over the frame, on the host's networks", async () => {
    const storage = new MemoryStorage()
    const evm = family()
    const events: ConnectorEvent[] = []
    const { connector } = createAuthImpl(
      { frameUrl: 'https://frame.example', projectId: 'p', version: '1', chainId: () => 'eip155:1', storage, families: { eip155: evm.capability } },
      { emit: (e) => events.push(e), emitRequest: () => undefined },
    )
    asked.length = 0
    script.GET_USER = [user]
    script.GET_SMART_ACCOUNT_ENABLED_NETWORKS = [{ smartAccountEnabledNetworks: [137] }]
    const connection = await connector.connect({ namespaces: ['eip155', 'solana'], networks: [ethereum, polygon, solana] })
    // solana has no family here: its account is not taken
    expect(connection.accounts).toEqual([{ namespace: 'eip155', address: USER.address, type: 'eoa', chainId: 1 }])
    // the frame says where its account can be a smart account
    expect(connection.smartAccountEnabledNetworks).toEqual([137])
    script.SET_PREFERRED_ACCOUNT = [{ type: 'smartAccount', address: USER.address }]
    expect(await connector.setPreferredAccountType?.('smartAccount')).toEqual({ type: 'smartAccount', address: USER.address })
    expect(asked.at(-1)).toEqual({ type: 'SET_PREFERRED_ACCOUNT', payload: { type: 'smartAccount' } })
    expect(connector.getProvider('eip155')).toEqual({ family: true })
    expect(connector.getProvider('solana')).toBeUndefined()
    const [bound] = evm.opened
    expect(bound?.start.network).toBe(ethereum)
    const transport = bound?.transport as SessionTransport
    expect(transport.peer).toMatchObject({ connectorId: 'sigil-embedded', type: 'AUTH' })
    expect(transport.namespace('eip155')?.accounts).toEqual([`eip155:1:${USER.address}`, `eip155:137:${USER.address}`])
    expect(transport.namespace('eip155')?.methods).toContain('personal_sign')
    // EIP-5792 capabilities are the frame's (its server knows the smart accounts)
    script.RPC_REQUEST = [{ result: { '0x1': { atomic: { status: 'ready' } } } }]
    expect(await transport.request('eip155:1', 'wallet_getCapabilities', [USER.address])).toEqual({ '0x1': { atomic: { status: 'ready' } } })
    expect(asked.at(-1)).toEqual({ type: 'RPC_REQUEST', payload: { method: 'wallet_getCapabilities', params: [USER.address], chainId: 'eip155:1' } })
    script.RPC_REQUEST = [{ result: '0x1' }]
    expect(await transport.read('eip155:1', 'eth_blockNumber', undefined)).toBe('0x1')
    expect(asked.at(-1)).toEqual({ type: 'RPC_REQUEST', payload: { method: 'eth_blockNumber', chainId: 'eip155:1' } })
    // the frame switches chains itself; a move through the provider reaches the modal
    await transport.switchChain?.('eip155:137')
    expect(asked.at(-1)).toEqual({ type: 'SWITCH_NETWORK', payload: { chainId: 'eip155:137' } })
    expect(storage.getItem(LoginCacheKeys.lastChain)).toBe('eip155:137')
    evm.move(137)
    expect(events).toEqual([{ type: 'chainChanged', namespace: 'eip155', chainId: 137 }])
  })

  it("an approved request the chain refuses: the page gets the node's error, the modal the spec's text", async () => {
    const evm = family()
    const requests: EmbeddedRequestEvent[] = []
    const { connector } = createAuthImpl(
      {
        frameUrl: 'https://frame.example',
        projectId: 'p',
        version: '1',
        chainId: () => 'eip155:1',
        storage: new MemoryStorage(),
        families: { eip155: evm.capability },
      },
      { emit: () => undefined, emitRequest: (e) => requests.push(e) },
    )
    script.GET_USER = [user]
    await connector.connect({ namespaces: ['eip155'], networks: [ethereum] })
    const transport = evm.opened[0]?.transport as SessionTransport
    // anvil's refusal, as the frame passes it on (the node's code and words)
    const refusal = new SigilError('Insufficient funds for gas * price + value', -32003)
    script.RPC_REQUEST = [refusal]
    await expect(transport.request('eip155:1', 'eth_sendTransaction', [{ from: USER.address, to: USER.address, value: '0x1' }])).rejects.toBe(refusal)
    expect(requests.at(-1)).toEqual({
      type: 'approval-end',
      ok: false,
      failure: { message: 'Insufficient funds: the amount and the network fee are more than the account holds.', transaction: true },
    })
    // The user's own rejection is no failure to tell.
    script.RPC_REQUEST = [new UserRejectedRequestError()]
    await expect(transport.request('eip155:1', 'personal_sign', ['0x68', USER.address])).rejects.toMatchObject({ code: 4001 })
    expect(requests.at(-1)).toEqual({ type: 'approval-end', ok: false })
  })
})

describe('the embedded wallet: email login', () => {
  it('waiting for the device approval is an answer, not an error: VERIFY_DEVICE until approved, then VERIFY_OTP starts the 30 s between codes', async () => {
    const { connector, storage } = impl()
    script.CONNECT_EMAIL = [{ action: 'VERIFY_DEVICE' }]
    script.CONNECT_DEVICE = [{ action: 'VERIFY_DEVICE' }, { action: 'VERIFY_OTP' }]
    expect(await connector.connectEmail('a@b.co')).toBe('VERIFY_DEVICE')
    // the device link went out: the next mail 30 s later at the soonest, as the server has it
    expect(Number(storage.getItem(LoginCacheKeys.lastEmailLoginTime))).toBeGreaterThan(0)
    storage.removeItem(LoginCacheKeys.lastEmailLoginTime)
    expect(await connector.connectDevice()).toBe('VERIFY_DEVICE')
    expect(storage.getItem(LoginCacheKeys.lastEmailLoginTime)).toBeNull()
    expect(await connector.connectDevice()).toBe('VERIFY_OTP')
    expect(Number(storage.getItem(LoginCacheKeys.lastEmailLoginTime))).toBeGreaterThan(0)
  })

  it("tells the frame the host's networks by name once connected (again when they change), and passes on the height the frame's view needs", async () => {
    const requests: unknown[] = []
    const { connector } = createAuthImpl(
      {
        frameUrl: 'https://frame.example',
        projectId: 'p',
        version: '1',
        chainId: () => 'eip155:1',
        storage: new MemoryStorage(),
        dappData: { sdkType: 'sigil' },
      },
      { emit: () => undefined, emitRequest: (e) => requests.push(e) },
    )
    asked.length = 0
    const solanaDev = { ...solana, caipNetworkId: 'solana:SigiLDevSoLanaRuntime11111111111', name: 'Sigil Solana Dev' } as CaipNetwork
    const syncs = () => asked.filter((a) => a.type === 'SYNC_DAPP_DATA').map((a) => (a.payload as { networks?: unknown }).networks)
    script.GET_USER = [USER, USER, USER]
    await connector.connect({ namespaces: ['eip155'], networks: [ethereum, solanaDev] })
    await vi.waitFor(() =>
      expect(syncs()).toContainEqual([
        { caipNetworkId: 'eip155:1', name: 'Ethereum' },
        { caipNetworkId: 'solana:SigiLDevSoLanaRuntime11111111111', name: 'Sigil Solana Dev' },
      ]),
    )
    const told = syncs().length
    await connector.connect({ namespaces: ['eip155'], networks: [ethereum, solanaDev] })
    await connector.connect({ namespaces: ['eip155'], networks: [polygon] })
    await vi.waitFor(() => expect(syncs().at(-1)).toEqual([{ caipNetworkId: 'eip155:137', name: 'Polygon' }]))
    expect(syncs()).toHaveLength(told + 1)
    bridgeOptions.onHeight?.(388)
    expect(requests).toContainEqual({ type: 'frame-height', height: 388 })
  })
})
