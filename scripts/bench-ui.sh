#!/usr/bin/env bash
# make bench-ui: median click-Connect-to-wallet-list time in headless Chromium for the demo
# (real server, anvil) against a plain React dialog page, in one run; and the embedded wallet's
# p50 over 20 runs of frame ready after open and personal_sign (Approve click to reply) beside an
# injected wallet's personal_sign (web/e2e/bench/embedded.bench-ui.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/chromium.sh
export SIGIL_ANVIL="$(bash scripts/anvil.sh)"
cargo build --locked -p sigil-server >&2
[ -d web/node_modules ] || (cd web && npm ci --no-audit --no-fund)
cd web/e2e
# The demo and the baseline are built as sites ship them (React's production build), not as the
# e2e suites build them (vitest's NODE_ENV=test gives React's development build, slower per component).
NODE_ENV=production npx vitest run --config vitest.bench-ui.config.ts 2>&1 | grep -v '^$'
