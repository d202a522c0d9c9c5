#!/usr/bin/env bash
# make bench-rpc: JSON-RPC throughput and p50/p99 latency through the proxy against the same
# calls sent straight to anvil, at the same concurrency, in one run; the proxy's overhead is
# printed as ratios. wrk (Debian package) drives the load; everything is on 127.0.0.1.
# eth_blockNumber is answered from the head the server follows over anvil's WebSocket, and
# identical eth_calls in flight share one upstream call, as in production. A third line sends
# eth_getBalance for a different address each time, so every request is forwarded: the cost
# of the extra hop alone.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

DURATION="${BENCH_DURATION:-5s}"
CONNECTIONS="${BENCH_CONNECTIONS:-16}"
# Direct and proxied runs alternate this many times; each figure is the median (a 2-core
# machine's noise moves single runs by 20% or more).
ROUNDS="${BENCH_ROUNDS:-5}"
ensure_wrk
cargo build --locked --release -p sigil-server --bin sigil --example floor_proxy --example floor_tcp >&2
ANVIL="$(bash scripts/anvil.sh)"

WORK="$(mktemp -d)"
CHAIN_PORT="$(free_port)"
API_PORT="$(free_port)"
"$ANVIL" --host 127.0.0.1 --port "$CHAIN_PORT" --chain-id 31337 --hardfork prague --silent --max-persisted-states 0 &
ANVIL_PID=$!
export SIGIL_DATABASE_URL="sqlite://$WORK/bench.db" SIGIL_LOG=warn
RELEASE="${CARGO_TARGET_DIR:-target}/release"
SIGIL="$RELEASE/sigil"
PROJECT="$($SIGIL project add --name bench --origin '*')"
$SIGIL serve --listen "127.0.0.1:$API_PORT" --dev-rpc-url "http://127.0.0.1:$CHAIN_PORT" --rpc-requests-per-second 1000000 >/dev/null 2>&1 &
SERVER=$!
# The floor: the smallest proxy the same libraries make (no parsing, routing or checks), to
# show what the extra hop itself costs here.
FLOOR_PORT="$(free_port)"
"$RELEASE/examples/floor_proxy" "127.0.0.1:$FLOOR_PORT" "http://127.0.0.1:$CHAIN_PORT/" >/dev/null 2>&1 &
FLOOR=$!
# The floor with the limits the proxy must keep (time limits, the JSON-RPC parse and method
# allowlist, the rate limiter), and nothing else: what those limits alone cost.
GUARDED_PORT="$(free_port)"
"$RELEASE/examples/floor_proxy" "127.0.0.1:$GUARDED_PORT" "http://127.0.0.1:$CHAIN_PORT/" guarded >/dev/null 2>&1 &
GUARDED=$!
# The lowest floor: a TCP relay with no HTTP at all, the loopback hop alone.
TCP_PORT="$(free_port)"
"$RELEASE/examples/floor_tcp" "127.0.0.1:$TCP_PORT" "127.0.0.1:$CHAIN_PORT" >/dev/null 2>&1 &
TCP=$!
trap 'kill $SERVER $FLOOR $GUARDED $TCP $ANVIL_PID 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
wait_rpc "http://127.0.0.1:$CHAIN_PORT/"
wait_http "http://127.0.0.1:$API_PORT/health"

DIRECT="http://127.0.0.1:$CHAIN_PORT/"
PROXY="http://127.0.0.1:$API_PORT/v1?chainId=eip155:31337&projectId=$PROJECT"
# eth_call: balanceOf(account 0) on a contract-less address; the node still runs the call.
CALL='{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0x000000000000000000000000000000000000dEaD","data":"0x70a08231000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb92266"},"latest"]}'
BLOCK='{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}'

run() { # url body -> "rps p50 p99"
  local lua="$WORK/post.lua"
  if [ "$2" = distinct ]; then
    # eth_getBalance of a new address on every request: nothing to share or cache. Each of
    # wrk's threads counts on its own, so each counts under a prefix of its own (this run's, then
    # the thread's): counting alike, the threads would ask for the same addresses at about the
    # same moments, and the proxy would share those identical reads in flight.
    cat > "$lua" <<LUA
local threads = 0
function setup(thread)
  thread:set("prefix", $(( $(date +%s%N) / 1000 % 16777216 )) * 256 + threads)
  threads = threads + 1
end
local n = 0
request = function()
  n = n + 1
  local body = string.format('{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0x%08x%032x","latest"]}', prefix, n)
  return wrk.format("POST", nil, { ["Content-Type"] = "application/json" }, body)
end
LUA
  else
    printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [[%s]]\n' "$2" > "$lua"
  fi
  wrk_figures -s "$lua" "$1"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf 'Sigil JSON-RPC proxy vs anvil direct, wrk %s, %s connections, 2 threads, 127.0.0.1, release build, SIGIL_LOG=warn, median of %s alternating rounds\n\n' "$DURATION" "$CONNECTIONS" "$ROUNDS"
printf '%-16s %-8s %10s %9s %9s\n' method target 'req/s' 'p50 ms' 'p99 ms'
# The proxy follows the dev chain's head once it has seen traffic (probe tick, 4 s).
curl -fsS -o /dev/null -H 'content-type: application/json' -d "$BLOCK" "$PROXY"
sleep 5
for m in eth_blockNumber eth_call "eth_getBalance*"; do
  case "$m" in eth_blockNumber) body="$BLOCK" ;; eth_call) body="$CALL" ;; *) body=distinct ;; esac
  : > "$WORK/direct"; : > "$WORK/proxy"; : > "$WORK/floor"; : > "$WORK/guarded"; : > "$WORK/tcp"
  for _ in $(seq "$ROUNDS"); do
    run "$DIRECT" "$body" >> "$WORK/direct"
    run "$PROXY" "$body" >> "$WORK/proxy"
    [ "$body" = distinct ] && run "http://127.0.0.1:$FLOOR_PORT/" "$body" >> "$WORK/floor"
    [ "$body" = distinct ] && run "http://127.0.0.1:$GUARDED_PORT/?chainId=eip155:31337" "$body" >> "$WORK/guarded"
    [ "$body" = distinct ] && run "http://127.0.0.1:$TCP_PORT/" "$body" >> "$WORK/tcp"
  done
  col() { awk -v c="$2" '{ print $c }' "$WORK/$1" | median; }
  drps=$(col direct 1); dp50=$(col direct 2); dp99=$(col direct 3)
  prps=$(col proxy 1); pp50=$(col proxy 2); pp99=$(col proxy 3)
  printf '%-16s %-8s %10.0f %9.3f %9.3f\n' "$m" direct "$drps" "$dp50" "$dp99"
  printf '%-16s %-8s %10.0f %9.3f %9.3f\n' "$m" proxy "$prps" "$pp50" "$pp99"
  goal=""; [ "$m" = "eth_getBalance*" ] && goal="; goals against anvil direct: p50 <= x1.5, throughput >= x0.6 (the goals of record are against the floor, below)"
  if [ -s "$WORK/floor" ]; then
    frps=$(col floor 1); fp50=$(col floor 2); fp99=$(col floor 3)
    printf '%-16s %-8s %10.0f %9.3f %9.3f\n' "$m" floor "$frps" "$fp50" "$fp99"
    awk -v a="$fp50" -v b="$dp50" -v e="$frps" -v f="$drps" \
      'BEGIN { printf "  floor (a bare hyper proxy, same upstream client): p50 x%.3f, throughput x%.3f: the hop itself\n", a / b, e / f }'
    # What Sigil adds over the floor: the goals of issue 29.
    awk -v a="$pp50" -v b="$fp50" -v c="$pp99" -v d="$fp99" -v e="$prps" -v f="$frps" \
      'function goal(r, op, g) { return sprintf("x%.3f (goal %s x%s%s)", r, op, g, (op == ">=" ? r >= g : r <= g) ? "" : ", not met") }
       BEGIN { printf "  proxy against the floor: throughput %s, p50 %s, p99 x%.3f\n", goal(e / f, ">=", 0.9), goal(a / b, "<=", 1.1), c / d }'
  fi
  if [ -s "$WORK/guarded" ]; then
    grps=$(col guarded 1); gp50=$(col guarded 2); gp99=$(col guarded 3)
    printf '%-16s %-8s %10.0f %9.3f %9.3f\n' "$m" guarded "$grps" "$gp50" "$gp99"
    awk -v a="$gp50" -v b="$fp50" -v e="$grps" -v f="$frps" -v p="$pp50" -v r="$prps" \
      'BEGIN { printf "  guarded floor (the floor plus the limits the proxy keeps: time limits, parse and allowlist, rate limiter): throughput x%.3f, p50 x%.3f of the floor; the proxy is throughput x%.3f, p50 x%.3f of it\n", e / f, a / b, r / e, p / a }'
  fi
  if [ -s "$WORK/tcp" ]; then
    trps=$(col tcp 1); tp50=$(col tcp 2); tp99=$(col tcp 3)
    printf '%-16s %-8s %10.0f %9.3f %9.3f\n' "$m" tcp "$trps" "$tp50" "$tp99"
    awk -v a="$tp50" -v b="$dp50" -v e="$trps" -v f="$drps" \
      'BEGIN { printf "  tcp (a TCP relay, no HTTP: the loopback hop alone): p50 x%.3f, throughput x%.3f\n", a / b, e / f }'
  fi
  awk -v m="$m" -v a="$pp50" -v b="$dp50" -v c="$pp99" -v d="$dp99" -v e="$prps" -v f="$drps" -v g="$goal" \
    'BEGIN { printf "%s proxy overhead: p50 x%.3f (%+.1f%%), p99 x%.3f, throughput x%.3f%s\n", m, a / b, (a / b - 1) * 100, c / d, e / f, g }'
done
echo '* eth_getBalance*: a different address per request, so nothing is shared: the forwarding cost alone.'
