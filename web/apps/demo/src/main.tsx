import { injectedConnectors } from '@sigil/adapter-evm'
import { resolveOptions, walletConnectConnectors, type SigilOptions } from '@sigil/core'
import { createAppKit, serverSiwx, type ThemeMode } from '@sigil/react'
import { WagmiAdapter } from '@sigil/wagmi'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { lazy, Suspense } from 'react'
import { createRoot } from 'react-dom/client'
import { WagmiProvider } from 'wagmi'
import { App, ConfigError } from './App.js'
import { config, families, hostOptions, networks, SIWX_STATEMENT } from './config.js'
import type { FamilyParts } from './families.js'
import './page.css'

const THEME_KEY = 'sigil-demo-theme'
const SITE_ICON =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#3b6cf6"/><path d="M20 40c0 4 5 6 12 6s12-3 12-8-5-7-12-8-11-3-11-7 4-7 11-7 11 2 11 6" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round"/></svg>',
  )
const storedTheme = localStorage.getItem(THEME_KEY)
const themeMode: ThemeMode =
  storedTheme === 'dark' || storedTheme === 'light' ? storedTheme : matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
document.documentElement.dataset.theme = themeMode

const root = createRoot(document.getElementById('root') as HTMLElement)
// `?headless=on`: the page's own buttons on @sigil/react/headless, loaded as a chunk of its own.
const HeadlessPage = lazy(() => import('./HeadlessPage.js').then((m) => ({ default: m.HeadlessPage })))
/** Creates the modal and renders the page; `extra` are the Solana and Bitcoin parts, when asked for. */
function start(extra: FamilyParts | undefined) {
  try {
    // The eip155 chain adapter with a wagmi config that follows the modal; wagmi reads the chains
    // through the Sigil server's RPC proxy.
    const wagmiAdapter = new WagmiAdapter({ networks, projectId: config.projectId, apiUrl: config.apiUrl, pollingInterval: 1000 })
    const host = hostOptions()
    const options = {
      projectId: config.projectId,
      apiUrl: config.apiUrl,
      networks,
      metadata: { name: 'Sigil demo', description: 'Sigil wallet-connection demo', url: location.origin, icons: [SITE_ICON] },
      // Email and social login to the embedded wallet, held by the Sigil server behind its frame origin.
      ...(config.frameUrl ? { frameUrl: config.frameUrl } : {}),
      themeMode,
      // `?options=<JSON>`: any other option (a bad one shows its message, as a host's would).
      ...host,
      features: { email: config.email, socials: config.socials, ...host.features },
      // Sign-in verified and kept by the Sigil server (nonce, signature check, sessions).
      ...(config.siwx === 'off'
        ? {}
        : {
            siwx: serverSiwx({
              apiUrl: config.apiUrl,
              projectId: config.projectId,
              required: config.siwx === 'required',
              statement: SIWX_STATEMENT,
              sessionScope: config.siwxScope,
            }),
          }),
    } satisfies SigilOptions
    createAppKit({
      ...options,
      // The headless page never shows the modal: its code is not fetched ahead either.
      ...(config.headless ? { prefetch: false } : {}),
      adapters: [...(families.includes('eip155') ? [wagmiAdapter] : []), ...(extra?.adapters ?? [])],
      // The page's own list (the families' wallets too) replaces the default one: WalletConnect,
      // whose session then holds every family, and the injected wallets go first, as by default.
      ...(extra ? { connectors: [walletConnectConnectors({ options: resolveOptions(options) }), injectedConnectors(), ...extra.connectors] } : {}),
    })
    const queryClient = new QueryClient()
    root.render(
      <WagmiProvider config={wagmiAdapter.wagmiConfig}>
        <QueryClientProvider client={queryClient}>
          {config.headless ? (
            <Suspense fallback={null}>
              <HeadlessPage />
            </Suspense>
          ) : (
            <App themeKey={THEME_KEY} />
          )}
        </QueryClientProvider>
      </WagmiProvider>,
    )
  } catch (error) {
    root.render(<ConfigError message={error instanceof Error ? error.message : String(error)} />)
  }
}

// Solana and Bitcoin wallets (adapters and connectors) load only when the page asks for them;
// an EVM-only page starts at once.
if (families.some((f) => f !== 'eip155')) {
  import('./families.js').then(
    (m) => start(m.familyParts(families)),
    (error: unknown) => root.render(<ConfigError message={error instanceof Error ? error.message : String(error)} />),
  )
} else {
  start(undefined)
}
