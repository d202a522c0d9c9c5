import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const core = fileURLToPath(new URL('../core/src', import.meta.url))

// The frame page: built to dist/ (index.html and assets/), which the Sigil server serves on its
// frame origin (--frame-dir) under a CSP of script-src 'self': no inline script. It takes the
// core's message schemas, catalogue, locales, base58 and networks from source, so it builds without the core's dist.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'react', development: false } },
  resolve: {
    alias: [
      { find: /^@sigil\/core\/messages$/, replacement: `${core}/messages/index.ts` },
      { find: /^@sigil\/core\/frame-messages$/, replacement: `${core}/frame-messages.ts` },
      { find: /^@sigil\/core\/base58$/, replacement: `${core}/base58.ts` },
      { find: /^@sigil\/core\/networks$/, replacement: `${core}/networks.ts` },
      { find: /^@sigil\/core\/i18n$/, replacement: `${core}/i18n.ts` },
    ],
  },
  base: '/',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', modulePreload: { polyfill: false } },
})
