#!/usr/bin/env bash
# Sets everything up and runs every test. Fails on the first failing suite.
set -euo pipefail
cd "$(dirname "$0")/.."

# A fresh clone gains nothing from incremental compilation, and its files cost gigabytes of disk.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

step() { printf '\n== %s (%s)\n' "$*" "$(date +%T)"; }

step "Rust: format and lints (rustfmt, clippy -D warnings)"
cargo fmt --all --check
cargo clippy --locked --all-targets -- -D warnings

step "PostgreSQL (Debian package, 127.0.0.1)"
PG_URL="$(bash scripts/postgres.sh start)"
trap 'bash scripts/postgres.sh stop' EXIT
export SIGIL_TEST_POSTGRES_URL="$PG_URL" SIGIL_REQUIRE_POSTGRES=1

step "Local EVM chain (anvil from npm)"
export SIGIL_ANVIL="$(bash scripts/anvil.sh)"

step "Dev chain contracts (solc-js, anvil)"
(cd devchain && npm ci --no-audit --no-fund && npm test)

step "Dev Solana runtime: JSON-RPC over npm litesvm, SPL token programs (devsolana/)"
# npm install, not npm ci: litesvm's native packages for other platforms are optional and absent
# from this registry, so the lockfile cannot list them and npm ci would refuse it; npm install
# still takes every locked version.
(cd devsolana && npm install --no-audit --no-fund && npm test)

step "Dev Bitcoin regtest node: npm bcoin with the Esplora address routes (devbitcoin/)"
(cd devbitcoin && npm ci --no-audit --no-fund && npm test)

step "Local OpenID Connect provider for the social login tests (npm oidc-provider)"
(cd devidp && npm ci --no-audit --no-fund)

step "Rust: unit and integration tests (SQLite and PostgreSQL, anvil)"
cargo test --locked --workspace

if [ -f web/package.json ]; then
  step "Web: install, build, typecheck, unit tests"
  (cd web && npm ci --no-audit --no-fund && npm run lint && npm run build && npm run typecheck && npm test)

  step "Web: size budget (library JS before the modal opens, gzip -9)"
  node scripts/size.mjs --no-build

  step "Browser end to end: Chromium, real server, anvil, demo page"
  # The build above made the Next.js example's .next from this tree: its suite starts that.
  SIGIL_E2E_NEXT_BUILT=1 bash scripts/e2e.sh
fi
step "All passed"
