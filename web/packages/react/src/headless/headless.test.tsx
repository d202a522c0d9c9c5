/** @sigil/react/headless: a host's own wallet UI on Sigil's state and actions, with no modal mounted. */
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  AUTH_CONNECTOR_ID,
  resolveOptions,
  SigilError,
  WalletConnectError,
  walletConnectConnectors,
  type Connection,
  type SocialProvider,
  type Wallet,
  type WalletConnectSession,
  type WalletConnectSessionHost,
} from '@sigil/core'
import { arbitrum, ethereum, sigilDev } from '@sigil/core/networks'
import { fakeAuthConnector, fakeSessionFamilies } from '../../../core/src/test-utils/index.js'
import type { AppKit } from '../appkit.js'
import { ADDRESS, cleanup, fakeAdapter, render, stubDirectory, testAppKit, waitFor, walletCalls } from '../test-utils.js'
import {
  useConnect,
  useConnectors,
  useEmailLogin,
  useSocialLogin,
  useWalletConnectUri,
  useWalletList,
  type UseConnect,
  type UseEmailLogin,
  type UseSocialLogin,
  type UseWalletConnectUri,
  type UseWalletList,
} from './index.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
  vi.unstubAllGlobals()
})

const noModal = () => expect(document.querySelector('sigil-modal')).toBeNull()

describe('useWalletList', () => {
  let list: UseWalletList | undefined
  function List({ search }: { search?: string }) {
    list = useWalletList(search === undefined ? {} : { search })
    return null
  }

  it('pages through the directory 40 at a time, then searches it (after the pause), with icons; no modal', async () => {
    const fetchMock = stubDirectory(95)
    const { appKit } = testAppKit()
    current = appKit
    const { root } = render(<List />)
    await waitFor(() => expect(list?.wallets).toHaveLength(40))
    expect(list?.count).toBe(95)
    expect(list?.hasMore).toBe(true)
    expect(list?.isLoading).toBe(false)
    expect(list?.wallets[0]).toMatchObject({ id: 'w1', name: 'Wallet 1', connector: undefined })
    expect(list?.wallets[0]?.imageUrl).toMatch(/^https:\/\/api\.test\/getWalletImage\/img1\?/)

    act(() => list?.loadMore())
    await waitFor(() => expect(list?.wallets).toHaveLength(80))
    act(() => list?.loadMore())
    await waitFor(() => expect(list?.wallets).toHaveLength(95))
    expect(list?.hasMore).toBe(false)
    expect(walletCalls(fetchMock).map((u) => [u.searchParams.get('page'), u.searchParams.get('entries')])).toEqual([
      ['1', '40'],
      ['2', '40'],
      ['3', '40'],
    ])

    act(() => root.render(<List search="Wallet 9" />))
    // Until the pause is over, the pages stay and nothing is asked.
    expect(list?.search).toBe('')
    expect(walletCalls(fetchMock)).toHaveLength(3)
    await waitFor(() => expect(list?.search).toBe('Wallet 9'))
    await waitFor(() => expect(list?.wallets.map((w) => w.name)).toEqual(['Wallet 9', ...[90, 91, 92, 93, 94, 95].map((n) => `Wallet ${n}`)]))
    expect(list?.count).toBe(7)
    expect(list?.hasMore).toBe(false)
    expect(walletCalls(fetchMock).at(-1)?.searchParams.get('search')).toBe('Wallet 9')
    noModal()
  })

  it('a failed page says so and retry() asks again', async () => {
    const fetchMock = stubDirectory(10)
    const { appKit } = testAppKit()
    current = appKit
    const working = fetchMock.getMockImplementation()
    fetchMock.mockImplementationOnce(async () => new Response('{"error":{"code":"DOWN","message":"down"}}', { status: 503 }))
    render(<List />)
    await waitFor(() => expect(list?.error).toBeInstanceOf(Error))
    expect(list?.wallets).toEqual([])
    if (working) fetchMock.mockImplementation(working)
    act(() => list?.retry())
    await waitFor(() => expect(list?.wallets).toHaveLength(10))
    expect(list?.error).toBeUndefined()
  })

  it('marks a directory wallet installed in the page with its connector', async () => {
    const fake = fakeAdapter()
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ count: 1, data: [{ id: 'test', name: 'Test Wallet', image_id: 'i', rdns: 'com.test' }] })),
    )
    const { appKit } = testAppKit({ adapters: [fake.adapter], connectors: [fake.source] })
    current = appKit
    render(<List />)
    await waitFor(() => expect(list?.wallets[0]?.connector?.id).toBe('com.test'))
  })
})

describe('useConnectors and useConnect', () => {
  let connectors: ReturnType<typeof useConnectors> | undefined
  let connect: UseConnect | undefined
  function Connect() {
    connectors = useConnectors()
    connect = useConnect()
    return null
  }

  it('lists the page connectors (not the embedded wallet) and connects one, by connector or by its directory wallet', async () => {
    stubDirectory()
    const fake = fakeAdapter()
    const { source } = fakeAuthConnector()
    const { appKit } = testAppKit({ adapters: [fake.adapter], connectors: [fake.source, source] })
    current = appKit
    render(<Connect />)
    expect(connectors?.connectors.map((c) => [c.id, c.type])).toEqual([['com.test', 'ANNOUNCED']])

    let connection: Connection | undefined
    await act(async () => {
      connection = await connect?.connect({ connector: { id: 'com.test' } })
    })
    expect(connection?.accounts[0]?.address).toBe(ADDRESS)
    expect(connect?.data).toBe(connection)
    expect(appKit.getAccount().address).toBe(ADDRESS)
    noModal()

    await act(() => appKit.disconnect())
    const wallet: Wallet = { id: 'test-wallet', name: 'Test Wallet', image_id: 'i', rdns: 'com.test' }
    await act(async () => {
      await connect?.connect({ wallet })
    })
    expect(fake.connector.connect).toHaveBeenCalledTimes(2)
    expect(appKit.getAccount().isConnected).toBe(true)
    // Remembered among the recent wallets, as a pick in the modal's list would be.
    expect(appKit.client.store.getState().recentWallets.map((w) => w.id)).toContain('test-wallet')
  })

  it('a declined connect is the error (code 4001); connectAsync rejects with it; reset clears it', async () => {
    stubDirectory()
    const { appKit, fake } = testAppKit()
    current = appKit
    render(<Connect />)
    fake.rejectNext({ code: 4001, message: 'User rejected the request.' })
    await act(async () => {
      expect(await connect?.connect({ connectorId: 'com.test' })).toBeUndefined()
    })
    expect(connect?.error?.code).toBe(4001)
    expect(connect?.isPending).toBe(false)
    act(() => connect?.reset())
    expect(connect?.error).toBeUndefined()
    await act(async () => {
      await expect(connect?.connectAsync({ connectorId: 'nope' })).rejects.toMatchObject({ code: 'CONNECTOR_NOT_FOUND' })
    })
  })
})

const URI =
  'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?relay-protocol=irn&symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303&expiryTimestamp=1'

describe('useWalletConnectUri', () => {
  let connect: UseConnect | undefined
  let wc: UseWalletConnectUri | undefined
  function Pairing() {
    connect = useConnect()
    wc = useWalletConnectUri()
    return null
  }

  it('a wallet not installed connects through WalletConnect: its URI (and the wallet deep link) while pairing, then connected', async () => {
    stubDirectory()
    let host!: WalletConnectSessionHost
    let pending: { resolve: (c: Connection) => void; reject: (e: unknown) => void } | undefined
    const session: WalletConnectSession = {
      connect: vi.fn(
        () =>
          new Promise<Connection>((resolve, reject) => {
            host.setState({ pairing: 'ready', uri: URI, expiresAt: Date.now() + 230_000, relay: 'connected' })
            pending = { resolve, reject }
          }),
      ),
      reconnect: vi.fn(async () => undefined),
      disconnect: vi.fn(async () => undefined),
      provider: () => undefined,
      cancel: vi.fn(() => pending?.reject(WalletConnectError.cancelled())),
      retryRelay: vi.fn(async () => undefined),
      warmUp: vi.fn(async () => undefined),
    }
    const input = { projectId: 'p1', apiUrl: 'https://api.test', networks: [sigilDev(), ethereum, arbitrum] }
    const source = walletConnectConnectors({
      options: resolveOptions(input),
      families: fakeSessionFamilies(),
      load: async () => (h) => {
        host = h
        return session
      },
    })
    const { appKit } = testAppKit({ connectors: [source] })
    current = appKit
    render(<Pairing />)
    expect(wc?.uri).toBeUndefined()
    const wallet: Wallet = { id: 'rainbow', name: 'Rainbow', image_id: 'r', mobile_link: 'rainbow://' }
    let done: Promise<Connection | undefined> | undefined
    act(() => {
      done = connect?.connect({ wallet })
    })
    await waitFor(() => expect(wc?.uri).toBe(URI))
    expect(wc?.pairing).toBe('ready')
    expect(connect?.isPending).toBe(true)
    expect(wc?.walletLink(wallet)).toBe(`rainbow://wc?uri=${encodeURIComponent(URI)}`)

    await act(async () => {
      pending?.resolve({ connectorId: 'walletConnect', accounts: [{ namespace: 'eip155', address: ADDRESS, type: 'eoa', chainId: 31337 }] })
      await done
    })
    expect(appKit.getAccount().address).toBe(ADDRESS)
    expect(appKit.getWalletProviderType('eip155')).toBe('WALLET_CONNECT')
    noModal()
  })
})

describe('useEmailLogin', () => {
  let login: UseEmailLogin | undefined
  function Email() {
    login = useEmailLogin()
    return null
  }

  it('the email, the device approval from the mail (noticed by itself), a wrong then the right code: connected, with no modal', async () => {
    stubDirectory()
    const { auth, source } = fakeAuthConnector({
      connectEmail: vi.fn(async () => 'VERIFY_DEVICE' as const),
      connectOtp: vi.fn(async (otp: string) => {
        if (otp !== '123456') throw new SigilError('Invalid code', 'INVALID_CODE')
      }),
      emailCooldownMs: () => 30_000,
    })
    const { appKit } = testAppKit({ connectors: [source], features: { email: true, socials: false, analytics: false } })
    current = appKit
    render(<Email />)
    expect(login?.available).toBe(true)
    expect(login?.step).toBe('email')
    const before = Date.now()
    await act(() => login?.submitEmail(' a@b.co ') as Promise<void>)
    expect(auth.connectEmail).toHaveBeenCalledWith(' a@b.co ')
    expect(login?.step).toBe('verify-device')
    expect(login?.email).toBe('a@b.co')
    expect(login?.resendAt).toBeGreaterThanOrEqual(before + 30_000)
    // The frame is asked (every 2 s) until the device is approved; then the code is on its way.
    await waitFor(() => expect(login?.step).toBe('verify-otp'), 5000)
    expect(auth.connectDevice).toHaveBeenCalled()

    await act(() => login?.verifyOtp('000000') as Promise<void>)
    expect(login?.error?.message).toBe('Invalid code')
    expect(login?.step).toBe('verify-otp')
    expect(appKit.getIsConnectedState()).toBe(false)

    await act(() => login?.verifyOtp('123456') as Promise<void>)
    expect(login?.error).toBeUndefined()
    expect(login?.step).toBe('connected')
    expect(auth.connect).toHaveBeenCalledTimes(1)
    expect(appKit.getAccount().address).toBe(ADDRESS)
    expect(appKit.getWalletProviderType('eip155')).toBe('AUTH')
    expect(appKit.client.store.getState().modal.open).toBe(false)
    noModal()
  })

  it('a refused address is the error; without the embedded wallet, not available', async () => {
    stubDirectory()
    const { source } = fakeAuthConnector({
      connectEmail: vi.fn(async () => {
        throw new SigilError('Enter a valid email address', 'INVALID_EMAIL')
      }),
    })
    const { appKit } = testAppKit({ connectors: [source], features: { email: true, socials: false, analytics: false } })
    current = appKit
    render(<Email />)
    await act(() => login?.submitEmail('nope') as Promise<void>)
    expect(login?.step).toBe('email')
    expect(login?.error?.message).toBe('Enter a valid email address')
    cleanup(current)

    const plain = testAppKit()
    current = plain.appKit
    render(<Email />)
    expect(login?.available).toBe(false)
    await act(() => login?.submitEmail('a@b.co') as Promise<void>)
    expect(login?.error?.code).toBe('LOGIN_UNAVAILABLE')
  })
})

describe('useSocialLogin', () => {
  let social: UseSocialLogin | undefined
  function Social() {
    social = useSocialLogin()
    return null
  }
  const PROVIDER_URI = 'https://idp.example/auth?state=s1'
  const fakePopup = () => ({ location: { href: '' }, closed: false, close: vi.fn() })

  async function setup(socials: SocialProvider[], overrides: Parameters<typeof fakeAuthConnector>[0] = {}) {
    stubDirectory()
    const fake = fakeAuthConnector(overrides)
    const { appKit } = testAppKit({ connectors: [fake.source], features: { email: false, socials, analytics: false } })
    current = appKit
    render(<Social />)
    return { appKit, ...fake }
  }

  it('opens the login window in the call, sends it to the provider and connects the embedded wallet', async () => {
    const popup = fakePopup()
    const open = vi.fn(() => popup)
    vi.stubGlobal('open', open)
    const { appKit, auth } = await setup(['google', 'github'])
    expect(social?.providers).toEqual(['google', 'github'])
    expect(social?.available).toBe(true)
    let done: Promise<Connection | undefined> | undefined
    act(() => {
      done = social?.login('google')
    })
    // In the same task as the click: a window opened later would be blocked.
    expect(open).toHaveBeenCalledTimes(1)
    expect(social?.isPending).toBe(true)
    let connection: Connection | undefined
    await act(async () => {
      connection = await done
    })
    expect(auth.getSocialRedirectUri).toHaveBeenCalledWith('google')
    expect(popup.location.href).toBe(PROVIDER_URI)
    expect(auth.connectSocial).toHaveBeenCalledWith(PROVIDER_URI, expect.objectContaining({ signal: expect.any(AbortSignal) }))
    expect(connection?.connectorId).toBe(AUTH_CONNECTOR_ID)
    expect(appKit.getAccount().address).toBe(ADDRESS)
    expect(social?.isPending).toBe(false)
    expect(social?.status).toBeUndefined()
    noModal()
  })

  it('a blocked window is LOGIN_BLOCKED', async () => {
    vi.stubGlobal(
      'open',
      vi.fn(() => null),
    )
    const { appKit } = await setup(['google'])
    await act(async () => {
      expect(await social?.login('google')).toBeUndefined()
    })
    expect(social?.error?.code).toBe('LOGIN_BLOCKED')
    expect(appKit.getIsConnectedState()).toBe(false)
  })

  it('Farcaster: the URL for the app while it waits, then connected', async () => {
    let signIn: (() => void) | undefined
    const { appKit } = await setup(['farcaster'], {
      connectFarcaster: vi.fn(
        () =>
          new Promise<{ provider: string; userName: string }>((resolve) => {
            signIn = () => resolve({ provider: 'farcaster', userName: 'alice' })
          }),
      ),
    })
    let done: Promise<Connection | undefined> | undefined
    act(() => {
      done = social?.login('farcaster')
    })
    await waitFor(() => expect(social?.status).toEqual({ provider: 'farcaster', step: 'waiting', url: 'https://farcaster.xyz/~/siwf?channelToken=c1' }))
    await act(async () => {
      signIn?.()
      await done
    })
    expect(appKit.getIsConnectedState()).toBe(true)
    expect(social?.status).toBeUndefined()
  })
})
