/*
 * Server rendering, the browser's side: the page's HTML made by a server's instance is hydrated
 * by the browser's own instance, which is restoring a stored connection, with no mismatch
 * reported (React's development build reports text and attribute mismatches alike), and the
 * restored account shows after.
 */
import { createSigilStorage, shortenAddress } from '@sigil/core'
import { act } from 'react'
import { hydrateRoot, type Root } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AppKit } from './appkit.js'
import { ConnectButton } from './ConnectButton.js'
import { useAppKitAccount } from './hooks.js'
import { SigilProvider } from './provider.js'
import { ADDRESS, MemoryStorage, stubDirectory, testAppKit, waitFor } from './test-utils.js'

function Page() {
  const account = useAppKitAccount()
  return (
    <main>
      <ConnectButton />
      <output>{account.status}</output>
    </main>
  )
}

const page = (appKit: AppKit) => (
  <SigilProvider appKit={appKit}>
    <Page />
  </SigilProvider>
)

let root: Root | undefined
const instances: AppKit[] = []
afterEach(() => {
  act(() => root?.unmount())
  root = undefined
  for (const appKit of instances.splice(0)) act(() => appKit.destroy())
  document.body.innerHTML = ''
})

describe('server-rendered page hydrated in the browser', () => {
  it('hydrates with no mismatch while the stored connection is restored, then shows the account', async () => {
    stubDirectory()
    // The server: an instance of the request's own, nothing stored (no browser storage there).
    const server = testAppKit({ storage: new MemoryStorage() }).appKit
    instances.push(server)
    const html = renderToString(page(server))
    expect(html).toContain('Connect Wallet')
    expect(html).toContain('<output>disconnected</output>')

    // The browser: its storage holds the connection of an earlier visit.
    const stored = new MemoryStorage()
    const storage = createSigilStorage(stored)
    storage.setConnectedConnectorId('eip155', 'com.test')
    storage.setConnectionStatus('eip155', 'connected')
    storage.addConnectedNamespace('eip155')
    const container = document.createElement('div')
    container.innerHTML = html
    document.body.appendChild(container)
    const serverButton = container.querySelector('button')

    const errors = vi.spyOn(console, 'error')
    const recoverable: unknown[] = []
    act(() => {
      const browser = testAppKit({ storage: stored }).appKit
      instances.push(browser)
      // What a render of the current state would show differs from the server's HTML.
      expect(browser.getAccount().status).toBe('connecting')
      root = hydrateRoot(container, page(browser), { onRecoverableError: (error) => void recoverable.push(error) })
    })
    expect(recoverable).toEqual([])
    expect(errors).not.toHaveBeenCalled()
    // The server's button was kept (a mismatch makes React render the tree again on the client).
    expect(container.querySelector('button')).toBe(serverButton)

    await waitFor(() => expect(container.querySelector('output')?.textContent).toBe('connected'))
    expect(container.querySelector('button')?.textContent).toContain(shortenAddress(ADDRESS))
    expect(container.querySelector('button')).toBe(serverButton)
    expect(errors).not.toHaveBeenCalled()
  })
})
