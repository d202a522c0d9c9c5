/**
 * The headless hooks end to end (@sigil/react/headless): the demo's page with its own buttons
 * (?headless=on) connects the injected test wallet and logs in to the embedded wallet by email,
 * with no modal: none in the page, its code never fetched. Against the real server, the mail
 * sink and anvil.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { getAddress } from 'viem'
import { accounts } from '../src/chain.js'
import { freshEmail } from '../src/embedded.js'
import { useDemo } from '../src/fixtures.js'
import { approveDevice, codeOf, DEVICE_LINK, lastMailId, linkOf, LOGIN_CODE, waitForMail } from '../src/mail.js'
import { TEST_WALLET_NAME } from '../src/test-wallet.js'

const t = useDemo()

/** What of the modal this document fetched (its chunks, by the page's resource timing) and whether it mounted: none, and no. */
async function modalTrace(page: Page): Promise<{ chunks: string[]; mounted: boolean }> {
  return page.evaluate(() => ({
    chunks: performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => /\/assets\/(modal|connect|EmailSocial)-[\w-]+\.js$/.test(path)),
    mounted: document.querySelector('sigil-modal') !== null,
  }))
}

const headless = {
  status: (page: Page) => page.getByTestId('status'),
  address: (page: Page) => page.getByTestId('address'),
  wallet: (page: Page) => page.getByTestId('wallet'),
  connectorButton: (page: Page, name: string) => page.getByTestId('headless-connectors').getByRole('button', { name, exact: true }),
  walletCount: (page: Page) => page.getByTestId('headless-wallet-count'),
  directoryWallets: (page: Page) => page.getByTestId('headless-wallet-list').getByRole('button'),
  search: (page: Page) => page.getByRole('searchbox', { name: 'Search wallets' }),
  emailStep: (page: Page) => page.getByTestId('headless-email-step'),
  email: (page: Page) => page.getByRole('textbox', { name: 'Email' }),
  code: (page: Page) => page.getByRole('textbox', { name: 'Code' }),
}

describe('headless page (?headless=on): own buttons, no modal', () => {
  it('lists the page wallets and the directory (paged, searchable), and connects the injected test wallet', async () => {
    await t.page.goto(`${t.demoUrl}/?headless=on`)
    // The page's own buttons: the test wallet announces itself (EIP-6963).
    const button = headless.connectorButton(t.page, TEST_WALLET_NAME)
    await button.waitFor({ state: 'visible', timeout: 15_000 })
    // The directory: its first page of 40, of every wallet the server lists.
    await expect.poll(() => headless.walletCount(t.page).innerText(), { timeout: 15_000 }).toMatch(/^40 of (\d+)$/)
    const total = Number((await headless.walletCount(t.page).innerText()).split(' of ')[1])
    expect(total).toBeGreaterThan(40)
    expect(await headless.directoryWallets(t.page).count()).toBe(40)
    await t.page.getByRole('button', { name: 'More' }).click()
    await expect.poll(() => headless.walletCount(t.page).innerText()).toBe(`${Math.min(80, total)} of ${total}`)
    // A search asks the server (after the pause): only the wallets whose name matches stay.
    await headless.search(t.page).fill('rainbow')
    await expect
      .poll(async () => (await headless.directoryWallets(t.page).allInnerTexts()).map((name) => /rainbow/i.test(name)), { timeout: 10_000 })
      .toEqual([true])
    expect(await headless.walletCount(t.page).innerText()).toBe('1 of 1')
    await headless.search(t.page).fill('')
    await expect.poll(() => headless.walletCount(t.page).innerText()).toBe(`40 of ${total}`)

    await button.click()
    await expect.poll(() => headless.status(t.page).innerText(), { timeout: 15_000 }).toBe('connected')
    const [first] = await accounts(t.env.rpcUrl)
    expect(getAddress(await headless.address(t.page).innerText())).toBe(getAddress(first))
    expect(await headless.wallet(t.page).innerText()).toBe(TEST_WALLET_NAME)
    expect(await modalTrace(t.page)).toEqual({ chunks: [], mounted: false })

    // Disconnecting with the page's own button, and the wallet buttons are back.
    await t.page.getByRole('button', { name: 'Disconnect' }).click()
    await expect.poll(() => headless.status(t.page).innerText()).toBe('disconnected')
    await button.waitFor({ state: 'visible' })
  })

  it('logs in to the embedded wallet by email: the device approved from the mail, the code typed in the page', async () => {
    await t.page.goto(`${t.demoUrl}/?headless=on&email=on`)
    const email = freshEmail('headless')
    const before = await lastMailId(t.env.mailUrl, email)
    await expect.poll(() => headless.email(t.page).isEnabled(), { timeout: 15_000 }).toBe(true)
    expect(await headless.emailStep(t.page).innerText()).toBe('email')
    await headless.email(t.page).fill(email)
    await t.page.getByRole('button', { name: 'Send' }).click()
    // A new device: approved from the link in the mail; the page notices and asks for the code.
    await expect.poll(() => headless.emailStep(t.page).innerText(), { timeout: 30_000 }).toBe('verify-device')
    await approveDevice(linkOf(await waitForMail(t.env.mailUrl, email, DEVICE_LINK, before)))
    await expect.poll(() => headless.emailStep(t.page).innerText(), { timeout: 30_000 }).toBe('verify-otp')
    const code = codeOf(await waitForMail(t.env.mailUrl, email, LOGIN_CODE, before))
    await headless.code(t.page).fill(code)
    await t.page.getByRole('button', { name: 'Verify' }).click()
    await expect.poll(() => headless.status(t.page).innerText(), { timeout: 30_000 }).toBe('connected')
    expect(await headless.address(t.page).innerText()).toMatch(/^0x[0-9a-fA-F]{40}$/)
    // Not the injected wallet's account: the embedded wallet's own.
    const [first] = await accounts(t.env.rpcUrl)
    expect(getAddress(await headless.address(t.page).innerText())).not.toBe(getAddress(first))
    expect(await modalTrace(t.page)).toEqual({ chunks: [], mounted: false })
  })
})
