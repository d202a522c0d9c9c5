/**
 * The embedded wallet's Solana account: the demo with EVM and Solana networks and email login
 * (?email=on&families=eip155,solana), the frame, the server's ed25519 key for the user and the
 * dev Solana runtime (litesvm) behind the server's RPC proxy. After an email login the AUTH
 * connection holds an eip155 and a solana account; switching to Solana shows the base58 address
 * and its SOL, and `useAppKitProvider('solana')` signs a message through the frame after approval.
 */
import { createPublicKey, verify } from 'node:crypto'
import { join } from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import type { Page } from 'playwright-core'
import { DEMO_MESSAGE } from '../../apps/demo/src/contracts.js'
import { screenshot } from '../src/browser.js'
import { approveInFrame, emb, freshEmail, logIn, rejectInFrame } from '../src/embedded.js'
import { useDemo } from '../src/fixtures.js'
import { base58 } from '../src/solana-wallet.js'
import { ui } from '../src/ui.js'

const env = inject('e2e')
const t = useDemo({ wallet: false })

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
function fromBase58(text: string): Uint8Array {
  let n = 0n
  for (const c of text) n = n * 58n + BigInt(ALPHABET.indexOf(c))
  const hex = n.toString(16)
  const bytes = Buffer.from(hex.length % 2 ? `0${hex}` : hex, 'hex')
  const zeros = text.length - text.replace(/^1+/, '').length
  return new Uint8Array([...new Uint8Array(zeros), ...bytes])
}

/** Whether `signature` (base58) is `address`'s ed25519 signature of `message`: Node's own check. */
function verifiesWith(address: string, message: string, signature: string): boolean {
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(fromBase58(address)).toString('base64url') }, format: 'jwk' })
  return verify(null, Buffer.from(message), key, Buffer.from(fromBase58(signature)))
}

async function solanaRpc<T>(method: string, params: unknown[]): Promise<T> {
  const res = await fetch(env.solana.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  })
  const answer = (await res.json()) as { result: T; error?: unknown }
  if (answer.error) throw new Error(JSON.stringify(answer.error))
  return answer.result
}

const text = (page: Page, testId: string) => page.getByTestId(testId).textContent()
const waitText = (page: Page, testId: string, value: string, timeout = 20_000) =>
  page.waitForFunction(([id, v]) => document.querySelector(`[data-testid="${id}"]`)?.textContent === v, [testId, value] as const, { timeout })

describe('embedded wallet: Solana', () => {
  it("holds the user's Solana account next to the EVM one; on Solana the modal shows its base58 address and SOL, and signMessage is approved in the frame", async () => {
    await t.page.goto(`${t.demoUrl}/?email=on&families=eip155,solana&siwx=off`)
    await logIn(t.page, env.mailUrl, freshEmail('sol'))
    // One login, two accounts: the eip155 one active, the solana one connected alongside.
    await waitText(t.page, 'solana-status', 'connected')
    const sol = (await text(t.page, 'solana-address')) as string
    expect(sol).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    expect(fromBase58(sol)).toHaveLength(32)
    expect(await text(t.page, 'eip155-address')).toMatch(/^0x[0-9a-fA-F]{40}$/)

    // SOL for the account, from the runtime; the modal reads it through the server.
    await solanaRpc('requestAirdrop', [sol, 1_500_000_000])
    expect((await solanaRpc<{ value: number }>('getBalance', [sol])).value).toBe(1_500_000_000)

    // Switch to Solana in the modal: the Account view shows the Solana account.
    await ui.accountButton(t.page).click()
    await ui
      .dialog(t.page)
      .getByRole('button', { name: /switch network$/ })
      .click()
    await ui.networkOption(t.page, 'Sigil Solana Dev').click()
    await waitText(t.page, 'network', `Sigil Solana Dev (${env.solana.caipNetworkId})`)
    await waitText(t.page, 'address', sol)
    expect(await ui.accountName(t.page).getAttribute('title')).toBe(sol)
    await expect.poll(() => emb.accountType(t.page).innerText()).toBe('EOA')
    // Past the balance cache: the refresh asks the server again, which asks the runtime.
    await ui
      .dialog(t.page)
      .getByRole('tab', { name: /tokens/i })
      .click()
    await ui.refreshBalancesButton(t.page).click()
    await expect.poll(() => ui.accountBalance(t.page).innerText(), { timeout: 20_000 }).toBe('1.500 SOL')
    await waitText(t.page, 'solana-balance', '1.500 SOL')
    await screenshot(t.page, join(env.artifactsDir, 'e2e'), 'embedded-solana-account')
    await t.page.keyboard.press('Escape')
    await waitText(t.page, 'modal-state', 'closed')

    // useAppKitProvider('solana').signMessage: the frame shows the text and asks first.
    await t.page.getByRole('button', { name: 'Sign Solana message' }).click()
    await emb.approveView(t.page).waitFor({ state: 'visible' })
    await expect.poll(() => emb.approval(t.page).getByRole('heading').innerText()).toBe('Sign this Solana message')
    await expect.poll(() => emb.frame(t.page).getByTestId('frame-approval-body').innerText()).toBe(DEMO_MESSAGE)
    // The frame does not know the page's own Solana network: it says the name the page gave it,
    // not its CAIP-2 id.
    expect(await emb.approval(t.page).innerText()).toContain('Network: Sigil Solana Dev')
    expect(await emb.approval(t.page).innerText()).not.toContain(`Network: ${env.solana.caipNetworkId}`)
    await screenshot(t.page, join(env.artifactsDir, 'e2e'), 'embedded-solana-approve')
    await approveInFrame(t.page)
    await t.page.waitForFunction(() => (document.querySelector('[data-testid="sol-message-signature"]')?.textContent ?? '—') !== '—', undefined, {
      timeout: 20_000,
    })
    const signature = (await text(t.page, 'sol-message-signature')) as string
    expect(await text(t.page, 'sol-message-signer')).toBe(sol)
    expect(fromBase58(signature)).toHaveLength(64)
    // The server signed with the key whose public half is the address the modal shows.
    expect(verifiesWith(sol, DEMO_MESSAGE, signature)).toBe(true)
    expect(verifiesWith(sol, `${DEMO_MESSAGE}!`, signature)).toBe(false)
    expect(verifiesWith(base58(crypto.getRandomValues(new Uint8Array(32))), DEMO_MESSAGE, signature)).toBe(false)
    await waitText(t.page, 'modal-state', 'closed')

    // Rejected in the frame: 4001, and no signature.
    await t.page.getByRole('button', { name: 'Sign Solana message' }).click()
    await rejectInFrame(t.page)
    await expect.poll(() => text(t.page, 'sol-error')).toBe('4001: User rejected the request.')
  })
})
