#!/usr/bin/env bash
# make demo: builds the server, seeds the wallet directory and a demo project into
# var/sigil.db (SQLite), runs the server, a local dev chain (anvil, chain id 31337) and the demo
# host page. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

API_PORT="${SIGIL_DEMO_API_PORT:-8080}"
CHAIN_PORT="${SIGIL_DEMO_CHAIN_PORT:-8545}"
DEMO_PORT=5173
HAS_WEB_DEMO=0
[ -f web/apps/demo/package.json ] && HAS_WEB_DEMO=1
export SIGIL_DATABASE_URL="${SIGIL_DATABASE_URL:-sqlite://var/sigil.db}"

cargo build --locked -p sigil-server
SIGIL=target/debug/sigil
mkdir -p var
$SIGIL wallets import data/wallets.json | head -n 1
if [ ! -s var/demo-project-id ]; then
  $SIGIL project add --name "Sigil demo" --origin http://localhost:5173 --origin http://127.0.0.1:5173 > var/demo-project-id
fi
PROJECT_ID="$(cat var/demo-project-id)"

pids=()
# npm and vite start children of their own: stop whole process trees.
kill_tree() { local c; for c in $(pgrep -P "$1" || true); do kill_tree "$c"; done; kill "$1" 2>/dev/null || true; }
cleanup() { for p in "${pids[@]}"; do kill_tree "$p"; done; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

ANVIL="$(bash scripts/anvil.sh)"
"$ANVIL" --host 127.0.0.1 --port "$CHAIN_PORT" --chain-id 31337 --silent &
pids+=($!)
wait_rpc "http://127.0.0.1:$CHAIN_PORT/"
[ -d devchain/node_modules ] || (cd devchain && npm ci --no-audit --no-fund)
node devchain/deploy.mjs --rpc "http://127.0.0.1:$CHAIN_PORT" --out var/devchain.json >/dev/null

$SIGIL serve --listen "127.0.0.1:$API_PORT" --dev-deployment var/devchain.json &
pids+=($!)
wait_http "http://127.0.0.1:$API_PORT/health"

if [ "$HAS_WEB_DEMO" = 1 ]; then
  [ -d web/node_modules ] || (cd web && npm ci --no-audit --no-fund)
  (cd web && npm run build)
  SGL_ADDRESS="$(node -e 'console.log(require("./var/devchain.json").tokens[0].address)')"
  (cd web && VITE_SIGIL_API_URL="http://127.0.0.1:$API_PORT" VITE_SIGIL_PROJECT_ID="$PROJECT_ID" \
     VITE_SIGIL_DEV_RPC_URL="http://127.0.0.1:$CHAIN_PORT" VITE_SIGIL_SGL_ADDRESS="$SGL_ADDRESS" npm run dev -w @sigil/demo) &
  pids+=($!)
  wait_http "http://127.0.0.1:$DEMO_PORT/"
fi

cat <<MSG

Sigil is running.
MSG
[ "$HAS_WEB_DEMO" = 1 ] && cat <<MSG
  demo page    http://127.0.0.1:$DEMO_PORT   (open it in a browser with a wallet extension)
MSG
cat <<MSG
  dev chain    http://127.0.0.1:$CHAIN_PORT   (anvil, chain id 31337, 10 funded dev accounts;
               demo token SGL at $(node -e 'console.log(require("./var/devchain.json").tokens[0].address)'), 1 SGL = 2.50 USDC)
MSG
cat <<MSG
  API server   http://127.0.0.1:$API_PORT   (OpenAPI: /openapi.json, metrics: /metrics)
  projectId    $PROJECT_ID
  try          curl 'http://127.0.0.1:$API_PORT/getWallets?projectId=$PROJECT_ID&entries=3'
Press Ctrl-C to stop.
MSG
wait
