import { defineConfig } from 'vite'

// The demo consumes the packages' built output (their `default` export condition), exactly as a
// site installing them from npm would. Run `npm run build` in web/ first.
export default defineConfig(({ command }) => ({
  oxc: { jsx: { runtime: 'automatic', importSource: 'react', development: command === 'serve' } },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 5173, strictPort: true },
  build: {
    target: 'es2022',
    // The manifest lets `make size` tell the entry and its static imports from on-demand chunks.
    manifest: true,
    rolldownOptions: {
      // wagmi and react-query mark their hooks 'use client' (for server components); a browser
      // bundle has no use for the directive, so the note about dropping it is noise.
      onLog(level, log, handler) {
        if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log)
      },
      output: {
        codeSplitting: {
          // Chunks by owner, so `make size` tells Sigil's JS from the page's own code and from the
          // libraries the page uses itself (react; wagmi, viem and react-query; ethers, on demand).
          // Earlier groups capture first; the Sigil group takes only what loads with the page
          // ('$initial'), so its on-demand chunks (the modal, its views) stay on demand.
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'ethers', test: /[\\/]node_modules[\\/](ethers|aes-js)[\\/]/ },
            {
              name: 'wagmi',
              test: /[\\/]node_modules[\\/](wagmi|@wagmi|viem|ox|abitype|@adraffy|@tanstack|@noble|@scure|eventemitter3|use-sync-external-store|isows)[\\/]/,
              // Only what the page loads at start: what only the WalletConnect SDK imports (its own
              // copies of viem and @noble) stays in its on-demand chunks.
              tags: ['$initial'],
            },
            { name: 'sigil', test: /[\\/]packages[\\/](core|react|adapter-evm|adapter-solana|adapter-bitcoin|wagmi)[\\/]dist[\\/]/, tags: ['$initial'] },
            // The words of the login and calls errors: loaded with the modal, and also without it by
            // the headless page's login and the calls card. One chunk for both, so the page's first
            // script names one file to preload with the modal, not two.
            { name: 'words', test: /[\\/]packages[\\/]core[\\/]dist[\\/]messages[\\/](login|calls)\.js$/ },
            // families.ts (the Solana and Bitcoin parts) and HeadlessPage.tsx (?headless=on) stay
            // chunks of their own, loaded on demand.
            { name: 'demo', test: /[\\/]apps[\\/]demo[\\/]src[\\/](?!families\.ts|HeadlessPage\.tsx)/ },
          ],
        },
      },
    },
  },
}))
