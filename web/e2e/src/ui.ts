/**
 * How the tests find things in the demo page and the modal: by role and accessible name, in one
 * place, so a wording change in the UI is one edit here. Playwright's role and CSS selectors
 * pierce the modal's open shadow root.
 */
import type { Locator, Page } from 'playwright-core'
import { TEST_WALLET_NAME } from './test-wallet.js'

export const ui = {
  /** The host page's <ConnectButton/> while disconnected. */
  connectButton: (page: Page) => page.getByRole('button', { name: /^connect wallet$/i }).first(),
  /** The host page's <ConnectButton/> while connected: its text carries the address, or the account's name (alice.eth). */
  accountButton: (page: Page) => page.getByRole('button', { name: /0x[0-9a-f]{2}|\.eth\b/i }).first(),
  /** The demo page's account status from the hooks ('connected', 'disconnected', ...). */
  status: (page: Page) => page.getByTestId('status'),
  dialog: (page: Page) => page.getByRole('dialog'),
  closeButton: (page: Page) => ui.dialog(page).getByRole('button', { name: /^close/i }),
  backButton: (page: Page) => ui.dialog(page).getByRole('button', { name: /^back/i }),
  /** A wallet entry (Connect list or AllWallets grid) by its name. */
  walletButton: (page: Page, name: string | RegExp = TEST_WALLET_NAME) =>
    ui
      .dialog(page)
      .getByRole('button', { name: typeof name === 'string' ? new RegExp(`^${escapeRegExp(name)}`, 'i') : name })
      .first(),
  allWalletsButton: (page: Page) => ui.dialog(page).getByRole('button', { name: /all wallets/i }),
  search: (page: Page) =>
    ui
      .dialog(page)
      .getByRole('searchbox')
      .or(ui.dialog(page).getByRole('textbox', { name: /search/i }))
      .first(),
  /** The wallet entries of the AllWallets grid. */
  gridWallets: (page: Page) => ui.dialog(page).locator('[data-testid="all-wallets-grid"] button'),
  disconnectButton: (page: Page) => ui.dialog(page).getByRole('button', { name: /disconnect/i }),
  /** Account view: the control that opens the network list. */
  networkButton: (page: Page) =>
    ui
      .dialog(page)
      .getByRole('button', { name: /network/i })
      .first(),
  /** Account view: the native balance line ('9999.998 ETH'). */
  accountBalance: (page: Page) => ui.dialog(page).getByTestId('account-balance'),
  /** Account view: the name or shortened address. */
  accountName: (page: Page) => ui.dialog(page).getByTestId('account-address'),
  /** Account view: the profile image (ENS avatar), when there is one. */
  accountAvatar: (page: Page) => ui.dialog(page).locator('.account > .img img'),
  /** Tokens tab: one row per balance, by symbol. */
  tokenRows: (page: Page) =>
    ui
      .dialog(page)
      .getByRole('list', { name: /token balances/i })
      .getByRole('listitem'),
  tokenRow: (page: Page, symbol: string) => ui.dialog(page).locator(`[data-testid="token-row"][data-symbol="${symbol}"]`),
  /** Tokens tab: the refresh control (asks the server with forceUpdate). */
  refreshBalancesButton: (page: Page) => ui.dialog(page).getByRole('button', { name: /refresh balances/i }),
  /** Tokens tab: the line under the tabs ('Token Balance Unavailable', 'No tokens yet.'). */
  tokensNote: (page: Page) => ui.dialog(page).getByTestId('tokens-note'),
  /** The demo's wagmi card: wagmi's own view of the connection (useConnection, useChainId). */
  wagmi: {
    status: (page: Page) => page.getByTestId('wagmi-status'),
    address: (page: Page) => page.getByTestId('wagmi-address'),
    chainId: (page: Page) => page.getByTestId('wagmi-chain-id'),
    /** useSwitchChain, by the chain's name ('Arbitrum One', 'Sigil Dev', ...). */
    switchTo: (page: Page, chain: string) => page.getByRole('button', { name: `Switch to ${chain} with wagmi` }),
    disconnect: (page: Page) => page.getByRole('button', { name: 'Disconnect with wagmi' }),
    /** useWriteContract: 1 SGL to anvil's account 1. */
    sendSgl: (page: Page) => page.getByRole('button', { name: 'Send 1 SGL' }),
    txHash: (page: Page) => page.getByTestId('sgl-tx-hash'),
    /** useWaitForTransactionReceipt: 'success' or 'reverted' once mined. */
    txStatus: (page: Page) => page.getByTestId('sgl-tx-status'),
  },
  /** The demo's provider card: useAppKitProvider('eip155') with viem and ethers. */
  provider: {
    signTypedData: (page: Page) => page.getByRole('button', { name: 'Sign typed data' }),
    signature: (page: Page) => page.getByTestId('typed-signature'),
    /** ethers BrowserProvider: the shown balance; its `data-wei` holds the exact amount. */
    ethBalance: (page: Page) => page.getByTestId('ethers-eth-balance'),
    sglBalance: (page: Page) => page.getByTestId('ethers-sgl-balance'),
  },
  /** An entry of the Networks view. */
  networkOption: (page: Page, name: string) =>
    ui
      .dialog(page)
      .getByRole('list', { name: /networks/i })
      .getByRole('button', { name: new RegExp(escapeRegExp(name), 'i') })
      .first(),
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

export function shortAddress(address: string): string {
  return `${address.slice(0, 4)}…${address.slice(-6)}`
}

/** Opens the modal from the ConnectButton, whether connected or not. */
export async function openModal(page: Page): Promise<Locator> {
  await ui.connectButton(page).or(ui.accountButton(page)).first().click()
  const dialog = ui.dialog(page)
  await dialog.waitFor({ state: 'visible' })
  return dialog
}

/** Opens the modal and connects with the test wallet; resolves once the page shows the account. */
export async function connectTestWallet(page: Page): Promise<void> {
  await openModal(page)
  await ui.walletButton(page).click()
  await waitConnected(page)
}

/** Waits until the demo page reports a connection and the ConnectButton shows the account. */
export async function waitConnected(page: Page, timeout = 15_000): Promise<void> {
  await page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.textContent === 'connected', undefined, { timeout })
  await ui.accountButton(page).waitFor({ state: 'visible', timeout })
}
