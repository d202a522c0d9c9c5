#!/usr/bin/env bash
# make bench-relay: the WalletConnect relay under load on 127.0.0.1 (release build, SQLite):
# as many open sockets as asked (BENCH_RELAY_SOCKETS, default 10000), publish-to-delivery
# p50/p99 and messages/s, server memory per socket, beside a plain WebSocket echo server
# measured the same way in the same run. Then two server processes on one PostgreSQL database
# (its own instance, with PostgreSQL's durable defaults: fsync and synchronous commit on): a
# message published on one and delivered on the other, against both ends on one process.
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
PIDS="$SERVER"
trap 'kill $PIDS 2>/dev/null; wait $PIDS 2>/dev/null; rm -rf "$WORK"' EXIT
wait_http "http://127.0.0.1:$PORT/health"
target/release/examples/bench_relay "ws://127.0.0.1:$PORT/relay" "$PROJECT" "$SERVER" "$SOCKETS" "$MESSAGES"
kill $SERVER; wait $SERVER 2>/dev/null || true

# Two processes on one PostgreSQL: a database of its own on a durable instance.
TWO_MESSAGES="${BENCH_RELAY_TWO_MESSAGES:-8000}"
export SIGIL_PG_PORT="${SIGIL_BENCH_PG_PORT:-54339}" SIGIL_PG_DURABLE=1
PG_ADMIN="$(bash scripts/postgres.sh start)"
DB="sigil_bench_relay_$$"
psql -q "$PG_ADMIN" -c "CREATE DATABASE $DB" >/dev/null
PIDS=""
trap 'kill $PIDS 2>/dev/null; wait $PIDS 2>/dev/null; psql -q "$PG_ADMIN" -c "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1; rm -rf "$WORK"' EXIT
export SIGIL_DATABASE_URL="${PG_ADMIN%/*}/$DB"
PROJECT="$($SIGIL project add --name bench --origin '*')"
URLS=()
for _ in 1 2; do
  P="$(free_port)"
  $SIGIL serve --listen "127.0.0.1:$P" --relay-client-mailbox-bytes 1099511627776 --relay-address-mailbox-bytes 1099511627776 \
    --relay-mailbox-max-bytes 1099511627776 --relay-publishes-per-second 100000 >/dev/null 2>&1 &
  PIDS="$PIDS $!"
  wait_http "http://127.0.0.1:$P/health"
  URLS+=("ws://127.0.0.1:$P/relay")
done
# Each process's LISTEN connection is up a moment after /health answers.
sleep 2
echo
target/release/examples/bench_relay two-process "${URLS[0]}" "${URLS[1]}" "$PROJECT" "$TWO_MESSAGES"
