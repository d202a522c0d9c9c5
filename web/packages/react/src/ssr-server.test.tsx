// @vitest-environment node
/*
 * Server rendering, the server's side (Node, no DOM): the package imports and renders without a
 * window, and each request's instance is its own: none becomes the module's, so concurrent
 * renders neither share one nor replace each other's.
 */
import { ethereum, sigilDev } from '@sigil/core/networks'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { createAppKit, getAppKit, peekAppKit, type AppKit } from './appkit.js'
import { ConnectButton } from './ConnectButton.js'
import { useAppKitNetwork } from './hooks.js'
import { SigilProvider } from './provider.js'

function Page() {
  const { caipNetwork } = useAppKitNetwork()
  return (
    <main>
      <ConnectButton />
      <output>{caipNetwork.name}</output>
    </main>
  )
}

/** One request: its own instance (here with its own default network), rendered to HTML. */
function request(defaultNetwork = sigilDev()): { appKit: AppKit; html: () => string } {
  const appKit = createAppKit({ projectId: 'p1', apiUrl: 'https://api.test', networks: [sigilDev(), ethereum], defaultNetwork, features: { analytics: false } })
  return {
    appKit,
    html: () =>
      renderToString(
        <SigilProvider appKit={appKit}>
          <Page />
        </SigilProvider>,
      ),
  }
}

describe('server rendering (no window)', () => {
  it('renders each request with its own instance, none kept by the module', () => {
    expect(typeof window).toBe('undefined')
    const first = request()
    const second = request(ethereum)
    // Both requests' instances made before either renders, as concurrent requests would.
    expect(peekAppKit()).toBeUndefined()
    expect(() => getAppKit()).toThrow(/createAppKit/)
    const firstHtml = first.html()
    const secondHtml = second.html()
    expect(firstHtml).toContain('<output>Sigil Dev</output>')
    expect(secondHtml).toContain('<output>Ethereum</output>')
    for (const html of [firstHtml, secondHtml])
      expect(html).toMatch(/<button type="button" class="sigil-cb"[^>]*aria-haspopup="dialog">Connect Wallet<\/button>/)
    // Neither replaced the other: the first still answers from its own store.
    first.appKit.client.store.setState({ themeMode: 'dark' })
    expect(first.appKit.client.store.getState().themeMode).toBe('dark')
    expect(first.appKit.getCaipNetwork().name).toBe('Sigil Dev')
    expect(second.appKit.getCaipNetwork().name).toBe('Ethereum')
  })

  it('has hooks without a provider fail with the message, rather than read another request’s instance', () => {
    request()
    expect(() => renderToString(<Page />)).toThrow(/createAppKit/)
  })
})
