#!/usr/bin/env bash
# make bench-rpc: JSON-RPC throughput and p50/p99 latency through the proxy against the same
# calls sent straight to anvil, at the same concurrency, in one run; the proxy's overhead is
# printed as ratios. wrk (Debian package) drives the load; everything is on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

DURATION="${BENCH_DURATION:-5s}"
CONNECTIONS="${BENCH_CONNECTIONS:-16}"
ensure_wrk
cargo build --locked --release -p sigil-server >&2
ANVIL="$(bash scripts/anvil.sh)"

WORK="$(mktemp -d)"
CHAIN_PORT="$(free_port)"
API_PORT="$(free_port)"
"$ANVIL" --host 127.0.0.1 --port "$CHAIN_PORT" --chain-id 31337 --silent &
ANVIL_PID=$!
export SIGIL_DATABASE_URL="sqlite://$WORK/bench.db" SIGIL_LOG=warn
SIGIL=target/release/sigil
PROJECT="$($SIGIL project add --name bench --origin '*')"
$SIGIL serve --listen "127.0.0.1:$API_PORT" --dev-rpc-url "http://127.0.0.1:$CHAIN_PORT" --rpc-requests-per-second 1000000 >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER $ANVIL_PID 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
wait_rpc "http://127.0.0.1:$CHAIN_PORT/"
wait_http "http://127.0.0.1:$API_PORT/health"

DIRECT="http://127.0.0.1:$CHAIN_PORT/"
PROXY="http://127.0.0.1:$API_PORT/v1?chainId=eip155:31337&projectId=$PROJECT"
# eth_call: balanceOf(account 0) on a contract-less address; the node still runs the call.
CALL='{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0x000000000000000000000000000000000000dEaD","data":"0x70a08231000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266"},"latest"]}'
BLOCK='{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}'

run() { # url body -> "rps p50 p99"
  local lua="$WORK/post.lua"
  printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [[%s]]\n' "$2" > "$lua"
  wrk_figures -s "$lua" "$1"
}

printf 'Sigil JSON-RPC proxy vs anvil direct, wrk %s, %s connections, 2 threads, 127.0.0.1, release build\n\n' "$DURATION" "$CONNECTIONS"
printf '%-16s %-8s %10s %9s %9s\n' method target 'req/s' 'p50 ms' 'p99 ms'
for m in eth_blockNumber eth_call; do
  body="$BLOCK"; [ "$m" = eth_call ] && body="$CALL"
  read -r drps dp50 dp99 < <(run "$DIRECT" "$body")
  read -r prps pp50 pp99 < <(run "$PROXY" "$body")
  printf '%-16s %-8s %10.0f %9.3f %9.3f\n' "$m" direct "$drps" "$dp50" "$dp99"
  printf '%-16s %-8s %10.0f %9.3f %9.3f\n' "$m" proxy "$prps" "$pp50" "$pp99"
  awk -v m="$m" -v a="$pp50" -v b="$dp50" -v c="$pp99" -v d="$dp99" -v e="$prps" -v f="$drps" \
    'BEGIN { printf "%s proxy overhead: p50 x%.3f (%+.1f%%), p99 x%.3f, throughput x%.3f\n", m, a / b, (a / b - 1) * 100, c / d, e / f }'
done
