/**
 * Account names from the modal, end to end (issue 25): an embedded wallet (email login) chooses
 * `alice-<random>` in RegisterAccountName, signs in the frame, and the Account view shows the
 * name; the server's profile API answers it for the dev chain's coin type and the address's
 * reverse lookup, and viem resolves it both ways with CCIP-read through the dev chain's resolvers
 * and the server's gateway. A name taken, a bad name, a stale timestamp and a wrong signature give the
 * spec's errors. Views in both themes, with axe.
 */
import { join } from 'node:path'
import { createPublicClient, getAddress, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { normalize } from 'viem/ens'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { screenshot, seriousA11yViolations } from '../src/browser.js'
import { approveInFrame, emb, freshEmail, logIn } from '../src/embedded.js'
import { useDemo } from '../src/fixtures.js'
import { fillSend, send } from '../src/send.js'
import { connectTestWallet, ui } from '../src/ui.js'

const t = useDemo()
const shots = () => join(t.env.artifactsDir, 'e2e')
/** ENSIP-11: the dev chain's coin type. */
const COIN_TYPE = (0x80000000 | 31337) >>> 0
const api = (path: string) => `${t.env.apiUrl}${path}${path.includes('?') ? '&' : '?'}projectId=${t.env.projectId}`
const label = (name: string) => `${name}-${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`

const names = {
  choose: (page: Page) => ui.dialog(page).getByTestId('account-choose-name'),
  form: (page: Page) => ui.dialog(page).getByTestId('register-name'),
  input: (page: Page) => ui.dialog(page).getByTestId('register-name-input'),
  hint: (page: Page) => ui.dialog(page).getByTestId('register-name-hint'),
  availability: (page: Page) => ui.dialog(page).getByTestId('register-name-availability'),
  submit: (page: Page) => ui.dialog(page).getByTestId('register-name-submit'),
  success: (page: Page) => ui.dialog(page).getByTestId('register-name-success'),
}

/** Registers through the API as `key`'s address with `message` (what the modal sends), signed by `signer` (default: the key). */
async function register(key: `0x${string}`, message: object, signer: `0x${string}` = key) {
  const account = privateKeyToAccount(key)
  const text = JSON.stringify(message)
  const signature = await privateKeyToAccount(signer).signMessage({ message: text })
  const res = await fetch(api('/v1/profile/account'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ coin_type: COIN_TYPE, address: account.address, message: text, signature }),
  })
  return { status: res.status, body: (await res.json()) as { error?: { message: string }; reasons?: { description: string }[]; name?: string } }
}

describe('account names (issue 25)', { timeout: 240_000 }, () => {
  it('an embedded wallet chooses a name in the modal; the server resolves it both ways for the dev chain', async () => {
    await t.page.goto(`${t.demoUrl}/?email=on&siwx=off`)
    await logIn(t.page, t.env.mailUrl, freshEmail('names'))
    const address = getAddress(await t.page.getByTestId('address').innerText())
    await ui.accountButton(t.page).click()
    await names.choose(t.page).click()
    await names.form(t.page).waitFor()
    await names.input(t.page).fill('ali')
    expect(await names.hint(t.page).innerText()).toBe('A name has at least 4 characters: letters, digits and hyphens')
    const chosen = label('alice')
    await names.input(t.page).fill(chosen)
    await expect.poll(() => names.availability(t.page).innerText(), { timeout: 15_000 }).toBe(`${chosen}.sigil.id is available`)
    expect(await seriousA11yViolations(t.page)).toEqual([])
    await screenshot(t.page, shots(), 'names-register-light')
    await names.submit(t.page).click()
    // The embedded wallet asks in its frame: the message names the name.
    await emb.approval(t.page).waitFor({ state: 'visible', timeout: 15_000 })
    await expect.poll(() => emb.approval(t.page).innerText()).toContain(`${chosen}.sigil.id`)
    await expect.poll(() => emb.approveButton(t.page).isEnabled(), { timeout: 10_000 }).toBe(true)
    await approveInFrame(t.page)
    await names.success(t.page).waitFor({ timeout: 30_000 })
    expect(await names.success(t.page).innerText()).toContain(`${chosen}.sigil.id is yours`)
    await screenshot(t.page, shots(), 'names-success-light')
    await names.success(t.page).getByRole('button', { name: 'Done' }).click()
    await expect.poll(() => ui.dialog(t.page).getByTestId('account-address').innerText()).toBe(`${chosen}.sigil.id`)
    expect(await names.choose(t.page).count()).toBe(0)

    const record = (await (await fetch(api(`/v1/profile/account/${chosen}.sigil.id?apiVersion=2`))).json()) as {
      addresses: Record<string, { address: string }>
    }
    expect(getAddress(record.addresses[String(COIN_TYPE)]?.address ?? '')).toBe(address)
    // Per chain: no address for Ethereum's coin type (ENSIP-19: no fallback to another chain's).
    expect(record.addresses['60']).toBeUndefined()
    const reverse = (await (await fetch(api(`/v1/profile/reverse/${address}?apiVersion=2`))).json()) as { name: string }[]
    expect(reverse.map((r) => r.name)).toEqual([`${chosen}.sigil.id`])

    // Any ENS client resolves it: viem with CCIP-read, through the dev chain's Universal Resolver,
    // the zone's offchain resolver and this server's gateway; for the dev chain's coin type only.
    const universalResolverAddress = (t.env.devchain as { names?: { universalResolver?: `0x${string}` } }).names?.universalResolver
    if (!universalResolverAddress) throw new Error('the dev deployment has no names Universal Resolver')
    const client = createPublicClient({ transport: http(t.env.rpcUrl, { retryCount: 0 }) })
    const name = normalize(`${chosen}.sigil.id`)
    expect(getAddress((await client.getEnsAddress({ name, coinType: BigInt(COIN_TYPE), universalResolverAddress })) ?? '')).toBe(address)
    expect(await client.getEnsAddress({ name, coinType: 60n, universalResolverAddress })).toBeNull()
    expect(await client.getEnsName({ address, coinType: BigInt(COIN_TYPE), universalResolverAddress })).toBe(name)
  })

  it('a taken name, a stale timestamp and a wrong signature get the spec’s errors (dark theme)', async () => {
    const owner = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d' // anvil account 1
    const other = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a' // anvil account 2
    const taken = label('taken')
    const now = Math.floor(Date.now() / 1000)
    const first = await register(owner, { name: `${taken}.sigil.id`, attributes: {}, timestamp: now })
    expect(first.status).toBe(200)
    // Another account asks for it.
    const again = await register(other, { name: `${taken}.sigil.id`, attributes: {}, timestamp: now })
    expect(again.status).toBe(409)
    expect(again.body.error?.message).toBe(`Error registering name ${taken}.sigil.id`)
    expect(again.body.reasons?.[0]?.description).toMatch(/taken/i)
    const stale = await register(other, { name: `${label('stale')}.sigil.id`, attributes: {}, timestamp: now - 3600 })
    expect(stale.status).toBe(400)
    expect(stale.body.reasons?.[0]?.description).toMatch(/time/i)
    const forged = await register(other, { name: `${label('forged')}.sigil.id`, attributes: {}, timestamp: now }, owner)
    expect(forged.status).toBe(401)
    expect(forged.body.error?.message).toMatch(/^Error registering name /)

    // In the modal: the taken name is said taken, and a free one like it offered.
    const page = await t.newPage({ wallet: { accountIndex: 3 }, theme: 'dark' })
    await page.goto(`${t.demoUrl}?siwx=off`)
    await connectTestWallet(page)
    await ui.accountButton(page).click()
    await names.choose(page).click()
    await names.input(page).fill(taken)
    await expect.poll(() => names.availability(page).innerText(), { timeout: 15_000 }).toBe(`${taken}.sigil.id is taken`)
    expect(await names.submit(page).isDisabled()).toBe(true)
    await ui.dialog(page).getByTestId('register-name-suggestions').waitFor()
    expect(await seriousA11yViolations(page)).toEqual([])
    await screenshot(page, shots(), 'names-taken-dark')

    // The send form takes the name as the receiver: its owner's address for this chain.
    await ui.dialog(page).getByRole('button', { name: /back/i }).click()
    await ui.dialog(page).getByTestId('account-send').click()
    await fillSend(page, { amount: '0.001', to: `${taken}.sigil.id` })
    await expect.poll(() => send.resolved(page).innerText(), { timeout: 15_000 }).toBe(`Sends to ${privateKeyToAccount(owner).address}`)
  })
})
