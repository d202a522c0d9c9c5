/**
 * The injected test wallet on its own (no modal): it must behave like an extension wallet for
 * the UI tests to mean anything. The page is the Sigil server's /health, just for an http
 * origin with localStorage.
 */
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, inject, it } from 'vitest'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { launchBrowser, newWalletPage, wallet } from '../src/browser.js'
import { nativeBalance } from '../src/chain.js'
import { TEST_WALLET_NAME, TEST_WALLET_RDNS } from '../src/test-wallet.js'

const env = inject('e2e')
let browser: Browser
let context: BrowserContext
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
})
beforeEach(async () => {
  ;({ context, page } = await newWalletPage(browser, env.rpcUrl))
  await page.goto(`${env.apiUrl}/health`)
})
afterEach(async () => {
  await context?.close()
})

type Req = { method: string; params?: unknown[] }
/** Finds the announced provider (EIP-6963) and sends requests through it. */
const request = (req: Req) =>
  page.evaluate(async (req) => {
    const found: { info: { name: string }; provider: { request(a: unknown): Promise<unknown> } }[] = []
    const onAnnounce = (e: Event) => found.push((e as CustomEvent).detail)
    window.addEventListener('eip6963:announceProvider', onAnnounce)
    window.dispatchEvent(new Event('eip6963:requestProvider'))
    window.removeEventListener('eip6963:announceProvider', onAnnounce)
    try {
      const [first] = found
      if (!first) throw new Error('no wallet announced itself')
      return { ok: true as const, result: await first.provider.request(req) }
    } catch (e) {
      const err = e as { code?: number; message?: string }
      return { ok: false as const, code: err.code, message: err.message }
    }
  }, req)

describe('test wallet (EIP-6963 + EIP-1193 over anvil)', () => {
  it('announces itself on eip6963:requestProvider with name, rdns, uuid and a data: SVG icon', async () => {
    const infos = await page.evaluate(() => {
      const seen: { uuid: string; name: string; icon: string; rdns: string }[] = []
      window.addEventListener('eip6963:announceProvider', (e) => seen.push((e as CustomEvent).detail.info))
      window.dispatchEvent(new Event('eip6963:requestProvider'))
      return seen
    })
    expect(infos).toHaveLength(1)
    const [info] = infos
    expect(info?.name).toBe(TEST_WALLET_NAME)
    expect(info?.rdns).toBe(TEST_WALLET_RDNS)
    expect(info?.uuid).toMatch(/^[0-9a-f-]{36}$/)
    expect(info?.icon).toMatch(/^data:image\/svg\+xml,/)
  })

  it("lists no account until connected, then anvil's first account with its balance on anvil", async () => {
    expect(await request({ method: 'eth_accounts' })).toEqual({ ok: true, result: [] })
    const connected = await request({ method: 'eth_requestAccounts' })
    expect(connected.ok).toBe(true)
    const [account = ''] = (connected as { result: string[] }).result
    expect(account).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(account.toLowerCase()).toBe('0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266')
    expect(await request({ method: 'eth_accounts' })).toEqual({ ok: true, result: [account] })
    expect(await request({ method: 'eth_chainId' })).toEqual({ ok: true, result: '0x7a69' })
    const balance = await request({ method: 'eth_getBalance', params: [account, 'latest'] })
    // Account 0 started with 10000 ETH and paid the dev-chain deployment's gas.
    const onChain = await nativeBalance(env.rpcUrl, account)
    expect(BigInt((balance as { result: string }).result)).toBe(onChain)
    expect(onChain).toBeGreaterThan(9_000n * 10n ** 18n)
    expect(onChain).toBeLessThanOrEqual(10_000n * 10n ** 18n)
  })

  it('stays authorised across a reload (eth_accounts answers without a prompt)', async () => {
    await request({ method: 'eth_requestAccounts' })
    await page.reload()
    const accounts = await request({ method: 'eth_accounts' })
    expect((accounts as { result: string[] }).result).toHaveLength(1)
    expect((await wallet(page, 'log')).map((r) => r.method)).toEqual(['eth_accounts'])
  })

  it('rejects the next approval with 4001 when the test says so', async () => {
    await wallet(page, 'rejectNext')
    expect(await request({ method: 'eth_requestAccounts' })).toEqual({ ok: false, code: 4001, message: 'User rejected the request.' })
    // only the next one
    expect((await request({ method: 'eth_requestAccounts' })).ok).toBe(true)
  })

  it('answers 4902 for an unknown chain, adds it, then switches and emits chainChanged', async () => {
    await request({ method: 'eth_requestAccounts' })
    await page.evaluate(() => {
      const w = window as unknown as { __chains: unknown[] }
      w.__chains = []
      window.addEventListener('eip6963:announceProvider', (e) => (e as CustomEvent).detail.provider.on('chainChanged', (c: unknown) => w.__chains.push(c)), {
        once: true,
      })
      window.dispatchEvent(new Event('eip6963:requestProvider'))
    })
    const unknown = await request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa4b1' }] })
    expect(unknown).toMatchObject({ ok: false, code: 4902 })
    expect(
      await request({
        method: 'wallet_addEthereumChain',
        params: [
          {
            chainId: '0xa4b1',
            chainName: 'Arbitrum One',
            rpcUrls: ['https://arb1.arbitrum.io/rpc'],
            nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
          },
        ],
      }),
    ).toEqual({ ok: true, result: null })
    expect(await request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0xa4b1' }] })).toEqual({ ok: true, result: null })
    expect(await request({ method: 'eth_chainId' })).toEqual({ ok: true, result: '0xa4b1' })
    await page.waitForFunction(() => (window as unknown as { __chains: unknown[] }).__chains.length > 0)
    expect(await page.evaluate(() => (window as unknown as { __chains: unknown[] }).__chains)).toEqual(['0xa4b1'])
    expect((await wallet(page, 'state')).knownChains).toEqual([31337, 42161])
  })

  it('forgets the site on wallet_revokePermissions', async () => {
    await request({ method: 'eth_requestAccounts' })
    await request({ method: 'wallet_revokePermissions', params: [{ eth_accounts: {} }] })
    expect(await request({ method: 'eth_accounts' })).toEqual({ ok: true, result: [] })
  })

  it('holds approvals until the test approves or rejects them', async () => {
    await wallet(page, 'holdApprovals', true)
    const pending = request({ method: 'eth_requestAccounts' })
    await page.waitForFunction(() => (window as unknown as { __testWallet: { pendingCount(): number } }).__testWallet.pendingCount() === 1)
    await wallet(page, 'rejectPending')
    expect(await pending).toEqual({ ok: false, code: 4001, message: 'User rejected the request.' })
  })
})
