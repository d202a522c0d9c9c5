#!/usr/bin/env bash
# make bench-relay: the WalletConnect relay under load on 127.0.0.1 (release build, SQLite):
# as many open sockets as asked (BENCH_RELAY_SOCKETS, default 10000), publish-to-delivery
# p50/p99 and messages/s, server memory per socket, beside a plain WebSocket echo server
# measured the same way in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

SOCKETS="${BENCH_RELAY_SOCKETS:-10000}"
MESSAGES="${BENCH_RELAY_MESSAGES:-20000}"
cargo build --locked --release -p sigil-server --bin sigil --example bench_relay >&2
# Both ends hold SOCKETS descriptors; ask for the hard limit.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

WORK="$(mktemp -d)"
PORT="$(free_port)"
export SIGIL_DATABASE_URL="sqlite://$WORK/bench.db" SIGIL_LOG=warn
SIGIL=target/release/sigil
PROJECT="$($SIGIL project add --name bench --origin '*')"
$SIGIL serve --listen "127.0.0.1:$PORT" --relay-max-sockets $((SOCKETS + 100)) --max-connections $((SOCKETS + 1000)) \
  --relay-publishes-per-second 100000 >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
wait_http "http://127.0.0.1:$PORT/health"
target/release/examples/bench_relay "ws://127.0.0.1:$PORT/relay" "$PROJECT" "$SERVER" "$SOCKETS" "$MESSAGES"
