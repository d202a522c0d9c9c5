import { describe, expect, it, vi } from 'vitest'
import { walletBrowserLink } from './deeplink.js'
import { selectWallet } from './modal.js'
import { testContext } from './test-utils/index.js'
import type { Connector, Wallet } from './types.js'

const PAGE = 'https://dapp.example/swap?x=1'
const phantom: Wallet = { id: 'phantom', name: 'Phantom', image_id: '', rdns: 'app.phantom' }
const coinbase: Wallet = { id: 'cb', name: 'Coinbase Wallet', image_id: '', rdns: 'com.coinbase.wallet' }
const connector = (c: Partial<Connector>): Connector => ({
  id: 'x',
  name: 'X',
  chain: 'eip155',
  type: 'ANNOUNCED',
  ...c,
  namespaces: c.namespaces ?? [c.chain ?? 'eip155'],
})

describe('mobile wallet-browser deep links (spec section 2)', () => {
  it('Phantom without its extension opens the page in Phantom', () => {
    expect(walletBrowserLink(phantom, [], 'eip155', PAGE)).toBe(
      `https://phantom.app/ul/browse/${encodeURIComponent(PAGE)}?ref=${encodeURIComponent('https://dapp.example')}`,
    )
    expect(walletBrowserLink(phantom, [connector({ name: 'Phantom', chain: 'solana' })], 'solana', PAGE)).toBeUndefined()
  })

  it('Coinbase Wallet only on Solana, and only without its Solana provider', () => {
    expect(walletBrowserLink(coinbase, [], 'solana', PAGE)).toBe(`https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(PAGE)}`)
    expect(walletBrowserLink(coinbase, [connector({ name: 'Coinbase Wallet', rdns: 'com.coinbase.wallet' })], 'solana', PAGE)).toBe(
      `https://go.cb-w.com/dapp?cb_url=${encodeURIComponent(PAGE)}`,
    )
    expect(walletBrowserLink(coinbase, [connector({ name: 'Coinbase Wallet', chain: 'solana' })], 'solana', PAGE)).toBeUndefined()
    expect(walletBrowserLink(coinbase, [], 'eip155', PAGE)).toBeUndefined()
    expect(walletBrowserLink({ ...phantom, name: 'Other', rdns: 'x.y' }, [], 'solana', PAGE)).toBeUndefined()
  })

  it('selectWallet follows the link on mobile only', () => {
    const assign = vi.fn()
    vi.stubGlobal('location', { href: PAGE, origin: 'https://dapp.example', assign })
    const mobile = testContext({}, { isMobile: true }).ctx
    selectWallet(mobile, phantom)
    expect(assign).toHaveBeenCalledWith(expect.stringMatching(/^https:\/\/phantom\.app\/ul\/browse\//))
    expect(mobile.store.getState().router.history.map((r) => r.view)).not.toContain('ConnectingWalletConnect')
    const desktop = testContext({}, { isMobile: false }).ctx
    expect(selectWallet(desktop, phantom)).toBe('ConnectingWalletConnect')
    expect(assign).toHaveBeenCalledTimes(1)
  })
})
