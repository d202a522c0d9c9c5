#!/usr/bin/env bash
# Browser end-to-end tests: headless Debian Chromium (playwright-core) against the real Sigil
# server, a local anvil chain, the dev Solana runtime (devsolana/), the Bitcoin regtest node
# (devbitcoin/) and the demo page, with injected EIP-6963, Wallet Standard (Solana) and
# sats-connect (Bitcoin) test wallets.
# Screenshots go to test-artifacts/. Exits non-zero when a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/chromium.sh
export SIGIL_ANVIL="$(bash scripts/anvil.sh)"
cargo build --locked -p sigil-server
[ -d web/node_modules ] || (cd web && npm ci --no-audit --no-fund)
[ -d devsolana/node_modules ] || (cd devsolana && npm install --no-audit --no-fund)
[ -d devbitcoin/node_modules ] || (cd devbitcoin && npm ci --no-audit --no-fund)
cd web
npm run e2e -w @sigil/e2e
