import type { ChainAdapter } from '@sigil/core'
import { formatFee } from '@sigil/core/send'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeAdapter } from '../../../../../core/src/test-utils/index.js'
import { ethereum, sigilDev } from '@sigil/core/networks'
import type { AppKit } from '../../../appkit.js'
import { MODAL_CSS } from '../../styles.js'
import { cleanup, serverBalance, shadow, stubDirectory, testAppKit, waitFor, dialogName } from '../../../test-utils.js'

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
const byTest = <T extends Element = HTMLElement>(id: string) => shadow().querySelector<T>(`[data-testid=${id}]`)
const type = (el: HTMLInputElement | null, value: string) =>
  act(() => {
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set
    setter?.call(el, value)
    el?.dispatchEvent(new Event('input', { bubbles: true }))
  })
const submit = () => byTest<HTMLButtonElement>('send-submit')
const click = (el: Element | null | undefined) => act(async () => (el as HTMLElement | null)?.click())
const GAS = { limit: 21_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1n }

async function sendForm(more: Partial<ChainAdapter> = {}) {
  const sendTransfer = more.sendTransfer ?? vi.fn(async () => HASH)
  const transferFee = vi.fn(async () => ({ fee: 21_000n * 2_000_000_000n, gas: GAS }))
  const resolveName = vi.fn(async (name: string) => (name === 'alice.eth' ? RECEIVER : undefined))
  const appKit = await accountWithSend(sendTransfer, { transferFee, resolveName, ...more })
  await click(byTest('account-send'))
  await waitFor(() => {
    if (!byTest('wallet-send')) throw new Error('no form yet')
  })
  return { appKit, sendTransfer, transferFee, resolveName }
}

describe('send: WalletSend -> WalletSendSelectToken -> WalletSendPreview -> WalletSendSent', () => {
  it('is offered only where the adapter can send', async () => {
    await accountWithSend()
    expect(byTest('account-send')).toBeNull()
  })

  it("the button says what the form lacks; the token is chosen in its own view; 'Max' keeps the fee back for the native coin", async () => {
    const { appKit } = await sendForm()
    expect(submit()?.textContent).toBe('Choose a Token')
    expect(submit()?.disabled).toBe(true)
    await click(byTest('send-token'))
    await waitFor(() => expect(byTest('send-select-token')).not.toBeNull())
    expect(dialogName()).toBe('Choose a Token')
    const options = () => [...shadow().querySelectorAll('[data-testid=send-token-option]')].map((o) => o.getAttribute('data-symbol'))
    expect(options()).toEqual(['ETH', 'SGL'])
    await type(shadow().querySelector('input[type=search]'), 'sig')
    expect(options()).toEqual(['SGL'])
    await type(shadow().querySelector('input[type=search]'), 'nothing')
    expect(byTest('send-no-tokens')?.textContent).toBe('No token matches “nothing”.')
    await type(shadow().querySelector('input[type=search]'), '')
    await click(shadow().querySelector('[data-symbol=ETH]'))
    await waitFor(() => expect(byTest('send-token')?.textContent).toBe('ETH'))
    expect(byTest('send-balance')?.textContent).toBe('Balance 2.000 ETH')
    expect(submit()?.textContent).toBe('Enter an Amount')
    await type(byTest('send-amount'), '2.000000000000000001')
    expect(submit()?.textContent).toBe('Not Enough Funds')
    await type(byTest('send-amount'), '1.x')
    expect(submit()?.textContent).toBe('Check the Amount')
    await click(byTest('send-max'))
    await waitFor(() => expect(byTest<HTMLInputElement>('send-amount')?.value).toBe('1.999958'))
    expect(submit()?.textContent).toBe('Enter a Receiver')
    await type(byTest('send-to'), 'So11111111111111111111111111111111111111112')
    expect(submit()?.textContent).toBe('Receiver Not Valid')
    await type(byTest('send-to'), RECEIVER)
    expect(submit()?.textContent).toBe('Review Send')
    expect(submit()?.disabled).toBe(false)
    void appKit
  })

  it('resolves a name as it is typed and shows the address under it; a name without one says so', async () => {
    const { resolveName } = await sendForm()
    await type(byTest('send-amount'), '1')
    await type(byTest('send-to'), 'nobody.eth')
    await waitFor(() => expect(byTest('send-resolved')?.textContent).toBe('nobody.eth has no address on Sigil Dev'))
    expect(submit()?.textContent).toBe('Choose a Token')
    await type(byTest('send-to'), 'alice.eth')
    expect(byTest('send-resolved')?.textContent).toBe('Looking up the name…')
    await waitFor(() => expect(byTest('send-resolved')?.textContent).toBe(`Sends to ${RECEIVER}`))
    expect(resolveName).toHaveBeenLastCalledWith('alice.eth', expect.objectContaining({ caipNetworkId: 'eip155:31337' }), expect.anything())
  })

  it('previews the send (the name and its address, the network, the most the fee can be), sends to the resolved address, then shows it sent', async () => {
    const { appKit, sendTransfer } = await sendForm()
    await click(byTest('send-token'))
    await waitFor(() => expect(shadow().querySelector('[data-symbol=SGL]')).not.toBeNull())
    await click(shadow().querySelector('[data-symbol=SGL]'))
    await waitFor(() => expect(byTest('wallet-send')).not.toBeNull())
    await type(byTest('send-amount'), '2.5')
    await type(byTest('send-to'), 'alice.eth')
    await waitFor(() => expect(submit()?.textContent).toBe('Review Send'))
    await click(submit())
    await waitFor(() => expect(byTest('send-fee')?.textContent).toBe('up to 0.000042 ETH'))
    expect(dialogName()).toBe('Review Send')
    expect(byTest('send-preview-amount')?.textContent).toBe('2.5 SGL')
    expect(byTest('send-preview-to')?.textContent).toBe('alice.eth0x70…dc79C8')
    expect(sendTransfer).not.toHaveBeenCalled()
    // Cancel goes back to the form as it was.
    await click(button('Cancel'))
    await waitFor(() => expect(byTest<HTMLInputElement>('send-amount')?.value).toBe('2.5'))
    expect(byTest<HTMLInputElement>('send-to')?.value).toBe('alice.eth')
    await waitFor(() => expect(submit()?.textContent).toBe('Review Send'))
    await click(submit())
    await waitFor(() => expect(byTest<HTMLButtonElement>('send-confirm')?.disabled).toBe(false))
    await click(byTest('send-confirm'))
    await waitFor(() => expect(byTest('send-sent')).not.toBeNull())
    expect(sendTransfer).toHaveBeenCalledWith(
      expect.anything(),
      expect.objectContaining({ to: RECEIVER, amount: 2_500_000_000_000_000_000n, token: { address: SGL, decimals: 18 }, gas: GAS }),
    )
    const sent = byTest('send-sent')
    expect(sent?.querySelector('.headline')?.textContent).toBe('Sent 2.5 SGL')
    expect(sent?.textContent).toContain('to alice.eth')
    const link = sent?.querySelector<HTMLAnchorElement>('a[data-testid=send-explorer]')
    expect(link?.href).toBe(`http://127.0.0.1:5100/tx/${HASH}`)
    expect(link?.textContent?.trim()).toBe('0xab…ababab')
    expect(link?.getAttribute('aria-label')).toBe('0xab…ababab, View on Otterscan')
    // The form is gone from the history: Done is back on the account.
    expect(appKit.client.store.getState().router.history.map((r) => r.view)).toEqual(['Account', 'WalletSendSent'])
    await click(button('Done'))
    await waitFor(() => expect(byTest('account-send')).not.toBeNull())
  })

  it("the Preview says what is wrong before the wallet is asked, a chain's refusal in the spec's words", async () => {
    const dump = `Transaction simulation failed: FailedTransactionMetadata{${'x'.repeat(3000)} insufficient funds for gas * price + value}`
    await sendForm({
      sendTransfer: vi.fn(async () => {
        throw Object.assign(new Error(dump), { code: -32000 })
      }),
    })
    await click(byTest('send-token'))
    await waitFor(() => expect(shadow().querySelector('[data-symbol=ETH]')).not.toBeNull())
    await click(shadow().querySelector('[data-symbol=ETH]'))
    await waitFor(() => expect(byTest('wallet-send')).not.toBeNull())
    // The whole 2 ETH leaves nothing for the fee: said in the Preview, Send stays off.
    await type(byTest('send-amount'), '2')
    await type(byTest('send-to'), RECEIVER)
    await click(submit())
    await waitFor(() => expect(byTest('send-error')?.textContent).toBe('Insufficient funds for the network fee (about 0.000042 ETH)'))
    expect(byTest<HTMLButtonElement>('send-confirm')?.disabled).toBe(true)
    await click(button('Cancel'))
    await waitFor(() => expect(byTest('wallet-send')).not.toBeNull())
    await type(byTest('send-amount'), '1')
    await waitFor(() => expect(submit()?.textContent).toBe('Review Send'))
    await click(submit())
    await waitFor(() => expect(byTest<HTMLButtonElement>('send-confirm')?.disabled).toBe(false))
    await click(byTest('send-confirm'))
    await waitFor(() => expect(byTest('send-error')?.textContent).toBe('Insufficient funds: the amount and the network fee are more than the account holds.'))
    // Long words in an error break anywhere rather than widen the modal.
    expect(MODAL_CSS).toMatch(/\.sub\.err\{[^}]*overflow-wrap:anywhere/)
  })
})

describe('the Preview’s fee', () => {
  it('is rounded up to 6 decimals, never down', () => {
    expect(formatFee(35_941_356_036_300n, 18)).toBe('0.000036')
    expect(formatFee(42_000_000_000_000n, 18)).toBe('0.000042')
    expect(formatFee(1n, 18)).toBe('0.000001')
    expect(formatFee(5000n, 9)).toBe('0.000005')
    expect(formatFee(7n, 0)).toBe('7')
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
    expect(dialogName()).toBe('Transaction not sent')
    await act(async () => button('OK')?.click())
    expect(appKit.client.store.getState().modal.open).toBe(false)
  })
})
