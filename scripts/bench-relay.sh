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
# Every client of the bench is one address, and its messages stay until their TTL: the
# per-address limits and the mailbox quotas are lifted for it (the budget keeps a tenth of the
# connections, up to 1024, for HTTP).
$SIGIL serve --listen "127.0.0.1:$PORT" --relay-max-sockets $((SOCKETS + 100)) --max-connections $((SOCKETS + 2200)) \
  --max-connections-per-address $((SOCKETS + 2200)) --relay-max-sockets-per-address $((SOCKETS + 100)) \
  --relay-client-mailbox-bytes 1099511627776 --relay-address-mailbox-bytes 1099511627776 --relay-mailbox-max-bytes 1099511627776 \
  --relay-publishes-per-second 100000 >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
wait_http "http://127.0.0.1:$PORT/health"
target/release/examples/bench_relay "ws://127.0.0.1:$PORT/relay" "$PROJECT" "$SERVER" "$SOCKETS" "$MESSAGES"
