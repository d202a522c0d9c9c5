/**
 * The host's two ways to use the connection, end to end on the demo page: wagmi hooks through
 * the Sigil wagmi adapter (send SGL, switch network and disconnect from either side), and the
 * wallet's provider from useAppKitProvider (viem typed-data signing, ethers BrowserProvider
 * reads). Expected figures come from anvil.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { getAddress, recoverTypedDataAddress, type Hex } from 'viem'
import { greetingTypedData } from '../../apps/demo/src/contracts.js'
import { screenshot, wallet, walletAccount } from '../src/browser.js'
import { accounts, nativeBalance, tokenBalance } from '../src/chain.js'
import { useDemo } from '../src/fixtures.js'
import { connectTestWallet, ui } from '../src/ui.js'

const t = useDemo()

const sgl = () => {
  const token = t.env.devchain.tokens.find((tk) => tk.symbol === 'SGL')
  if (!token) throw new Error(`the dev-chain deployment has no SGL: ${JSON.stringify(t.env.devchain.tokens)}`)
  return token.address
}
const ONE_SGL = 10n ** 18n

describe('wagmi through the Sigil adapter', () => {
  it("shows the modal's connection in wagmi, and sends 1 SGL with useWriteContract: the receipt succeeds and the balance drops by exactly 1", async () => {
    const [account0, account1] = await accounts(t.env.rpcUrl)
    await connectTestWallet(t.page)
    await expect.poll(() => ui.wagmi.status(t.page).innerText()).toBe('connected')
    expect(await ui.wagmi.address(t.page).innerText()).toBe(getAddress(account0))
    expect(await ui.wagmi.chainId(t.page).innerText()).toBe('31337')
    const before = await tokenBalance(t.env.rpcUrl, sgl(), account0)
    const recipientBefore = await tokenBalance(t.env.rpcUrl, sgl(), account1)

    await ui.wagmi.sendSgl(t.page).click()
    await expect.poll(() => ui.wagmi.txStatus(t.page).innerText(), { timeout: 20_000 }).toBe('success')
    const hash = await ui.wagmi.txHash(t.page).innerText()
    expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
    // the wallet was asked to send it, and the chain has it
    const sent = (await wallet(t.page, 'log')).filter((r) => r.method === 'eth_sendTransaction')
    expect(sent.map((r) => r.outcome)).toEqual(['ok'])
    expect(await tokenBalance(t.env.rpcUrl, sgl(), account0)).toBe(before - ONE_SGL)
    expect(await tokenBalance(t.env.rpcUrl, sgl(), account1)).toBe(recipientBefore + ONE_SGL)
    // ethers, over the same provider, reads the new balance after the receipt
    await expect.poll(() => ui.provider.sglBalance(t.page).getAttribute('data-wei'), { timeout: 10_000 }).toBe(String(before - ONE_SGL))
    await screenshot(t.page, join(t.env.artifactsDir, 'e2e'), 'demo-wagmi-sent', { fullPage: true })
  })

  it("a network switched in the modal shows in wagmi's useChainId", async () => {
    await connectTestWallet(t.page)
    await expect.poll(() => ui.wagmi.chainId(t.page).innerText()).toBe('31337')
    await ui.accountButton(t.page).click()
    await ui.networkButton(t.page).click()
    await ui.networkOption(t.page, 'Arbitrum').click()
    await expect.poll(async () => (await wallet(t.page, 'state')).chainId, { timeout: 10_000 }).toBe(42161)
    await expect.poll(() => ui.wagmi.chainId(t.page).innerText(), { timeout: 10_000 }).toBe('42161')
    expect(await ui.wagmi.status(t.page).innerText()).toBe('connected')
  })

  it("a network switched with wagmi's useSwitchChain shows in the modal", async () => {
    await connectTestWallet(t.page)
    await expect.poll(() => ui.wagmi.status(t.page).innerText()).toBe('connected')
    await ui.wagmi.switchTo(t.page, 'Arbitrum One').click()
    // the wallet is asked through Sigil (adding the chain it does not know)
    await expect.poll(async () => (await wallet(t.page, 'state')).chainId, { timeout: 10_000 }).toBe(42161)
    const calls = (await wallet(t.page, 'log')).map((r) => `${r.method}:${r.outcome}`)
    expect(calls).toContain('wallet_addEthereumChain:ok')
    await expect.poll(() => ui.wagmi.chainId(t.page).innerText()).toBe('42161')
    await expect.poll(() => t.page.getByTestId('network').innerText()).toMatch(/arbitrum.*eip155:42161/i)
    await ui.accountButton(t.page).click()
    await expect.poll(() => ui.networkButton(t.page).innerText(), { timeout: 10_000 }).toMatch(/arbitrum/i)
    // and back with wagmi
    await ui.closeButton(t.page).click()
    await ui.wagmi.switchTo(t.page, 'Sigil Dev').click()
    await expect.poll(() => t.page.getByTestId('network').innerText(), { timeout: 10_000 }).toMatch(/eip155:31337/)
    expect(await ui.wagmi.chainId(t.page).innerText()).toBe('31337')
  })

  it('a disconnect in the modal disconnects wagmi', async () => {
    await connectTestWallet(t.page)
    await expect.poll(() => ui.wagmi.status(t.page).innerText()).toBe('connected')
    await ui.accountButton(t.page).click()
    await ui.disconnectButton(t.page).click()
    await ui.connectButton(t.page).waitFor()
    await expect.poll(() => ui.wagmi.status(t.page).innerText()).toBe('disconnected')
    expect(await ui.wagmi.address(t.page).innerText()).toBe('—')
  })

  it("a disconnect with wagmi's useDisconnect disconnects the modal", async () => {
    await connectTestWallet(t.page)
    await expect.poll(() => ui.wagmi.status(t.page).innerText()).toBe('connected')
    await ui.wagmi.disconnect(t.page).click()
    await ui.connectButton(t.page).waitFor()
    await expect.poll(() => ui.status(t.page).innerText()).toBe('disconnected')
    expect(await ui.wagmi.status(t.page).innerText()).toBe('disconnected')
    expect((await wallet(t.page, 'state')).connected).toBe(false)
    // and a reload stays disconnected on both sides
    await t.page.reload()
    await ui.connectButton(t.page).waitFor()
    await expect.poll(() => ui.wagmi.status(t.page).innerText()).toBe('disconnected')
    expect(await ui.status(t.page).innerText()).toBe('disconnected')
  })

  it('stays connected on both sides across a reload', async () => {
    await connectTestWallet(t.page)
    await expect.poll(() => ui.wagmi.status(t.page).innerText()).toBe('connected')
    await t.page.reload()
    await expect.poll(() => ui.status(t.page).innerText(), { timeout: 10_000 }).toBe('connected')
    await expect.poll(() => ui.wagmi.status(t.page).innerText(), { timeout: 10_000 }).toBe('connected')
    expect(await ui.wagmi.address(t.page).innerText()).toBe(getAddress(await walletAccount(t.page)))
    expect((await wallet(t.page, 'log')).map((r) => r.method)).not.toContain('eth_requestAccounts')
  })
})

describe("the wallet's provider from useAppKitProvider", () => {
  it('signs typed data with viem over it: the signature recovers to the connected account', async () => {
    await connectTestWallet(t.page)
    const account = getAddress(await walletAccount(t.page))
    await ui.provider.signTypedData(t.page).click()
    await expect.poll(() => ui.provider.signature(t.page).innerText(), { timeout: 10_000 }).toMatch(/^0x[0-9a-f]{130}$/)
    const signature = (await ui.provider.signature(t.page).innerText()) as Hex
    const signer = await recoverTypedDataAddress({ ...greetingTypedData(account, 31337), signature })
    expect(signer).toBe(account)
    const signed = (await wallet(t.page, 'log')).filter((r) => r.method === 'eth_signTypedData_v4')
    expect(signed.map((r) => r.outcome)).toEqual(['ok'])
    await screenshot(t.page, join(t.env.artifactsDir, 'e2e'), 'demo-provider-signed', { fullPage: true })
  })

  it('ethers v6 BrowserProvider over it reads the same ETH and SGL balances as anvil', async () => {
    await connectTestWallet(t.page)
    const account = await walletAccount(t.page)
    await expect
      .poll(() => ui.provider.ethBalance(t.page).getAttribute('data-wei'), { timeout: 10_000 })
      .toBe(String(await nativeBalance(t.env.rpcUrl, account)))
    await expect.poll(() => ui.provider.sglBalance(t.page).getAttribute('data-wei')).toBe(String(await tokenBalance(t.env.rpcUrl, sgl(), account)))
    expect(await ui.provider.sglBalance(t.page).innerText()).toMatch(/^\d+(\.\d+)? SGL$/)
  })
})
