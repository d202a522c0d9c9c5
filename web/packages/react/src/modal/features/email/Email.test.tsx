import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { AUTH_CONNECTOR_ID, SigilError } from '@sigil/core'
import { fakeAuthConnector } from '../../../../../core/src/test-utils/index.js'
import type { AppKit } from '../../../appkit.js'
import { ADDRESS, cleanup, flush, shadow, stubDirectory, testAppKit, waitFor } from '../../../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

/** An embedded-wallet connector whose steps the test scripts. */
function fakeAuth() {
  let cooldown = 0
  return fakeAuthConnector(
    {
      connect: vi.fn(async () => ({
        connectorId: AUTH_CONNECTOR_ID,
        accounts: [{ namespace: 'eip155' as const, address: ADDRESS, type: 'eoa' as const, chainId: 31337 }],
        walletInfo: { name: 'a@b.co' },
      })),
      connectEmail: vi.fn(async () => {
        cooldown = 30_000
        return 'VERIFY_OTP' as const
      }),
      connectOtp: vi.fn(async (otp: string) => {
        if (otp !== '123456') throw new SigilError('Invalid code', 'INVALID_CODE')
      }),
      getEmail: () => 'a@b.co',
      emailCooldownMs: () => cooldown,
    },
    ADDRESS,
  )
}

function type(input: HTMLInputElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
  act(() => {
    setter?.call(input, value)
    input.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

async function openWithEmail() {
  stubDirectory()
  const { auth, source } = fakeAuth()
  const { appKit, fake } = testAppKit({ connectors: [source], features: { email: true, socials: false, analytics: false } })
  current = appKit
  await act(async () => {
    await appKit.open()
  })
  const input = await waitFor(() => {
    const el = shadow().querySelector<HTMLInputElement>('form.email input[type=email]')
    if (!el) throw new Error('no email field')
    return el
  })
  return { appKit, auth, fake, input }
}

describe('email login views', () => {
  it('the email field sends the address, then the six code inputs take a pasted code and connect', async () => {
    const { appKit, auth, input } = await openWithEmail()
    expect(input.disabled).toBe(false)
    type(input, 'a@b.co')
    await act(async () => {
      shadow().querySelector<HTMLFormElement>('form.email')?.requestSubmit()
    })
    expect(auth.connectEmail).toHaveBeenCalledWith('a@b.co')
    const inputs = await waitFor(() => {
      const list = shadow().querySelectorAll<HTMLInputElement>('[data-testid=otp-inputs] input')
      if (list.length !== 6) throw new Error('no code inputs')
      return list
    })
    // the resend button counts down from 30 s
    expect(shadow().querySelector('[data-testid=otp-resend]')?.textContent).toBe('Resend code in 30s')
    expect(shadow().querySelector<HTMLButtonElement>('[data-testid=otp-resend]')?.disabled).toBe(true)

    // a wrong code: the error shows and the inputs clear
    type(inputs[0] as HTMLInputElement, '999999')
    await waitFor(() => {
      if (shadow().querySelector('[data-testid=otp-error]')?.textContent !== 'Invalid code') throw new Error('no error')
    })
    expect([...inputs].map((i) => i.value).join('')).toBe('')

    // a pasted code fills all six inputs and connects
    const data = new DataTransfer()
    data.setData('text', '123456')
    await act(async () => {
      inputs[0]?.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }))
    })
    await flush()
    expect(auth.connectOtp).toHaveBeenLastCalledWith('123456')
    await waitFor(() => {
      if (!appKit.getIsConnectedState()) throw new Error('not connected')
    })
    expect(auth.connect).toHaveBeenCalledTimes(1)
    expect(appKit.getWalletProviderType('eip155')).toBe('AUTH')
  })

  it('a refused address shows the error under the field', async () => {
    const { auth, input } = await openWithEmail()
    auth.connectEmail.mockRejectedValueOnce(new SigilError('Please try again after 12 seconds', 'RATE_LIMITED'))
    type(input, 'a@b.co')
    await act(async () => {
      shadow().querySelector<HTMLFormElement>('form.email')?.requestSubmit()
    })
    await waitFor(() => {
      if (shadow().querySelector('[data-testid=email-error]')?.textContent !== 'Please try again after 12 seconds') throw new Error('no error')
    })
  })
})
