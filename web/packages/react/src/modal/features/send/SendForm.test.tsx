import type { ChainAdapter } from '@sigil/core'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeAdapter } from '../../../../../core/src/test-utils/index.js'
import { ethereum, sigilDev } from '@sigil/core/networks'
import type { AppKit } from '../../../appkit.js'
import { MODAL_CSS } from '../../styles.js'
import { cleanup, serverBalance, shadow, stubDirectory, testAppKit, waitFor } from '../../../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  cleanup(current)
  current = undefined
})

const SGL = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const RECEIVER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const HASH = `0x${'ab'.repeat(32)}`

async function accountWithSend(sendTransfer?: NonNullable<ChainAdapter['sendTransfer']>, more: Partial<ChainAdapter> = {}) {
  stubDirectory(5, { balances: [serverBalance('ETH', '2', { name: 'Ether' }), serverBalance('SGL', '100', { name: 'Sigil', address: SGL })] })
  const { adapter } = fakeAdapter()
  const isAddress = (a: string) => /^0x[0-9a-fA-F]{40}$/.test(a)
  // The dev chain with a block explorer (Otterscan over anvil, say): the sent state links to it.
  const dev = { ...sigilDev(), blockExplorers: { default: { name: 'Otterscan', url: 'http://127.0.0.1:5100' } } }
  const { appKit } = testAppKit({ networks: [dev, ethereum], adapters: [{ ...adapter, isAddress, ...more, ...(sendTransfer ? { sendTransfer } : {}) }] })
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
    const sendTransfer = vi.fn(async () => HASH)
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
    // The sent state: what went, and the transaction on the network's explorer, shortened.
    const sent = shadow().querySelector('[data-testid=send-sent]')
    expect(sent?.querySelector('.headline')?.textContent).toBe('Sent 2.5 SGL')
    const link = sent?.querySelector<HTMLAnchorElement>('a[data-testid=send-explorer]')
    expect(link?.href).toBe(`http://127.0.0.1:5100/tx/${HASH}`)
    expect(link?.textContent?.trim()).toBe('0xab…ababab')
    expect(link?.getAttribute('aria-label')).toBe('0xab…ababab, View on Otterscan')
    expect(link?.target).toBe('_blank')
    await act(async () => button('Done')?.click())
    expect(shadow().querySelector('[data-testid=send-sent]')).toBeNull()
    expect(button('Send')).toBeDefined()
    void appKit
  })

  it('refuses a receiver of another network and an amount above the balance before the wallet is asked', async () => {
    const sendTransfer = vi.fn(async () => HASH)
    await accountWithSend(sendTransfer)
    await act(async () => button('Send')?.click())
    const submit = () => shadow().querySelector<HTMLButtonElement>('form.send button[type=submit]') as HTMLButtonElement
    await type(field('Token'), 'native')
    await type(field('Amount'), '1')
    await type(field('Receiver address'), 'So11111111111111111111111111111111111111112')
    await act(async () => submit().click())
    await waitFor(() => expect(error()).toBe('This is not a valid address on Sigil Dev'))
    await type(field('Receiver address'), RECEIVER)
    await type(field('Amount'), '2.5')
    await act(async () => submit().click())
    await waitFor(() => expect(error()).toBe('Insufficient funds: the balance is 2.000 ETH'))
    expect(sendTransfer).not.toHaveBeenCalled()
  })

  it("a chain's refusal shows as the spec's text, wrapped, never the raw dump", async () => {
    const dump = `Transaction simulation failed: FailedTransactionMetadata{${'x'.repeat(3000)} insufficient funds for gas * price + value}`
    const sendTransfer = vi.fn(async () => {
      throw Object.assign(new Error(dump), { code: -32000 })
    })
    await accountWithSend(sendTransfer)
    await act(async () => button('Send')?.click())
    await type(field('Token'), 'native')
    await type(field('Amount'), '1')
    await type(field('Receiver address'), RECEIVER)
    await act(async () => shadow().querySelector<HTMLButtonElement>('form.send button[type=submit]')?.click())
    await waitFor(() => expect(error()).toBe('Insufficient funds: the amount and the network fee are more than the account holds.'))
    // Long words in an error break anywhere rather than widen the modal.
    expect(MODAL_CSS).toMatch(/\.sub\.err\{[^}]*overflow-wrap:anywhere/)
  })
})

describe('TransactionFailed: an approved request of the embedded wallet that failed', () => {
  it('says why in place of the approval, and closes', async () => {
    stubDirectory(5)
    const { appKit } = testAppKit()
    current = appKit
    const message = 'Insufficient funds: the amount and the network fee are more than the account holds.'
    await act(() => appKit.open({ view: 'TransactionFailed', data: { message, transaction: true } }))
    const view = await waitFor(() => {
      const el = shadow().querySelector('[data-testid=transaction-failed]')
      if (!el) throw new Error('not yet')
      return el
    })
    expect(view.querySelector('[role=alert]')?.textContent).toBe(message)
    expect(shadow().querySelector('[role=dialog]')?.getAttribute('aria-label')).toBe('Transaction not sent')
    await act(async () => button('OK')?.click())
    expect(appKit.client.store.getState().modal.open).toBe(false)
  })
})
