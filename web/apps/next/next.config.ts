import type { NextConfig } from 'next'

const config: NextConfig = {
  // The e2e suite builds into a folder of its own, leaving .next (npm run build, make size) alone.
  distDir: process.env.SIGIL_NEXT_DIST_DIR || '.next',
  poweredByHeader: false,
  // `npm run typecheck` checks the example with the rest of web/; the build does not do it again.
  typescript: { ignoreBuildErrors: true },
}

export default config
