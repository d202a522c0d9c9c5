import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AUTH_CONNECTOR_ID } from '@sigil/core'
import { fakeAuthConnector } from '../../../../../core/src/test-utils/index.js'
import type { AppKit } from '../../../appkit.js'
import { ADDRESS, cleanup, shadow, stubDirectory, testAppKit, waitFor } from '../../../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

/** The embedded wallet connected (by `login`: a social provider and its username, or none), the modal on the Account view. */
async function embeddedAccount(email: string | undefined, login?: { provider: string; userName?: string }) {
  stubDirectory()
  const { source } = fakeAuthConnector(
    {
      connect: vi.fn(async () => ({
        connectorId: AUTH_CONNECTOR_ID,
        accounts: [{ namespace: 'eip155' as const, address: ADDRESS, type: 'eoa' as const, chainId: 31337 }],
        walletInfo: { name: email ?? 'Embedded wallet' },
        user: { ...(email ? { email } : {}), ...(login?.userName ? { username: login.userName } : {}) },
        ...(login ? { socialProvider: login.provider } : {}),
      })),
      getEmail: () => email,
    },
    ADDRESS,
  )
  const { appKit } = testAppKit({ connectors: [source], features: { email: true, socials: ['google', 'github', 'farcaster'], analytics: false } })
  current = appKit
  await act(async () => {
    await appKit.client.connect(AUTH_CONNECTOR_ID)
  })
  await act(() => appKit.open({ view: 'Account' }))
  await waitFor(() => {
    if (!shadow().querySelector('[data-testid=edit-email]')) throw new Error('no embedded account')
  })
}

const said = () => [...shadow().querySelectorAll('[data-testid=account-social], [data-testid=account-email]')].map((el) => el.textContent)

describe('Account view: whom the embedded wallet is signed in as, said once', () => {
  it('a social login with an email says the provider and the email in one line (the username was the same person again)', async () => {
    await embeddedAccount('alice@example.com', { provider: 'google', userName: 'alice' })
    expect(said()).toEqual(['Signed in with Google as alice@example.com'])
  })

  it('a username the email does not say stays beside it', async () => {
    await embeddedAccount('a.smith@example.com', { provider: 'github', userName: 'octocat' })
    expect(said()).toEqual(['Signed in with GitHub as octocat (a.smith@example.com)'])
  })

  it('a social login without an email names the username; an email login names the email', async () => {
    await embeddedAccount(undefined, { provider: 'farcaster', userName: 'alice' })
    expect(said()).toEqual(['Signed in with Farcaster as alice'])
    cleanup(current)
    current = undefined
    await embeddedAccount('bob@example.com')
    expect(said()).toEqual(['Signed in as bob@example.com'])
  })
})
