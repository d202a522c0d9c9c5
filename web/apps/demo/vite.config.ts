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
      output: {
        codeSplitting: {
          groups: [{ name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
        },
      },
    },
  },
}))
