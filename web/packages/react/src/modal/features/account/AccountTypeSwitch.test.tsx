import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AUTH_CONNECTOR_ID, type Connection } from '@sigil/core'
import { PREFERRED_ACCOUNT_TYPES_KEY } from '@sigil/core/account-type'
import { fakeAuthConnector } from '../../../../../core/src/test-utils/index.js'
import type { AppKit } from '../../../appkit.js'
import { ADDRESS, cleanup, MemoryStorage, shadow, stubDirectory, testAppKit, waitFor } from '../../../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

/** The embedded wallet connected on Sigil Dev (31337) as an EOA, its smart-account networks `enabled`; the modal on the Account view. */
async function embeddedAccount(
  enabled: number[],
  setPreferredAccountType = vi.fn(async (type: 'eoa' | 'smartAccount' | 'payment') => ({ type, address: ADDRESS })),
) {
  stubDirectory()
  const storage = new MemoryStorage()
  const { source } = fakeAuthConnector({
    connect: vi.fn(
      async (): Promise<Connection> => ({
        connectorId: AUTH_CONNECTOR_ID,
        accounts: [{ namespace: 'eip155', address: ADDRESS, type: 'eoa', chainId: 31337 }],
        walletInfo: { name: 'alice@example.com' },
        user: { email: 'alice@example.com' },
        smartAccountEnabledNetworks: enabled,
      }),
    ),
    getEmail: () => 'alice@example.com',
    setPreferredAccountType,
  })
  const { appKit } = testAppKit({ connectors: [source], storage, features: { email: true, socials: false, analytics: false } })
  current = appKit
  await act(async () => {
    await appKit.client.connect(AUTH_CONNECTOR_ID)
  })
  await act(() => appKit.open({ view: 'Account' }))
  await waitFor(() => {
    if (!shadow().querySelector('[data-testid=edit-email]')) throw new Error('no embedded account')
  })
  return { appKit, storage, setPreferredAccountType }
}

const pressed = () => [...shadow().querySelectorAll('[data-testid=account-type-switch] button')].map((b) => [b.textContent, b.getAttribute('aria-pressed')])
const address = () => shadow().querySelector('[data-testid=account-address]')?.textContent

describe('Account view: the embedded wallet’s account type switch', () => {
  it('on a smart-account network, switches between Smart account and EOA through the frame; the address shown stays', async () => {
    const { appKit, storage, setPreferredAccountType } = await embeddedAccount([31337])
    const group = shadow().querySelector('[data-testid=account-type-switch]')
    expect(group?.getAttribute('aria-label')).toBe('Account type')
    expect(pressed()).toEqual([
      ['Smart account', 'false'],
      ['EOA', 'true'],
    ])
    const before = address()
    expect(before).toBeTruthy()
    await act(async () => {
      ;(shadow().querySelector('[data-testid=account-type-smartAccount]') as HTMLButtonElement).click()
    })
    await waitFor(() =>
      expect(pressed()).toEqual([
        ['Smart account', 'true'],
        ['EOA', 'false'],
      ]),
    )
    expect(setPreferredAccountType).toHaveBeenCalledWith('smartAccount')
    expect(address()).toBe(before)
    expect(appKit.client.store.getState().chains.eip155?.account.address).toBe(ADDRESS)
    expect(JSON.parse(storage.getItem(PREFERRED_ACCOUNT_TYPES_KEY) ?? '{}')).toEqual({ eip155: 'smartAccount' })

    await act(async () => {
      ;(shadow().querySelector('[data-testid=account-type-eoa]') as HTMLButtonElement).click()
    })
    await waitFor(() => expect(pressed()[1]).toEqual(['EOA', 'true']))
    expect(setPreferredAccountType).toHaveBeenLastCalledWith('eoa')
    expect(address()).toBe(before)
  })

  it('a refusal from the frame says why and leaves the type as it was', async () => {
    const refuse = vi.fn(async () => {
      throw new Error('Smart accounts are not available')
    })
    const { appKit } = await embeddedAccount([31337], refuse)
    await act(async () => {
      ;(shadow().querySelector('[data-testid=account-type-smartAccount]') as HTMLButtonElement).click()
    })
    await waitFor(() => expect(appKit.client.store.getState().notification.message).toBe('Smart accounts are not available'))
    expect(pressed()[1]).toEqual(['EOA', 'true'])
  })

  it('on a network without smart accounts there is no switch: the account’s type is said', async () => {
    await embeddedAccount([1])
    expect(shadow().querySelector('[data-testid=account-type-switch]')).toBeNull()
    expect(shadow().querySelector('[data-testid=account-type]')?.textContent).toBe('EOA')
  })
})
