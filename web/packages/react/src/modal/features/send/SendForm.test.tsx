import type { ChainAdapter } from '@sigil/core'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeAdapter } from '../../../../../core/src/test-utils/index.js'
import type { AppKit } from '../../../appkit.js'
import { cleanup, serverBalance, shadow, stubDirectory, testAppKit, waitFor } from '../../../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

const SGL = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const RECEIVER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

async function accountWithSend(sendTransfer?: NonNullable<ChainAdapter['sendTransfer']>) {
  stubDirectory(5, { balances: [serverBalance('ETH', '2', { name: 'Ether' }), serverBalance('SGL', '100', { name: 'Sigil', address: SGL })] })
  const { adapter } = fakeAdapter()
  const { appKit } = testAppKit({ adapters: [{ ...adapter, ...(sendTransfer ? { sendTransfer } : {}) }] })
  current = appKit
  await act(async () => {
    await appKit.client.connect('com.test')
    await appKit.client.refreshBalance()
  })
  await act(() => appKit.open({ view: 'Account' }))
  await waitFor(() => {
    if (!shadow().querySelector('[data-testid=token-row][data-symbol=SGL]')) throw new Error('no tokens yet')
  })
  return appKit
}

const button = (name: string) => [...shadow().querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.trim() === name)
const field = (label: string) => {
  const l = [...shadow().querySelectorAll('label')].find((x) => x.textContent === label)
  return shadow().getElementById(l?.getAttribute('for') ?? '') as HTMLInputElement | HTMLSelectElement
}
const type = (el: HTMLInputElement | HTMLSelectElement, value: string) =>
  act(() => {
    const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'value')?.set
    setter?.call(el, value)
    el.dispatchEvent(new Event(el instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }))
  })
const error = () => shadow().querySelector('[data-testid=send-error]')?.textContent

describe('Account view: send', () => {
  it('is offered only where the adapter can send', async () => {
    await accountWithSend()
    expect(button('Send')).toBeUndefined()
  })

  it('says what is missing with the spec texts, then sends and reads the balances again', async () => {
    const sendTransfer = vi.fn(async () => '0xhash')
    const appKit = await accountWithSend(sendTransfer)
    await act(async () => button('Send')?.click())
    const submit = () => shadow().querySelector<HTMLButtonElement>('form.send button[type=submit]') as HTMLButtonElement
    await act(async () => submit().click())
    await waitFor(() => expect(error()).toBe('An amount and receiver address are required'))
    await type(field('Amount'), '2.5')
    await type(field('Receiver address'), RECEIVER)
    await act(async () => submit().click())
    await waitFor(() => expect(error()).toBe('A token is required'))
    await type(field('Token'), SGL)
    await act(async () => submit().click())
    await waitFor(() => expect(shadow().querySelector('form.send')).toBeNull())
    expect(sendTransfer).toHaveBeenCalledWith(
      expect.anything(),
      expect.objectContaining({ to: RECEIVER, amount: 2_500_000_000_000_000_000n, token: { address: SGL, decimals: 18 } }),
    )
    expect(appKit.client.store.getState().notification?.message).toBe('Sent 2.5 SGL')
  })
})
