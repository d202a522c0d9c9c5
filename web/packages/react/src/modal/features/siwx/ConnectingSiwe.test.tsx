/* A host's older `siweConfig` signs in through the spec's ConnectingSiwe view. */
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SIWEConfig, SIWESession } from '@sigil/core'
import type { AppKit } from '../../../appkit.js'
import { ADDRESS, cleanup, shadow, stubDirectory, testAppKit, waitFor } from '../../../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

function fakeSiwe() {
  let session: SIWESession | null = null
  const config = {
    getNonce: vi.fn(async () => 'nonce12345'),
    createMessage: vi.fn(({ address, nonce }: { address: string; nonce: string }) => `localhost wants you to sign in\n${address}\nNonce: ${nonce}`),
    verifyMessage: vi.fn(async () => {
      session = { address: ADDRESS, chainId: 31337 }
      return true
    }),
    getSession: vi.fn(async () => session),
    signOut: vi.fn(async () => {
      session = null
      return true
    }),
    required: true,
  } satisfies SIWEConfig
  return config
}

describe('siweConfig in the modal', () => {
  it("connected: ConnectingSiwe shows (no way back or out), Sign signs createMessage's text, verifyMessage passes, the modal closes", async () => {
    stubDirectory()
    const siwe = fakeSiwe()
    const { appKit, fake } = testAppKit({ siweConfig: siwe })
    current = appKit
    await act(async () => {
      await appKit.client.connect('com.test')
    })
    const dialog = await waitFor(() => {
      const el = shadow().querySelector<HTMLElement>('[role=dialog][data-view=ConnectingSiwe]')
      if (!el?.querySelector('.siwx-actions')) throw new Error('no sign-in view')
      return el
    })
    expect(dialog.textContent).toContain('Sign in with your wallet')
    expect(appKit.close()).toBe(false)
    const sign = [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Sign') as HTMLButtonElement
    await act(async () => sign.click())
    await waitFor(() => expect(appKit.client.store.getState().siwx.status).toBe('signed-in'))
    expect(siwe.verifyMessage).toHaveBeenCalledWith({
      message: `localhost wants you to sign in\ndid:pkh:eip155:31337:${ADDRESS}\nNonce: nonce12345`,
      signature: expect.any(String),
    })
    expect(fake.adapter.signMessage).toHaveBeenCalled()
    expect(appKit.getState().open).toBe(false)
  })
})
