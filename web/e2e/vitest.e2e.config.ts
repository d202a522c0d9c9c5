import { defineConfig } from 'vitest/config'

// Browser end-to-end tests: one worker, one file at a time, long timeouts. Kept apart from the
// unit tests (web/vitest.config.ts only includes packages/*/src/**/*.test.ts[x]).
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['tests/**/*.e2e.ts'],
    globalSetup: ['src/global-setup.ts'],
    environment: 'node',
    fileParallelism: false,
    maxWorkers: 1,
    sequence: { concurrent: false },
    // One retry absorbs timing flakes on a loaded 2-core machine; a real failure fails twice.
    retry: 1,
    testTimeout: 60_000,
    // expect.poll waits for a value; its own default (1 s) is shorter than a busy 2-core machine
    // can take to show one (a frame's view, a balance after a block).
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 240_000,
    teardownTimeout: 30_000,
    reporters: ['verbose'],
  },
})
