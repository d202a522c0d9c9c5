import { describe, expect, it, vi } from 'vitest'
import { resolveOptions } from '../../options.js'
import { currentView } from '../../router.js'
import { testClient, testOptions } from '../../test-utils/index.js'
// The client loads these on the first connection; loaded here, those imports are already settled.
import './controller.js'
import './siwe.js'
import type { SIWEConfig, SIWECreateMessageArgs, SIWESession } from './types.js'

const ADDRESS = '0x1111111111111111111111111111111111111111'
const flush = async (n = 10) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 0))
}

/** A host's older `siweConfig`, over an in-memory backend: one nonce per message, a session after a verified signature. */
function fakeSiwe(overrides: Partial<SIWEConfig> = {}) {
  let session: SIWESession | null = null
  let nonces = 0
  const issued = new Set<string>()
  const config = {
    getNonce: vi.fn(async (_address?: string) => {
      const nonce = `nonce${++nonces}`
      issued.add(nonce)
      return nonce
    }),
    getMessageParams: vi.fn(async () => ({ domain: 'shop.example', uri: 'https://shop.example', chains: [1], statement: 'Sign in to the shop.' })),
    createMessage: vi.fn(
      (args: SIWECreateMessageArgs) => `${args.domain} message for ${args.address} on ${args.chainId}, nonce ${args.nonce}: ${args.statement}`,
    ),
    verifyMessage: vi.fn(async ({ message, signature }: { message: string; signature: string }) => {
      const nonce = /nonce (\w+):/.exec(message)?.[1] ?? ''
      if (signature !== '0xsigned' || !issued.delete(nonce)) return false
      session = { address: ADDRESS, chainId: 1 }
      return true
    }),
    getSession: vi.fn(async () => session),
    signOut: vi.fn(async () => {
      session = null
      return true
    }),
    onSignIn: vi.fn(),
    onSignOut: vi.fn(),
    required: true,
    ...overrides,
  } satisfies SIWEConfig
  const setSession = (s: SIWESession | null) => {
    session = s
  }
  return { config, signedIn: () => session, setSession }
}

function setup(overrides: Partial<SIWEConfig> = {}) {
  const siwe = fakeSiwe(overrides)
  const t = testClient({ siweConfig: siwe.config }, { restore: false })
  return { ...t, siwe }
}

async function connect(client: ReturnType<typeof testClient>['client']) {
  client.open()
  await client.connect('com.test')
  await flush()
}

describe('siweConfig, carried onto the sign-in machinery of siwx', () => {
  it('becomes the siwx option, shown in the ConnectingSiwe view; enabled: false turns it off', () => {
    const o = resolveOptions(testOptions({ siweConfig: fakeSiwe().config }))
    expect(o.siwx?.view).toBe('ConnectingSiwe')
    expect(o.siwx?.getRequired?.()).toBe(true)
    expect(o.siwx?.signOutOnDisconnect).toBe(true)
    expect(resolveOptions(testOptions({ siweConfig: { ...fakeSiwe().config, enabled: false } })).siwx).toBeUndefined()
  })

  it('connected without a session: ConnectingSiwe opens, with a message built by createMessage from a fresh nonce', async () => {
    const { client, siwe } = setup()
    await connect(client)
    const state = client.store.getState()
    expect(state.modal.open).toBe(true)
    expect(currentView(state)).toBe('ConnectingSiwe')
    expect(state.siwx.status).toBe('signed-out')
    expect(client.canClose()).toBe(false)
    expect(siwe.config.getNonce).toHaveBeenCalledWith(ADDRESS)
    expect(siwe.config.createMessage).toHaveBeenCalledWith(
      expect.objectContaining({
        address: `did:pkh:eip155:1:${ADDRESS}`,
        chainId: 1,
        domain: 'shop.example',
        uri: 'https://shop.example',
        nonce: 'nonce1',
        version: '1',
        statement: 'Sign in to the shop.',
        iat: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      }),
    )
  })

  it("Sign: the wallet signs createMessage's text, verifyMessage accepts it, the session is getSession's, the modal closes", async () => {
    const { client, siwe, fake, events } = setup()
    await connect(client)
    await client.siwx.sign()
    const signed = String((fake.adapter.signMessage.mock.calls[0] as unknown[] | undefined)?.[1])
    expect(signed).toBe(`shop.example message for did:pkh:eip155:1:${ADDRESS} on 1, nonce nonce1: Sign in to the shop.`)
    expect(siwe.config.verifyMessage).toHaveBeenCalledWith({ message: signed, signature: '0xsigned' })
    expect(siwe.config.onSignIn).toHaveBeenCalledWith({ address: ADDRESS, chainId: 1 })
    const state = client.store.getState()
    expect(state.siwx.status).toBe('signed-in')
    expect(state.siwx.session?.data).toMatchObject({ accountAddress: ADDRESS, chainId: 'eip155:1' })
    expect(state.modal.open).toBe(false)
    expect(events.some((e) => e.event === 'SIWX_AUTH_SUCCESS')).toBe(true)
  })

  it('verifyMessage answering false: the error shows in ConnectingSiwe, which stays', async () => {
    const { client, fake } = setup()
    await connect(client)
    fake.adapter.signMessage.mockResolvedValueOnce('0xbad')
    await client.siwx.sign()
    const state = client.store.getState()
    expect(state.siwx).toMatchObject({ status: 'signed-out', error: 'The sign-in could not be verified', session: undefined })
    expect(currentView(state)).toBe('ConnectingSiwe')
    expect(state.modal.open).toBe(true)
  })

  it("a session getSession already has is used: no view, no signature; another account's is not", async () => {
    const { client, siwe, fake } = setup()
    siwe.setSession({ address: ADDRESS, chainId: 1 })
    await connect(client)
    let state = client.store.getState()
    expect(state.siwx.status).toBe('signed-in')
    expect(currentView(state)).not.toBe('ConnectingSiwe')
    expect(fake.adapter.signMessage).not.toHaveBeenCalled()

    const other = setup()
    other.siwe.setSession({ address: '0x2222222222222222222222222222222222222222', chainId: 1 })
    await connect(other.client)
    state = other.client.store.getState()
    expect(state.siwx.status).toBe('signed-out')
    expect(currentView(state)).toBe('ConnectingSiwe')
  })

  it('sign-out calls signOut and onSignOut; disconnecting signs out too (signOutOnDisconnect by default)', async () => {
    const { client, siwe } = setup({ required: false })
    await connect(client)
    await client.siwx.sign()
    expect(siwe.signedIn()).not.toBeNull()
    await client.siwx.signOut()
    expect(siwe.config.signOut).toHaveBeenCalledTimes(1)
    expect(siwe.config.onSignOut).toHaveBeenCalledTimes(1)
    expect(client.store.getState().siwx.status).toBe('signed-out')

    const again = setup({ required: false })
    await connect(again.client)
    await again.client.siwx.sign()
    await again.client.disconnect()
    await flush()
    expect(again.siwe.config.signOut).toHaveBeenCalledTimes(1)
    expect(again.siwe.signedIn()).toBeNull()
  })

  it('a nonce that cannot be had: setup fails, the wallet is disconnected, back to Connect', async () => {
    const { client, fake } = setup({ getNonce: vi.fn(async () => Promise.reject(new Error('nonce service down'))) })
    await connect(client)
    const state = client.store.getState()
    expect(fake.connector.disconnect).toHaveBeenCalled()
    expect(currentView(state)).toBe('Connect')
    expect(state.siwx.error).toBe('nonce service down')
  })
})
