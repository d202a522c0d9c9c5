import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src`, import.meta.url))

// Tests run against package sources, so `npm test` works without a prior build.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@sigil\/core$/, replacement: `${src('core')}/index.ts` },
      { find: /^@sigil\/core\/api$/, replacement: `${src('core')}/api/index.ts` },
      { find: /^@sigil\/core\/messages$/, replacement: `${src('core')}/messages/index.ts` },
      { find: /^@sigil\/core\/login$/, replacement: `${src('core')}/features/login/index.ts` },
      { find: /^@sigil\/core\/send$/, replacement: `${src('core')}/features/send/send.ts` },
      { find: /^@sigil\/core\/calls$/, replacement: `${src('core')}/features/calls/index.ts` },
      { find: /^@sigil\/core\/account-type$/, replacement: `${src('core')}/features/account/account-type.ts` },
      { find: /^@sigil\/core\/swap$/, replacement: `${src('core')}/features/swap/index.ts` },
      { find: /^@sigil\/core\/onramp$/, replacement: `${src('core')}/features/onramp/index.ts` },
      { find: /^@sigil\/core\/pay$/, replacement: `${src('core')}/features/pay/index.ts` },
      { find: /^@sigil\/core\/names$/, replacement: `${src('core')}/features/names/index.ts` },
      { find: /^@sigil\/core\/activity$/, replacement: `${src('core')}/features/activity/index.ts` },
      { find: /^@sigil\/core\/nfts$/, replacement: `${src('core')}/features/nfts/index.ts` },
      { find: /^@sigil\/core\/receive$/, replacement: `${src('core')}/features/receive/receive.ts` },
      { find: /^@sigil\/core\/siwx$/, replacement: `${src('core')}/features/siwx/message.ts` },
      { find: /^@sigil\/core\/(.*)$/, replacement: `${src('core')}/$1.ts` },
      { find: /^@sigil\/adapter-evm$/, replacement: `${src('adapter-evm')}/index.ts` },
      { find: /^@sigil\/adapter-solana$/, replacement: `${src('adapter-solana')}/index.ts` },
      { find: /^@sigil\/adapter-bitcoin$/, replacement: `${src('adapter-bitcoin')}/index.ts` },
      { find: /^@sigil\/wagmi$/, replacement: `${src('wagmi')}/index.ts` },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/src/**/*.test.tsx'],
    environment: 'happy-dom',
    restoreMocks: true,
    unstubGlobals: true,
  },
})
