import { defineConfig } from 'vitest/config'

// make bench-ui: the same real server, anvil and demo page as the browser tests.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['bench/**/*.bench-ui.ts'],
    globalSetup: ['src/global-setup.ts'],
    environment: 'node',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 240_000,
    reporters: ['default'],
  },
})
