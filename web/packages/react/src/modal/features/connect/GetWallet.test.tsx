import type { Wallet } from '@sigil/core'
import { act } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AppKit } from '../../../appkit.js'
import { cleanup, shadow, testAppKit, waitFor } from '../../../test-utils.js'

let current: AppKit | undefined
afterEach(() => {
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
  cleanup(current)
  current = undefined
})

const DIRECTORY: Wallet[] = [
  {
    id: 'mm',
    name: 'MetaMask',
    image_id: 'mm',
    app_store: 'https://apps.apple.com/us/app/metamask/id1438144202',
    chrome_store: 'https://chrome.google.com/webstore/detail/metamask/nkbihfbeogaeaoehlefnkodbefgpgknn',
    homepage: 'https://metamask.io/',
  },
  { id: 'rainbow', name: 'Rainbow', image_id: 'rb', mobile_link: 'rainbow://', homepage: 'https://rainbow.me/' },
  // Nowhere to get it: not suggested.
  { id: 'nolink', name: 'No Link Wallet', image_id: 'nl' },
]

function stubWallets() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input))
      if (url.pathname !== '/getWallets') return new Response('{}', { status: 200 })
      const include = url.searchParams.get('include')?.split(',')
      const data = include ? DIRECTORY.filter((w) => include.includes(w.id)) : DIRECTORY
      return new Response(JSON.stringify({ count: data.length, data }), { status: 200, headers: { 'content-type': 'application/json' } })
    }),
  )
}

const byText = (text: string) => [...shadow().querySelectorAll<HTMLElement>('button, a')].find((b) => b.textContent?.trim() === text)

describe('newcomer help', () => {
  it("the Connect view's 'New to wallets? Get a wallet' lists the directory's wallets, each linked to where it is installed on this device", async () => {
    stubWallets()
    const { appKit } = testAppKit()
    current = appKit
    await act(() => appKit.open())
    const newcomer = await waitFor(() => {
      const p = shadow().querySelector('[data-testid=connect-view] .newcomer')
      if (!p) throw new Error('no newcomer line')
      return p
    })
    expect(newcomer.textContent).toBe('New to wallets?Get a wallet')
    await act(async () => byText('Get a wallet')?.click())
    const links = await waitFor(() => {
      const list = [...shadow().querySelectorAll<HTMLAnchorElement>('[data-testid=get-wallet-view] a.row')]
      if (list.length < 2) throw new Error('no wallets yet')
      return list
    })
    expect(links.map((a) => [a.querySelector('.name')?.textContent, a.getAttribute('href'), a.getAttribute('target')])).toEqual([
      ['MetaMask', DIRECTORY[0]?.chrome_store, '_blank'],
      ['Rainbow', 'https://rainbow.me/', '_blank'],
    ])
    expect(shadow().querySelector('h2')?.textContent).toBe('Get a Wallet')
  })
})
