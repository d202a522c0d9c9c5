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
  it('the email field sends the address, then the code field (one field: one name, one-time-code autofill) takes a pasted code and connects', async () => {
    const { appKit, auth, input } = await openWithEmail()
    expect(input.disabled).toBe(false)
    type(input, 'a@b.co')
    await act(async () => {
      shadow().querySelector<HTMLFormElement>('form.email')?.requestSubmit()
    })
    expect(auth.connectEmail).toHaveBeenCalledWith('a@b.co')
    const inputs = await waitFor(() => {
      const list = shadow().querySelectorAll<HTMLInputElement>('[data-testid=otp-inputs] input')
      if (list.length !== 1) throw new Error('no code field')
      return list
    })
    // one field for assistive tech and autofill: named 'Code', numeric, the one-time-code token
    const field = inputs[0] as HTMLInputElement
    expect([field.getAttribute('aria-label'), field.autocomplete, field.inputMode, field.maxLength]).toEqual(['Code', 'one-time-code', 'numeric', 6])
    expect(shadow().activeElement).toBe(field)
    // the resend button counts down from 30 s
    expect(shadow().querySelector('[data-testid=otp-resend]')?.textContent).toBe('Resend code in 30s')
    expect(shadow().querySelector<HTMLButtonElement>('[data-testid=otp-resend]')?.disabled).toBe(true)

    // a wrong code: the error shows and the inputs clear
    type(inputs[0] as HTMLInputElement, '999999')
    await waitFor(() => {
      if (shadow().querySelector('[data-testid=otp-error]')?.textContent !== 'Invalid code') throw new Error('no error')
    })
    expect([...inputs].map((i) => i.value).join('')).toBe('')
    // the field is marked invalid and described by the error (announced: role alert)
    expect(field.getAttribute('aria-invalid')).toBe('true')
    expect(shadow().getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Invalid code')
    expect(shadow().querySelector('[data-testid=otp-error]')?.getAttribute('role')).toBe('alert')

    // a pasted code (with a space in it, as some mails show it) fills the field and connects
    const data = new DataTransfer()
    data.setData('text', '123 456')
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

  it('edit email starts with the current address; each code step can send its code again once the 30 s ran', async () => {
    stubDirectory()
    const { auth, source } = fakeAuth()
    auth.updateEmail.mockResolvedValueOnce('VERIFY_PRIMARY_OTP').mockResolvedValueOnce('VERIFY_PRIMARY_OTP').mockResolvedValueOnce('VERIFY_SECONDARY_OTP')
    const { appKit } = testAppKit({ connectors: [source], features: { email: true, socials: false, analytics: false } })
    current = appKit
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] })
    await act(() => appKit.open({ view: 'UpdateEmail' }))
    const input = await waitFor(() => {
      const el = shadow().querySelector<HTMLInputElement>('[data-testid=update-email] input[type=email]')
      if (!el) throw new Error('no email field')
      return el
    })
    const save = shadow().querySelector<HTMLButtonElement>('[data-testid=update-email] button[type=submit]')
    // The field holds the current address; saving it unchanged is not offered.
    expect(input.value).toBe('a@b.co')
    expect(save?.disabled).toBe(true)
    type(input, 'new@b.co')
    expect(save?.disabled).toBe(false)
    await act(async () => {
      shadow().querySelector<HTMLFormElement>('[data-testid=update-email] form')?.requestSubmit()
    })
    expect(auth.updateEmail).toHaveBeenLastCalledWith('new@b.co')
    const resend = () => shadow().querySelector<HTMLButtonElement>('[data-testid=update-email-resend]')
    await waitFor(() => {
      if (!resend()) throw new Error('no resend')
    })
    expect(resend()?.textContent).toBe('Resend code in 30s')
    expect(resend()?.disabled).toBe(true)
    await act(async () => {
      vi.advanceTimersByTime(12_000)
    })
    expect(resend()?.textContent).toBe('Resend code in 18s')
    await act(async () => {
      vi.advanceTimersByTime(18_000)
    })
    expect(resend()?.textContent).toBe('Resend code')
    expect(resend()?.disabled).toBe(false)
    // Resend on the first step: the current address's code again, and the countdown again.
    await act(async () => {
      resend()?.click()
    })
    expect(auth.updateEmail).toHaveBeenCalledTimes(2)
    expect(auth.updateEmail).toHaveBeenLastCalledWith('new@b.co')
    await waitFor(() => {
      if (resend()?.textContent !== 'Resend code in 30s') throw new Error(`not restarted: ${resend()?.textContent}`)
    })
    // The current address's code: then the new address's step, which resends its own code.
    const inputs = shadow().querySelectorAll<HTMLInputElement>('[data-testid=otp-inputs] input')
    type(inputs[0] as HTMLInputElement, '123456')
    await waitFor(() => {
      if (shadow().querySelector('[data-testid=update-email-step]')?.getAttribute('data-step') !== 'secondary') throw new Error('not on the new address')
    })
    expect(auth.updateEmailPrimaryOtp).toHaveBeenCalledWith('123456')
    expect(resend()?.textContent).toBe('Resend code in 30s')
    await act(async () => {
      vi.advanceTimersByTime(30_000)
    })
    await act(async () => {
      resend()?.click()
    })
    expect(auth.updateEmail).toHaveBeenCalledTimes(3)
    expect(shadow().querySelector('[data-testid=update-email-step]')?.getAttribute('data-step')).toBe('secondary')
    vi.useRealTimers()
  })

  it('the device view counts down before its link may be sent again', async () => {
    stubDirectory()
    let cooldown = 0
    const { auth, source } = fakeAuthConnector(
      {
        connectEmail: vi.fn(async () => {
          cooldown = 30_000
          return 'VERIFY_DEVICE' as const
        }),
        connectDevice: vi.fn(async () => 'VERIFY_DEVICE' as const),
        emailCooldownMs: () => cooldown,
      },
      ADDRESS,
    )
    const { appKit } = testAppKit({ connectors: [source], features: { email: true, socials: false, analytics: false } })
    current = appKit
    await act(() => appKit.open())
    const input = await waitFor(() => {
      const el = shadow().querySelector<HTMLInputElement>('form.email input[type=email]')
      if (!el) throw new Error('no email field')
      return el
    })
    type(input, 'a@b.co')
    await act(async () => {
      shadow().querySelector<HTMLFormElement>('form.email')?.requestSubmit()
    })
    const resend = await waitFor(() => {
      const el = shadow().querySelector<HTMLButtonElement>('[data-testid=device-resend]')
      if (!el) throw new Error('no device view')
      return el
    })
    expect(resend.textContent).toBe('Resend email in 30s')
    expect(resend.disabled).toBe(true)
    cooldown = 0
    await waitFor(() => {
      if (resend.textContent !== 'Resend email') throw new Error('still counting')
    })
    expect(auth.connectEmail).toHaveBeenCalledTimes(1)
  })
})
