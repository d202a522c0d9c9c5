#!/usr/bin/env bash
# make demo: builds the server, seeds the wallet directory and a demo project into
# var/sigil.db (SQLite), and runs the server (plus the demo page and dev chain when present).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

API_PORT="${SIGIL_DEMO_API_PORT:-8080}"
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
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

$SIGIL serve --listen "127.0.0.1:$API_PORT" &
pids+=($!)
wait_http "http://127.0.0.1:$API_PORT/health"

cat <<MSG

Sigil is running.
  API server   http://127.0.0.1:$API_PORT   (OpenAPI: /openapi.json, metrics: /metrics)
  projectId    $PROJECT_ID
  try          curl 'http://127.0.0.1:$API_PORT/getWallets?projectId=$PROJECT_ID&entries=3'
Press Ctrl-C to stop.
MSG
wait
