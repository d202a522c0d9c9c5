/**
 * The send views as the tests drive them: WalletSend (token chip, amount, receiver, the button
 * saying what is missing) -> WalletSendSelectToken -> WalletSendPreview -> WalletSendSent.
 */
import type { Locator, Page } from 'playwright-core'
import { ui } from './ui.js'

export const send = {
  /** The Account view's Send button. */
  open: (page: Page) => ui.dialog(page).getByTestId('account-send'),
  form: (page: Page) => ui.dialog(page).getByTestId('wallet-send'),
  tokenChip: (page: Page) => ui.dialog(page).getByTestId('send-token'),
  tokenOption: (page: Page, symbol: string) => ui.dialog(page).locator(`[data-testid="send-token-option"][data-symbol="${symbol}"]`),
  selectToken: (page: Page) => ui.dialog(page).getByTestId('send-select-token'),
  amount: (page: Page) => ui.dialog(page).getByTestId('send-amount'),
  max: (page: Page) => ui.dialog(page).getByTestId('send-max'),
  to: (page: Page) => ui.dialog(page).getByTestId('send-to'),
  /** Under the receiver: the name's address, or why there is none. */
  resolved: (page: Page) => ui.dialog(page).getByTestId('send-resolved'),
  /** The form's button: its text says what is missing ('Review Send' once nothing is). */
  submit: (page: Page) => ui.dialog(page).getByTestId('send-submit'),
  preview: (page: Page) => ui.dialog(page).getByTestId('send-preview'),
  fee: (page: Page) => ui.dialog(page).getByTestId('send-fee'),
  previewTo: (page: Page) => ui.dialog(page).getByTestId('send-preview-to'),
  confirm: (page: Page) => ui.dialog(page).getByTestId('send-confirm'),
  cancel: (page: Page) => ui.dialog(page).getByRole('button', { name: 'Cancel' }),
  error: (page: Page) => ui.dialog(page).getByTestId('send-error'),
  sent: (page: Page) => ui.dialog(page).getByTestId('send-sent'),
  explorerLink: (page: Page) => ui.dialog(page).getByTestId('send-explorer'),
  done: (page: Page) => ui.dialog(page).getByRole('button', { name: 'Done' }),
}

/** Chooses `symbol` in WalletSendSelectToken, back on the form. */
export async function chooseToken(page: Page, symbol: string): Promise<void> {
  await send.tokenChip(page).click()
  await send.tokenOption(page, symbol).click()
  await send.form(page).waitFor()
  // The chip's name says the token (its text also holds an icon's fallback letter).
  await page.waitForFunction(
    ([want]) => {
      const host = [...document.querySelectorAll('*')].find((e) => e.shadowRoot?.querySelector('[data-testid="send-token"]'))
      return host?.shadowRoot?.querySelector('[data-testid="send-token"]')?.getAttribute('aria-label') === `${want}, change the token`
    },
    [symbol] as const,
    { timeout: 15_000 },
  )
}

/** Fills the form: token (when given), amount and receiver. */
export async function fillSend(page: Page, { token, amount, to }: { token?: string; amount: string; to: string }): Promise<void> {
  if (token) await chooseToken(page, token)
  await send.amount(page).fill(amount)
  await send.to(page).fill(to)
}

/** 'Review Send', then waits until the Preview has checked the send (Send enabled) or said why not. */
export async function review(page: Page): Promise<void> {
  await waitText(send.submit(page), 'Review Send')
  await send.submit(page).click()
  await send.preview(page).waitFor()
  await ui.dialog(page).locator('[data-testid="send-confirm"]:enabled, [data-testid="send-error"]').first().waitFor({ timeout: 15_000 })
}

/** The Preview's Send; resolves to the transaction hash from the sent state's explorer link. */
export async function confirmAndWait(page: Page): Promise<string> {
  await send.confirm(page).click()
  await send.sent(page).waitFor({ timeout: 30_000 })
  const href = (await send.explorerLink(page).getAttribute('href')) ?? ''
  return href.split('/').pop() ?? ''
}

async function waitText(locator: Locator, text: string, timeout = 15_000): Promise<void> {
  const deadline = Date.now() + timeout
  for (;;) {
    const now = (await locator.innerText().catch(() => '')).trim()
    if (now === text) return
    if (Date.now() > deadline) throw new Error(`expected "${text}", still "${now}"`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
