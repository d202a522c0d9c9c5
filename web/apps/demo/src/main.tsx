import { evmAdapter } from '@sigil/adapter-evm'
import { createAppKit, type ThemeMode } from '@sigil/react'
import { createRoot } from 'react-dom/client'
import { App, ConfigError } from './App.js'
import { config, networks } from './config.js'
import './page.css'

const THEME_KEY = 'sigil-demo-theme'
const storedTheme = localStorage.getItem(THEME_KEY)
const themeMode: ThemeMode = storedTheme === 'dark' || storedTheme === 'light' ? storedTheme : matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
document.documentElement.dataset.theme = themeMode

const root = createRoot(document.getElementById('root') as HTMLElement)
try {
  createAppKit({
    projectId: config.projectId,
    apiUrl: config.apiUrl,
    networks,
    adapters: [evmAdapter()],
    metadata: { name: 'Sigil demo', description: 'Sigil wallet-connection demo', url: location.origin, icons: [] },
    features: { email: false, socials: false },
    themeMode,
  })
  root.render(<App themeKey={THEME_KEY} />)
} catch (error) {
  root.render(<ConfigError message={error instanceof Error ? error.message : String(error)} />)
}
