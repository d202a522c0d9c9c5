/**
 * The login feature's actions, without views: each step routes to the next view and ends with
 * the embedded wallet connected; a cancelled, blocked or impossible login is a typed error with
 * its code; how far a social or Farcaster login got is `SigilState.login`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SigilError, UserRejectedRequestError } from '../../errors.js'
import { currentView } from '../../router.js'
import { fakeAuthConnector, testClient } from '../../test-utils/index.js'
import { LoginBlockedError, LoginCancelledError, LoginUnavailableError } from './errors.js'
import {
  exportKeys,
  loginWithEmail,
  loginWithFarcaster,
  loginWithSocial,
  resendEmailLogin,
  verifyEmailOtp,
  waitForDeviceApproval,
  type LoginState,
  type LoginWindow,
} from './index.js'

afterEach(() => {
  vi.useRealTimers()
})

function setup(overrides: Parameters<typeof fakeAuthConnector>[0] = {}) {
  const fake = fakeAuthConnector(overrides)
  const { client } = testClient({}, { connectors: [fake.source], restore: false })
  client.open()
  return { client, ...fake }
}

const views = (client: ReturnType<typeof setup>['client']) => client.store.getState().router.history.map((r) => r.view)

/** A login window the test watches: where it was sent, and whether it was closed. */
function fakePopup(): LoginWindow & { closed: boolean; close: ReturnType<typeof vi.fn> } {
  const popup = {
    location: { href: '' },
    closed: false,
    close: vi.fn(() => {
      popup.closed = true
    }),
  }
  return popup
}

describe('email login', () => {
  it('a code on its way: EmailVerifyOtp shows; the code connects the embedded wallet and the modal closes', async () => {
    const { client, auth } = setup()
    expect(await loginWithEmail(client, { email: ' a@b.co ' })).toBe('VERIFY_OTP')
    expect(auth.connectEmail).toHaveBeenCalledWith(' a@b.co ')
    expect(client.store.getState().router.history.at(-1)).toEqual({ view: 'EmailVerifyOtp', data: { email: 'a@b.co' } })
    const connection = await verifyEmailOtp(client, { otp: '123456' })
    expect(auth.connectOtp).toHaveBeenCalledWith('123456')
    expect(connection.connectorId).toBe('sigil-embedded')
    expect(client.store.getState().providers.eip155?.type).toBe('AUTH')
    expect(client.store.getState().modal.open).toBe(false)
  })

  it('a device to approve first: EmailVerifyDevice, then the code once the link was opened; a live session connects at once', async () => {
    const { client, auth } = setup({ connectEmail: vi.fn(async () => 'VERIFY_DEVICE' as const) })
    await loginWithEmail(client, { email: 'a@b.co' })
    expect(currentView(client.store.getState())).toBe('EmailVerifyDevice')
    // Not approved yet is an answer (VERIFY_DEVICE), asked again; a failed ask is asked again too.
    auth.connectDevice.mockResolvedValueOnce('VERIFY_DEVICE').mockResolvedValueOnce('VERIFY_DEVICE').mockRejectedValueOnce(new SigilError('offline', 'NETWORK'))
    expect(await waitForDeviceApproval(client, { email: 'a@b.co', signal: new AbortController().signal, intervalMs: 1 })).toBe(true)
    expect(auth.connectDevice).toHaveBeenCalledTimes(4)
    expect(client.store.getState().router.history.at(-1)).toEqual({ view: 'EmailVerifyOtp', data: { email: 'a@b.co' } })

    const live = setup({ connectEmail: vi.fn(async () => 'CONNECT' as const) })
    expect(await loginWithEmail(live.client, { email: 'a@b.co' })).toBe('CONNECT')
    expect(live.client.store.getState().chains.eip155?.connectionStatus).toBe('connected')
  })

  it('waiting for the device stops when aborted; resending from the device view moves on once a code is sent', async () => {
    const { client, auth } = setup({ connectEmail: vi.fn(async () => 'VERIFY_DEVICE' as const) })
    await loginWithEmail(client, { email: 'a@b.co' })
    const controller = new AbortController()
    const waiting = waitForDeviceApproval(client, { email: 'a@b.co', signal: controller.signal, intervalMs: 50 })
    controller.abort()
    expect(await waiting).toBe(false)
    expect(auth.connectDevice).not.toHaveBeenCalled()
    auth.connectEmail.mockResolvedValueOnce('VERIFY_OTP')
    expect(await resendEmailLogin(client, { email: 'a@b.co' })).toBe('VERIFY_OTP')
    expect(views(client)).toEqual(['Connect', 'EmailVerifyOtp'])
  })

  it("a refused address or code is the frame's error; no embedded wallet is a LoginUnavailableError", async () => {
    const { client, auth } = setup()
    auth.connectEmail.mockRejectedValueOnce(new SigilError('Please try again after 12 seconds', 'RATE_LIMITED'))
    await expect(loginWithEmail(client, { email: 'a@b.co' })).rejects.toMatchObject({ code: 'RATE_LIMITED' })
    auth.connectOtp.mockRejectedValueOnce(new SigilError('Invalid code', 'INVALID_CODE'))
    await expect(verifyEmailOtp(client, { otp: '999999' })).rejects.toMatchObject({ code: 'INVALID_CODE' })
    expect(auth.connect).not.toHaveBeenCalled()
    const { client: without } = testClient({}, { restore: false })
    await expect(loginWithEmail(without, { email: 'a@b.co' })).rejects.toBeInstanceOf(LoginUnavailableError)
    await expect(exportKeys(without)).rejects.toMatchObject({ code: 'LOGIN_UNAVAILABLE', message: 'Email and social login are not set up on this site.' })
  })
})

describe('social login', () => {
  it('sends the window to the provider, waits for the login, closes the window and connects; the steps show in the state', async () => {
    const { client, auth } = setup()
    const steps: (LoginState | undefined)[] = []
    client.store.subscribe((s, p) => s.login !== p.login && steps.push(s.login))
    const popup = fakePopup()
    const connection = await loginWithSocial(client, { provider: 'google', popup })
    expect(auth.getSocialRedirectUri).toHaveBeenCalledWith('google')
    expect(popup.location.href).toBe('https://idp.example/auth?state=s1')
    expect(auth.connectSocial).toHaveBeenCalledWith('https://idp.example/auth?state=s1', expect.objectContaining({ signal: expect.any(AbortSignal) }))
    expect(popup.close).toHaveBeenCalled()
    expect(connection?.connectorId).toBe('sigil-embedded')
    expect(steps).toEqual([{ provider: 'google', step: 'opening' }, { provider: 'google', step: 'waiting' }, undefined])
  })

  it('cancelled at the provider (4001) or by closing the window: LoginCancelledError; a blocked window: LoginBlockedError', async () => {
    vi.useFakeTimers()
    const cancelled = setup({ connectSocial: vi.fn(async () => Promise.reject(new UserRejectedRequestError())) })
    await expect(loginWithSocial(cancelled.client, { provider: 'github', popup: fakePopup() })).rejects.toMatchObject({
      name: 'LoginCancelledError',
      code: 'LOGIN_CANCELLED',
      provider: 'github',
    })
    // The window closed and no login came within the grace period.
    const closed = setup({
      connectSocial: vi.fn(
        (_uri: string, options?: { signal?: AbortSignal }) =>
          new Promise<never>((_, reject) => options?.signal?.addEventListener('abort', () => reject(new SigilError('Something went wrong', 'ABORTED')))),
      ),
    })
    const popup = fakePopup()
    const login = loginWithSocial(closed.client, { provider: 'google', popup }).catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(10)
    popup.closed = true
    await vi.advanceTimersByTimeAsync(300 + 2000)
    expect(await login).toBeInstanceOf(LoginCancelledError)
    const blocked = setup()
    await expect(loginWithSocial(blocked.client, { provider: 'google', popup: null })).rejects.toBeInstanceOf(LoginBlockedError)
    expect(blocked.auth.getSocialRedirectUri).not.toHaveBeenCalled()
    expect(blocked.client.store.getState().login).toBeUndefined()
  })

  it("a refused login is the frame's error, as it said it; a login given up (the view was left) connects nothing", async () => {
    const refused = setup({ connectSocial: vi.fn(async () => Promise.reject(new Error("Google's answer did not verify"))) })
    await expect(loginWithSocial(refused.client, { provider: 'google', popup: fakePopup() })).rejects.toMatchObject({
      message: "Google's answer did not verify",
    })
    const left = setup()
    const controller = new AbortController()
    left.auth.getSocialRedirectUri.mockImplementationOnce(async () => {
      controller.abort()
      return 'https://idp.example/auth?state=s2'
    })
    expect(await loginWithSocial(left.client, { provider: 'google', popup: fakePopup(), signal: controller.signal })).toBeUndefined()
    expect(left.auth.connect).not.toHaveBeenCalled()
  })

  it('a full-page login that came back is finished from the page URL', async () => {
    const { client, auth } = setup()
    const back = 'https://shop.example/?sigil_social=s1'
    await loginWithSocial(client, { provider: 'google', returnUri: back })
    expect(auth.connectSocial).toHaveBeenCalledWith(back, {})
    expect(client.store.getState().chains.eip155?.connectionStatus).toBe('connected')
  })
})

describe('Farcaster', () => {
  it('the channel URL in the state, a refused message shown, then connected once the app signed in', async () => {
    let signedIn: () => void = () => undefined
    const { client, auth } = setup()
    auth.connectFarcaster.mockImplementationOnce(
      (options?: { onRefused?: (reason: string) => void }) =>
        new Promise((resolve) => {
          options?.onRefused?.('a message from another domain')
          signedIn = () => resolve({ provider: 'farcaster', userName: 'alice' })
        }),
    )
    const login = loginWithFarcaster(client)
    await vi.waitFor(() =>
      expect(client.store.getState().login).toEqual({
        provider: 'farcaster',
        step: 'waiting',
        url: 'https://farcaster.xyz/~/siwf?channelToken=c1',
        refused: 'a message from another domain',
      }),
    )
    signedIn()
    expect((await login)?.connectorId).toBe('sigil-embedded')
    expect(auth.getFarcasterUri).toHaveBeenCalledTimes(1)
    expect(client.store.getState().login).toBeUndefined()
  })
})
