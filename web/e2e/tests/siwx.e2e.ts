/**
 * Sign in with the wallet, end to end: the demo with required sign-in (?siwx=required), the real
 * server's /auth/v1 API, the injected test wallet signing on anvil.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { screenshot, wallet } from '../src/browser.js'
import { useDemo } from '../src/fixtures.js'
import { openModal, ui } from '../src/ui.js'

const t = useDemo()
const shots = () => join(t.env.artifactsDir, 'e2e')
const ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

const signButton = () => ui.dialog(t.page).getByRole('button', { name: /^sign$/i })
const cancelButton = () => ui.dialog(t.page).getByRole('button', { name: /^cancel$/i })
const api = (path: string) => `${t.env.apiUrl}${path}${path.includes('?') ? '&' : '?'}projectId=${t.env.projectId}&st=e2e&sv=0`
const post = (path: string, body: unknown) => fetch(api(path), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

/** personal_sign by anvil's account 0 (the test wallet's account). */
async function personalSign(message: string): Promise<string> {
  const hex = `0x${Buffer.from(message, 'utf8').toString('hex')}`
  const res = await fetch(t.env.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'personal_sign', params: [hex, ACCOUNT] }),
  })
  return ((await res.json()) as { result: string }).result
}

async function connectWithRequiredSignIn() {
  await t.page.goto(`${t.env.demoUrl}?siwx=required`)
  await openModal(t.page)
  await ui.walletButton(t.page).click()
  await signButton().waitFor({ timeout: 15_000 })
}

async function storedToken(): Promise<string> {
  const raw = await t.page.evaluate(() => localStorage.getItem('@appkit/siwx-auth-token'))
  expect(raw).toBeTruthy()
  if (!raw) return ''
  try {
    return JSON.parse(raw) as string
  } catch {
    return raw
  }
}

describe('sign in with the wallet', () => {
  it('required sign-in completes, closes the modal, and the server returns the session', async () => {
    await connectWithRequiredSignIn()
    // Closing is blocked while sign-in is required and there is no session.
    await t.page.keyboard.press('Escape')
    expect(await ui.dialog(t.page).isVisible()).toBe(true)
    expect(await ui.closeButton(t.page).count()).toBe(0)

    await signButton().click()
    await t.page.waitForFunction(() => document.querySelector('[data-testid="siwx-status"]')?.textContent === 'signed-in', undefined, { timeout: 15_000 })
    await ui.dialog(t.page).waitFor({ state: 'hidden' })
    expect(await t.page.getByTestId('siwx-address').textContent()).toBe(ACCOUNT)
    expect(await t.page.getByTestId('siwx-chain').textContent()).toBe('eip155:31337')

    const res = await fetch(api('/auth/v1/session'), { headers: { authorization: `Bearer ${await storedToken()}` } })
    expect(res.status).toBe(200)
    const session = (await res.json()) as { id: string; message: string; signature: string; data: { accountAddress: string } }
    expect(session.data.accountAddress).toBe(ACCOUNT)
    expect(await t.page.getByTestId('siwx-session-id').textContent()).toBe(session.id)

    // The same signed message again: the nonce was used.
    const replay = await post('/auth/v1/authenticate', { message: session.message, signature: session.signature })
    expect(replay.status).toBe(409)
    expect(((await replay.json()) as { error: { message: string } }).error.message).toBe('Nonce has already been used')

    // Sign out from the page: the server forgets the session.
    const token = await storedToken()
    await t.page.getByTestId('siwx-sign-out').click()
    await expect.poll(async () => (await fetch(api('/auth/v1/session'), { headers: { authorization: `Bearer ${token}` } })).status).toBe(401)
  })

  it('Dev -> Arbitrum -> Dev asks twice: the Dev session is found again on the way back', async () => {
    const signatures = async () => (await wallet(t.page, 'log')).filter((r) => r.method === 'personal_sign' && r.outcome === 'ok').length
    const siwxChain = () => t.page.getByTestId('siwx-chain').innerText()
    const switchTo = async (name: string, chainId: number) => {
      await t.page.getByRole('button', { name: 'Switch network', exact: true }).click()
      await ui.networkOption(t.page, name).click()
      await expect.poll(async () => (await wallet(t.page, 'state')).chainId, { timeout: 10_000 }).toBe(chainId)
    }
    await connectWithRequiredSignIn()
    await signButton().click()
    await expect.poll(siwxChain, { timeout: 15_000 }).toBe('eip155:31337')
    const devSession = await t.page.getByTestId('siwx-session-id').innerText()

    await switchTo('Arbitrum', 42161)
    await signButton().waitFor({ timeout: 15_000 })
    await screenshot(t.page, shots(), 'siwx-sign-on-arbitrum')
    await signButton().click()
    await expect.poll(siwxChain, { timeout: 15_000 }).toBe('eip155:42161')
    await ui.dialog(t.page).waitFor({ state: 'hidden' })

    await switchTo('Sigil Dev', 31337)
    await expect.poll(siwxChain, { timeout: 15_000 }).toBe('eip155:31337')
    expect(await t.page.getByTestId('siwx-session-id').innerText()).toBe(devSession)
    expect(await t.page.getByTestId('siwx-status').innerText()).toBe('signed-in')
    await ui.dialog(t.page).waitFor({ state: 'hidden' })
    expect(await signatures()).toBe(2)
    // The page's token is the Dev session's again.
    const res = await fetch(api('/auth/v1/session'), { headers: { authorization: `Bearer ${await storedToken()}` } })
    expect(((await res.json()) as { id: string }).id).toBe(devSession)
    await screenshot(t.page, shots(), 'siwx-back-on-dev')
  })

  it("with sessionScope 'family' one signature holds on Dev, Arbitrum and Dev again", async () => {
    const signatures = async () => (await wallet(t.page, 'log')).filter((r) => r.method === 'personal_sign' && r.outcome === 'ok').length
    await t.page.goto(`${t.env.demoUrl}?siwx=required&siwxScope=family`)
    await openModal(t.page)
    await ui.walletButton(t.page).click()
    await signButton().click()
    await expect.poll(() => t.page.getByTestId('siwx-status').innerText(), { timeout: 15_000 }).toBe('signed-in')
    const session = await t.page.getByTestId('siwx-session-id').innerText()
    for (const [name, chainId] of [
      ['Arbitrum', 42161],
      ['Sigil Dev', 31337],
    ] as const) {
      await t.page.getByRole('button', { name: 'Switch network', exact: true }).click()
      await ui.networkOption(t.page, name).click()
      await expect.poll(async () => (await wallet(t.page, 'state')).chainId, { timeout: 10_000 }).toBe(chainId)
      await expect.poll(() => t.page.getByTestId('network').innerText()).toContain(`eip155:${chainId}`)
      await expect.poll(() => t.page.getByTestId('siwx-status').innerText(), { timeout: 15_000 }).toBe('signed-in')
      await ui.dialog(t.page).waitFor({ state: 'hidden' })
      expect(await t.page.getByTestId('siwx-session-id').innerText()).toBe(session)
      if (chainId === 42161) await screenshot(t.page, shots(), 'siwx-family-on-arbitrum')
    }
    expect(await signatures()).toBe(1)
  })

  it('cancel with required sign-in disconnects and resets to Connect', async () => {
    await connectWithRequiredSignIn()
    await cancelButton().click()
    await t.page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.textContent === 'disconnected', undefined, { timeout: 15_000 })
    await openModal(t.page)
    await ui.walletButton(t.page).waitFor()
    expect(await signButton().count()).toBe(0)
  })

  it('rejects a tampered and an expired message, each with its message', async () => {
    const nonce = async () => ((await (await post('/auth/v1/nonce', {})).json()) as { nonce: string }).nonce
    const origin = new URL(t.demoUrl)
    const now = new Date()
    now.setMilliseconds(0)
    const iso = (d: Date) => d.toISOString().replace('.000Z', 'Z')
    const message = (n: string, extra = '') =>
      `${origin.host} wants you to sign in with your Ethereum account:\n${ACCOUNT}\n\nSign in to the Sigil demo.\n\nURI: ${origin.origin}\nVersion: 1\nChain ID: 31337\nNonce: ${n}\nIssued At: ${iso(new Date(now.getTime() - 5000))}${extra}`

    const signed = message(await nonce())
    const tampered = await post('/auth/v1/authenticate', {
      message: signed.replace('Sign in to the Sigil demo.', 'Transfer everything.'),
      signature: await personalSign(signed),
    })
    expect(tampered.status).toBe(401)
    expect(((await tampered.json()) as { error: { message: string } }).error.message).toBe('Invalid signature')

    const expired = message(await nonce(), `\nExpiration Time: ${iso(new Date(now.getTime() - 1000))}`)
    const res = await post('/auth/v1/authenticate', { message: expired, signature: await personalSign(expired) })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('Message has expired')

    // And the untouched message is accepted: the refusals above are about what changed.
    const good = await post('/auth/v1/authenticate', { message: signed, signature: await personalSign(signed) })
    expect(good.status).toBe(200)
  })
})
