import { defineConfig } from 'vite'

// Library build: the entry stays small; the modal UI is a separate chunk loaded on first open
// (or when the page is idle). react, react-dom and the @sigil packages stay external.
export default defineConfig({
  oxc: { jsx: { runtime: 'automatic', importSource: 'react', development: false } },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: true,
    minify: false,
    target: 'es2022',
    // calls.ts (the EIP-5792 hooks) and headless/ (hooks for a host's own wallet UI) are entries
    // of their own: only pages that use them load them.
    lib: {
      entry: { index: 'src/index.ts', calls: 'src/calls.ts', headless: 'src/headless/index.ts' },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rollupOptions: {
      external: [/^react($|\/)/, /^react-dom($|\/)/, /^@sigil\//],
      output: { chunkFileNames: 'chunks/[name].js' },
    },
  },
})
