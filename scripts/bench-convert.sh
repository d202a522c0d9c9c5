#!/usr/bin/env bash
# make bench-convert: swap quotes (GET /v1/convert/quotes) against the dev chain's Uniswap V2
# pools (devchain/deploy.mjs on a local anvil), beside /health and beside one upstream eth_call
# (the router's getAmountsOut, POSTed straight to anvil), in one run of a release build. wrk
# (Debian package) drives the load; everything is on 127.0.0.1. Each target runs with one
# connection (the round trip: the goal is a quote's p50 within x3 of one eth_call's) and with
# CONNECTIONS (throughput), alternating rounds, each figure the median of ROUNDS.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

DURATION="${BENCH_DURATION:-5s}"
LOAD="${BENCH_CONNECTIONS:-16}"
ROUNDS="${BENCH_ROUNDS:-3}"
ensure_wrk
cargo build --locked --release -p sigil-server --bin sigil >&2
ANVIL="$(bash scripts/anvil.sh)"

WORK="$(mktemp -d)"
CHAIN_PORT="$(free_port)"
API_PORT="$(free_port)"
"$ANVIL" --host 127.0.0.1 --port "$CHAIN_PORT" --chain-id 31337 --hardfork prague --silent --max-persisted-states 0 &
CHAIN=$!
SERVER=""
trap 'kill $SERVER $CHAIN 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
RPC="http://127.0.0.1:$CHAIN_PORT"
wait_rpc "$RPC"
[ -d devchain/node_modules ] || (cd devchain && npm ci --no-audit --no-fund >&2)
node devchain/deploy.mjs --rpc "$RPC" --out "$WORK/devchain.json" >/dev/null 2>&1
field() { node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1])); console.log(eval(process.argv[2]))' "$WORK/devchain.json" "$1"; }
ROUTER="$(field 'd.uniswapV2.router')"
WETH="$(field 'd.uniswapV2.weth')"
SGL="$(field 'd.tokens.find((t) => t.symbol === "SGL").address')"
USDT="$(field 'd.tokens.find((t) => t.symbol === "USDT").address')"
# anvil's account 0 (the deployer, who holds SGL and ETH).
ACCOUNT=0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266

# Only the dev chain, not indexed (the built-in list would reach public chains).
cat > "$WORK/chains.toml" <<TOML
[[chains]]
id = "eip155:31337"
name = "Sigil Dev"
testnet = true
rpc = ["$RPC"]
native = { name = "Ether", symbol = "ETH", decimals = 18 }
history = { enabled = false }
TOML
export SIGIL_DATABASE_URL="sqlite://$WORK/bench.db" SIGIL_LOG=warn
SIGIL="${CARGO_TARGET_DIR:-target}/release/sigil"
PROJECT="$($SIGIL project add --name bench --origin '*')"
$SIGIL serve --listen "127.0.0.1:$API_PORT" --chains "$WORK/chains.toml" --dev-deployment "$WORK/devchain.json" \
  --rpc-requests-per-second 1000000 >/dev/null 2>&1 &
SERVER=$!
BASE="http://127.0.0.1:$API_PORT"
wait_http "$BASE/health"

DEV=eip155:31337
NATIVE="$DEV:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"
ONE=1000000000000000000
quote_url() { echo "$BASE/v1/convert/quotes?projectId=$PROJECT&amount=$ONE&userAddress=$DEV:$ACCOUNT&from=$1&to=$2"; }
ETH_SGL="$(quote_url "$NATIVE" "$DEV:$SGL")"
SGL_USDT="$(quote_url "$DEV:$SGL" "$DEV:$USDT")"
# What the quotes route through (the router's pick of direct or one hop), to print beside them.
route() { curl -fsS "$1" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const q=JSON.parse(s).quotes[0];console.log(q.route.length - 1)})'; }
ETH_SGL_HOPS="$(route "$ETH_SGL")"
SGL_USDT_HOPS="$(route "$SGL_USDT")"

# One upstream eth_call: getAmountsOut(1 ETH, [WETH, SGL]) on the router, straight to anvil.
word() { printf '%064s' "${1#0x}" | tr ' ' 0 | tr 'A-F' 'a-f'; }
CALLDATA="0xd06ca61f$(word "$(printf '%x' "$ONE")")$(word 40)$(word 2)$(word "$WETH")$(word "$SGL")"
CALL="{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_call\",\"params\":[{\"to\":\"$ROUTER\",\"data\":\"$CALLDATA\"},\"latest\"]}"
curl -fsS -H 'content-type: application/json' -d "$CALL" "$RPC" | grep -q '"result":"0x' || { echo "getAmountsOut failed on anvil" >&2; exit 1; }
printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [[%s]]\n' "$CALL" > "$WORK/call.lua"
# What an ETH -> SGL quote needs from the chain, sent straight to anvil as one batch: the amounts
# along the route, the pool's reserves (the price impact) and the account's balance (its issues).
# The server sends the same calls, in one batch too: the floor a quote stands on, beside the one
# eth_call of the goal.
PAIR="$(field 'd.uniswapV2.pools.find((p) => p.tokens.includes("ETH") && p.tokens.includes("SGL")).address')"
RESERVES="{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"eth_call\",\"params\":[{\"to\":\"$PAIR\",\"data\":\"0x0902f1ac\"},\"latest\"]}"
BALANCE="{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"eth_getBalance\",\"params\":[\"$ACCOUNT\",\"latest\"]}"
FLOOR="[$CALL,$RESERVES,$BALANCE]"
curl -fsS -H 'content-type: application/json' -d "$FLOOR" "$RPC" | grep -q '"id":3' || { echo "the quote's calls failed on anvil" >&2; exit 1; }
printf 'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\nwrk.body = [=[%s]=]\n' "$FLOOR" > "$WORK/floor.lua"

declare -a NAMES=("/health (baseline)" "eth_call getAmountsOut (anvil)" "quotes ETH->SGL ($ETH_SGL_HOPS hop)" "quotes SGL->USDT ($SGL_USDT_HOPS hop)" "ETH->SGL quote's calls (anvil)")
run() { # index -> "rps p50 p99" (one thread for one connection: wrk needs a connection a thread)
  local threads=(); [ "$CONNECTIONS" = 1 ] && threads=(-t1)
  case "$1" in
    0) wrk_figures "${threads[@]}" "$BASE/health" ;;
    1) wrk_figures "${threads[@]}" -s "$WORK/call.lua" "$RPC/" ;;
    2) wrk_figures "${threads[@]}" "$ETH_SGL" ;;
    3) wrk_figures "${threads[@]}" "$SGL_USDT" ;;
    4) wrk_figures "${threads[@]}" -s "$WORK/floor.lua" "$RPC/" ;;
  esac
}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf 'Sigil swap quotes (Uniswap V2 on the dev chain, anvil) beside /health and one eth_call, wrk %s, 2 threads (1 for 1 connection), 127.0.0.1, release build, SQLite, median of %s alternating rounds\n' "$DURATION" "$ROUNDS"
for CONNECTIONS in 1 "$LOAD"; do
  for i in "${!NAMES[@]}"; do : > "$WORK/r$i"; done
  for _ in $(seq "$ROUNDS"); do
    for i in "${!NAMES[@]}"; do run "$i" >> "$WORK/r$i"; done
  done
  col() { awk -v c="$2" '{ print $c }' "$WORK/r$1" | median; }
  printf '\n%s connection(s)\n%-32s %10s %9s %9s %12s %12s  %s\n' "$CONNECTIONS" target 'req/s' 'p50 ms' 'p99 ms' 'p50/eth_call' 'p50/health' 'goal'
  call_p50="$(col 1 2)"; health_p50="$(col 0 2)"
  for i in "${!NAMES[@]}"; do
    goal=""; [ "$i" -ge 2 ] && [ "$i" -le 3 ] && [ "$CONNECTIONS" = 1 ] && goal="p50 <= x3 of eth_call"
    awk -v n="${NAMES[$i]}" -v r="$(col "$i" 1)" -v a="$(col "$i" 2)" -v b="$(col "$i" 3)" -v c="$call_p50" -v h="$health_p50" -v g="$goal" \
      'BEGIN { printf "%-32s %10.0f %9.3f %9.3f %12.2f %12.2f  %s%s\n", n, r, a, b, a / c, a / h, g, (g != "" ? (a / c <= 3 ? ": met" : ": NOT met") : "") }'
  done
done
printf '\nA quote asks the router getAmountsOut along the path it found best for the pair (kept 30 s; else every candidate: direct and one hop through each base token) with the route'"'"'s reserves and, with userAddress, the balance and allowance, in one batch. The last row is those calls sent straight to anvil: the quote'"'"'s floor.\n'
