/**
 * Social login end to end: the demo page (?email=on&socials=google,github,farcaster), the
 * modal's social views, the secure frame, the server's social login, a real OpenID Connect /
 * OAuth 2 provider (devidp/, npm oidc-provider) standing in for Google (OpenID Connect by its
 * issuer) and GitHub (OAuth 2 by its endpoints), whose login page is filled in in the popup; and
 * Sign In With Farcaster against the dev chain's ID registry, signed here by anvil keys. No
 * request leaves 127.0.0.1, the login window's included.
 */
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { getAddress, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { Page } from 'playwright-core'
import { offLoopback, pageRequests, screenshot } from '../src/browser.js'
import { emb } from '../src/embedded.js'
import { useDemo } from '../src/fixtures.js'
import { openModal, ui, waitConnected } from '../src/ui.js'

const t = useDemo({ wallet: false })
const SOCIALS = 'google,github,farcaster'
/** anvil's accounts 1 (custody of fid 1, "alice", on the dev chain's registry) and 3 (no fid). */
const FID_1_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'
const NO_FID_KEY: Hex = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6'

let runs = 0
/** A login name of its own per test: a person the provider has not seen before. */
const person = (name: string) => `${name}-${Date.now().toString(36)}-${++runs}`

const shots = () => join(t.env.artifactsDir, 'e2e')
const open = (page: Page = t.page) => page.goto(`${t.demoUrl}/?email=on&socials=${SOCIALS}`)
/** The connected embedded account's address, as the demo page shows it. */
const address = async (page: Page = t.page) => getAddress(await page.getByTestId('address').innerText())

const social = {
  wide: (page: Page) => ui.dialog(page).locator('.social-wide'),
  icon: (page: Page, provider: string) => ui.dialog(page).locator(`.socials [data-provider="${provider}"]`),
  view: (page: Page) => ui.dialog(page).getByTestId('connecting-social'),
  error: (page: Page) => ui.dialog(page).getByTestId('social-error'),
  accountSocial: (page: Page) => ui.dialog(page).getByTestId('account-social'),
  farcaster: (page: Page) => ui.dialog(page).getByTestId('connecting-farcaster'),
}

/**
 * Nothing the page asked for left 127.0.0.1, nor anything its login window (or the page itself,
 * sent to the provider) did: the provider's login pages are among the requests checked.
 */
function expectLoopbackOnly(page: Page): void {
  const requests = pageRequests(page)
  expect(requests.filter((u) => u.startsWith(`${t.env.idpUrl}/interaction/`)).length).toBeGreaterThan(0)
  expect(offLoopback(requests)).toEqual([])
}

/** Fills in devidp's login page (any name; the password is not checked), then its consent page. */
async function logInAtProvider(popup: Page, login: string): Promise<void> {
  await popup.locator('input[name="login"]').fill(login)
  await popup.locator('input[name="password"]').fill('any password')
  await popup.getByRole('button', { name: 'Sign-in' }).click()
  await popup.getByRole('button', { name: 'Continue' }).click()
}

/** Clicks a provider's button on the Connect view; resolves with the login window it opened. */
async function startLogin(page: Page, button: ReturnType<typeof social.wide>): Promise<Page> {
  const [popup] = await Promise.all([page.context().waitForEvent('page'), button.click()])
  await popup.waitForURL((url) => url.href.startsWith(t.env.idpUrl), { timeout: 30_000 })
  return popup
}

/** A whole login with a social provider in the popup; resolves with the connected address. */
async function socialLogin(page: Page, provider: 'google' | 'github', login: string): Promise<string> {
  await open(page)
  await openModal(page)
  const button = provider === 'google' ? social.wide(page) : social.icon(page, provider)
  const popup = await startLogin(page, button)
  await expect.poll(() => social.view(page).getAttribute('data-phase')).toBe('waiting')
  await logInAtProvider(popup, login)
  await waitConnected(page, 30_000)
  // The modal closed the login window once the frame had the session.
  await expect.poll(() => popup.isClosed()).toBe(true)
  expectLoopbackOnly(page)
  return address(page)
}

describe('social login', () => {
  it('"Continue with Google" through the provider\'s login page in a popup: a connected embedded wallet, its provider and username on the Account view', async () => {
    await open()
    await openModal(t.page)
    // The configured order: the first full width, the rest as icons.
    await expect.poll(() => social.wide(t.page).getAttribute('data-provider')).toBe('google')
    expect((await social.wide(t.page).innerText()).trim()).toBe('Continue with Google')
    expect(await social.icon(t.page, 'github').getAttribute('aria-label')).toBe('Continue with GitHub')
    expect(await social.icon(t.page, 'farcaster').getAttribute('aria-label')).toBe('Continue with Farcaster')
    await screenshot(t.page, shots(), 'social-connect')

    const login = person('alice')
    const popup = await startLogin(t.page, social.wide(t.page))
    await expect.poll(() => social.view(t.page).innerText()).toContain('Continue in the Google window')
    await screenshot(t.page, shots(), 'social-waiting')
    await logInAtProvider(popup, login)
    await waitConnected(t.page, 30_000)
    const addr = await address()
    expect(addr).toMatch(/^0x[0-9a-fA-F]{40}$/)
    await expect.poll(() => popup.isClosed()).toBe(true)

    await openModal(t.page)
    // Said once: the provider and the email (the username is that email's name: not again, nor a
    // second "Signed in as" line).
    await expect.poll(() => social.accountSocial(t.page).innerText()).toBe(`Signed in with Google as ${login}@example.com`)
    expect(await emb.accountEmail(t.page).count()).toBe(0)
    expect(getAddress((await ui.dialog(t.page).getByTestId('account-address').getAttribute('title')) ?? '')).toBe(addr)
    // The login cache (spec sections 3 and 4) in the host's storage; the session token only in the frame's.
    const stored = await t.page.evaluate(() => ({ ...localStorage }))
    expect(stored['@appkit/email_login']).toBe('true')
    expect(stored['@appkit/social_provider']).toBe('google')
    expect(stored['@appkit/social_username']).toBe(login)
    const frame = t.page.frames().find((f) => f.url().startsWith(t.env.frameUrl))
    const token = await frame?.evaluate(() => localStorage.getItem('sigil-frame:token'))
    expect(token?.length).toBeGreaterThan(20)
    expect(JSON.stringify(stored)).not.toContain(token)
    await screenshot(t.page, shots(), 'social-account')
    expectLoopbackOnly(t.page)
  })

  it('logs in with a GitHub-style OAuth 2 provider; the same person again (a new browser) gets the same address', async () => {
    const login = person('bob')
    const first = await socialLogin(t.page, 'github', login)
    await openModal(t.page)
    await expect.poll(() => social.accountSocial(t.page).innerText()).toBe(`Signed in with GitHub as ${login}@example.com`)

    // Another browser profile: another device, the same provider account.
    const again = await socialLogin(await t.newPage({ wallet: false }), 'github', login)
    expect(again).toBe(first)
    // Google for the same verified email joins the same wallet.
    const viaGoogle = await socialLogin(await t.newPage({ wallet: false }), 'google', login)
    expect(viaGoogle).toBe(first)
    // Someone else: another wallet.
    const other = await socialLogin(await t.newPage({ wallet: false }), 'google', person('carol'))
    expect(other).not.toBe(first)
  })

  it('a login cancelled at the provider returns to Connect with a message; so does closing the login window', async () => {
    await open()
    await openModal(t.page)
    const popup = await startLogin(t.page, social.icon(t.page, 'github'))
    await popup.getByRole('link', { name: '[ Cancel ]' }).click()
    await expect.poll(() => emb.notification(t.page).innerText(), { timeout: 30_000 }).toBe('The login with GitHub was cancelled')
    await ui.dialog(t.page).getByTestId('connect-view').waitFor({ state: 'visible' })
    await expect.poll(() => popup.isClosed()).toBe(true)
    await screenshot(t.page, shots(), 'social-cancelled')
    expect(await t.page.getByTestId('status').innerText()).toBe('disconnected')

    // The person closes the window before logging in.
    const second = await startLogin(t.page, social.wide(t.page))
    await expect.poll(() => social.view(t.page).getAttribute('data-phase')).toBe('waiting')
    await second.close()
    await expect.poll(() => emb.notification(t.page).innerText(), { timeout: 30_000 }).toBe('The login with Google was cancelled')
    await ui.dialog(t.page).getByTestId('connect-view').waitFor({ state: 'visible' })
    expectLoopbackOnly(t.page)
  })

  it('where the browser blocks the popup: a message and a retry, or the login in this tab, coming back connected', async () => {
    // This browser refuses every new window, as a popup blocker does.
    await t.context.addInitScript(() => {
      window.open = () => null
    })
    await open()
    await openModal(t.page)
    await social.wide(t.page).click()
    await expect.poll(() => social.error(t.page).innerText()).toBe('Your browser blocked the login window')
    expect(await social.view(t.page).getAttribute('data-phase')).toBe('blocked')
    await screenshot(t.page, shots(), 'social-popup-blocked')
    // Retrying is refused again: the same message.
    await ui.dialog(t.page).getByRole('button', { name: 'Try again' }).click()
    await expect.poll(() => social.view(t.page).getAttribute('data-phase')).toBe('blocked')

    // The whole page goes to the provider and comes back to the demo, which finishes the login.
    const login = person('dave')
    await ui.dialog(t.page).getByRole('button', { name: 'Continue here' }).click()
    await t.page.waitForURL((url) => url.href.startsWith(t.env.idpUrl), { timeout: 30_000 })
    await logInAtProvider(t.page, login)
    await t.page.waitForURL((url) => url.href.startsWith(t.demoUrl), { timeout: 30_000 })
    await waitConnected(t.page, 30_000)
    // The used login state is gone from the address bar; the page's own query stays.
    const back = new URL(t.page.url())
    expect(back.searchParams.has('sigil_social')).toBe(false)
    expect(back.searchParams.get('socials')).toBe(SOCIALS)
    await openModal(t.page)
    await expect.poll(() => social.accountSocial(t.page).innerText()).toBe(`Signed in with Google as ${login}@example.com`)
    expectLoopbackOnly(t.page)
  })
})

/** The Farcaster app's part: signs the channel's SIWE-shaped message with `key` for `fid`. */
async function farcasterApp(channelUrl: string, key: Hex, fid: number): Promise<{ status: number; body: { userName?: string; error?: { message: string } } }> {
  const params = new URL(channelUrl).searchParams
  const signer = privateKeyToAccount(key)
  const issuedAt = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
  const message = [
    `${params.get('domain')} wants you to sign in with your Ethereum account:`,
    signer.address,
    '',
    'Farcaster Auth',
    '',
    `URI: ${params.get('siweUri')}`,
    'Version: 1',
    'Chain ID: 10',
    `Nonce: ${params.get('nonce')}`,
    `Issued At: ${issuedAt}`,
    'Resources:',
    `- farcaster://fid/${fid}`,
  ].join('\n')
  const signature = await signer.signMessage({ message })
  const res = await fetch(params.get('relay') ?? '', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${params.get('channelToken')}` },
    body: JSON.stringify({ message, signature, fid, username: 'alice', displayName: 'Alice' }),
  })
  return { status: res.status, body: (await res.json()) as { userName?: string; error?: { message: string } } }
}

describe('Sign In With Farcaster', () => {
  it('shows a QR code and a link; a key not registered for the fid is refused and the modal says why while the channel stays open, the custody key connects with its userName', async () => {
    await open()
    await openModal(t.page)
    await social.icon(t.page, 'farcaster').click()
    await expect.poll(() => social.farcaster(t.page).getAttribute('data-url')).toMatch(/^https:\/\/farcaster\.xyz\/~\/siwf\?channelToken=/)
    const url = (await social.farcaster(t.page).getAttribute('data-url')) as string
    expect(await ui.dialog(t.page).getByTestId('farcaster-link').getAttribute('href')).toBe(url)
    expect(await ui.dialog(t.page).getByTestId('farcaster-qr').locator('path').count()).toBe(1)
    expect(await ui.dialog(t.page).getByRole('img', { name: 'QR code for signing in with Farcaster' }).isVisible()).toBe(true)
    await screenshot(t.page, shots(), 'social-farcaster')

    // A key that is not fid 1's custody key: refused with the reason, told to the app and shown
    // in the modal. The channel stays open (anyone who sees the QR code could post to it), so
    // the QR code stays and the app's own message still signs in on it.
    const refused = await farcasterApp(url, NO_FID_KEY, 1)
    expect(refused.status).toBe(400)
    expect(refused.body.error?.message).toBe('The message is not signed by the custody address of fid 1')
    await expect
      .poll(() => ui.dialog(t.page).getByTestId('farcaster-refused').innerText(), { timeout: 30_000 })
      .toBe('The message is not signed by the custody address of fid 1')
    expect(await t.page.getByTestId('status').innerText()).toBe('disconnected')
    expect(await social.farcaster(t.page).getAttribute('data-url')).toBe(url)
    expect(await ui.dialog(t.page).getByRole('img', { name: 'QR code for signing in with Farcaster' }).isVisible()).toBe(true)
    await screenshot(t.page, shots(), 'social-farcaster-refused')

    // fid 1's custody key (anvil's account 1, registered on the dev chain's registry), on the same channel.
    const signed = await farcasterApp(url, FID_1_KEY, 1)
    expect(signed).toEqual({ status: 200, body: { userName: 'alice' } })
    await waitConnected(t.page, 30_000)
    expect(await address()).toMatch(/^0x[0-9a-fA-F]{40}$/)
    await openModal(t.page)
    await expect.poll(() => social.accountSocial(t.page).innerText()).toBe('Signed in with Farcaster as alice')
    const stored = await t.page.evaluate(() => ({
      provider: localStorage.getItem('@appkit/social_provider'),
      name: localStorage.getItem('@appkit/social_username'),
    }))
    expect(stored).toEqual({ provider: 'farcaster', name: 'alice' })
    await screenshot(t.page, shots(), 'social-farcaster-account')
    // The Farcaster app's link is only shown (a QR code, a link), never requested.
    expect(offLoopback(pageRequests(t.page))).toEqual([])
  })
})
