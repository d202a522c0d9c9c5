#!/usr/bin/env bash
# make bench-api: load-tests the directory API on 127.0.0.1 with wrk (Debian package) against a
# release build on a fresh SQLite database, and prints each figure beside /health as the baseline.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

DURATION="${BENCH_DURATION:-5s}"
CONNECTIONS="${BENCH_CONNECTIONS:-32}"

ensure_wrk
cargo build --locked --release -p sigil-server >&2

WORK="$(mktemp -d)"
PORT="$(free_port)"
export SIGIL_DATABASE_URL="sqlite://$WORK/bench.db" SIGIL_LOG=warn
SIGIL=target/release/sigil
$SIGIL wallets import data/wallets.json >/dev/null
PROJECT="$($SIGIL project add --name bench --origin '*')"
$SIGIL serve --listen "127.0.0.1:$PORT" >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
wait_http "http://127.0.0.1:$PORT/health"

BASE="http://127.0.0.1:$PORT"
Q="projectId=$PROJECT&st=sigil&sv=bench"
declare -a NAMES=("/health (baseline)" "/getWallets page 1, 40 entries" "/getWallets?search=wallet" "/getWalletImage (JPEG logo)")
declare -a URLS=("$BASE/health" "$BASE/getWallets?page=1&entries=40&$Q" "$BASE/getWallets?search=wallet&$Q" "$BASE/getWalletImage/e30d09fe-c0dd-4b61-81e2-d6dc09eb9700")
declare -a GOALS=("" ">= x0.5" ">= x0.5" "")

printf 'Sigil directory API, wrk %s, %s connections, 2 threads, 127.0.0.1, release build, SQLite\n\n' "$DURATION" "$CONNECTIONS"
printf '%-34s %10s %9s %9s %10s %10s %10s  %s\n' endpoint 'req/s' 'p50 ms' 'p99 ms' 'rps/base' 'p50/base' 'p99/base' 'goal (rps/base)'
base_rps=""; base_p50=""; base_p99=""
for i in "${!URLS[@]}"; do
  read -r rps p50 p99 < <(wrk_figures "${URLS[$i]}")
  [ -z "$base_rps" ] && { base_rps=$rps; base_p50=$p50; base_p99=$p99; }
  awk -v n="${NAMES[$i]}" -v r="$rps" -v a="$p50" -v b="$p99" -v br="$base_rps" -v ba="$base_p50" -v bb="$base_p99" -v g="${GOALS[$i]}" \
    'BEGIN { printf "%-34s %10.0f %9.3f %9.3f %10.3f %10.2f %10.2f  %s\n", n, r, a, b, r / br, a / ba, b / bb, g }'
done

# image_url as a page's <img> would fetch it: the URL exactly as /getWallets gives it, no
# project id, no header (the server's public URL is the bench's listen address).
IMAGE_URL="$(curl -fsS "$BASE/getWallets?entries=1&$Q" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).data[0].image_url))')"
read -r code type < <(curl -s -o /dev/null -w '%{http_code} %{content_type}\n' "$IMAGE_URL")
printf '\nimage_url fetched as-is (%s): HTTP %s, %s; goal: the image\n' "$IMAGE_URL" "$code" "$type"

# Transaction history: an account with 10,000 token transfers on a local anvil (one a block), indexed
# by a second server (its own SQLite database) from block 0.
ANVIL="$(bash scripts/anvil.sh)"
CHAIN_PORT="$(free_port)"
"$ANVIL" --host 127.0.0.1 --port "$CHAIN_PORT" --chain-id 31337 --hardfork prague --silent --max-persisted-states 0 &
CHAIN=$!
HISTORY_SERVER=""
trap 'kill $SERVER $CHAIN $HISTORY_SERVER 2>/dev/null; wait $SERVER $CHAIN $HISTORY_SERVER 2>/dev/null; rm -rf "$WORK"' EXIT
RPC="http://127.0.0.1:$CHAIN_PORT"
wait_rpc "$RPC"
[ -d devchain/node_modules ] || (cd devchain && npm ci --no-audit --no-fund >&2)
node devchain/deploy.mjs --rpc "$RPC" --out "$WORK/devchain.json" >/dev/null 2>&1
SGL="$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).tokens[0].address)' "$WORK/devchain.json")"
ACCOUNT=0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc
LAST="$(node scripts/bench-history.mjs fill "$RPC" "$SGL" "$ACCOUNT" 10000)"
rpc_call() { curl -fsS -H 'content-type: application/json' -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$1\",\"params\":$2}" "$RPC"; }
HEAD="$(rpc_call eth_blockNumber '[]' | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(Number(JSON.parse(s).result)))')"
if [ "$HEAD" -lt 9999 ]; then rpc_call anvil_mine "[\"0x$(printf '%x' $((9999 - HEAD)))\"]" >/dev/null; HEAD=9999; fi
BLOCKS=$((HEAD + 1))
# anvil answering the indexer's eth_getLogs calls alone (the same ranges, one after another).
read -r LOGS_SECS LOGS_FOUND < <(node scripts/bench-history.mjs logs "$RPC" 0 $((BLOCKS - 1)) 500)
# The least a full index reads (logs, and the traces that hold every top-level transaction), anvil
# answering both at once: how far the indexer could go before it stores anything.
READS_SECS="$(node scripts/bench-history.mjs reads "$RPC" 0 $((BLOCKS - 1)))"

# Only the dev chain (the built-in list would index public chains too).
cat > "$WORK/chains.toml" <<TOML
[[chains]]
id = "eip155:31337"
name = "Sigil Dev"
testnet = true
rpc = ["$RPC"]
native = { name = "Ether", symbol = "ETH", decimals = 18 }
history = { from_block = 0 }
TOML
HISTORY_PORT="$(free_port)"
HISTORY_DB="sqlite://$WORK/history.db"
HISTORY_PROJECT="$(SIGIL_DATABASE_URL="$HISTORY_DB" $SIGIL project add --name bench --origin '*')"
HB="http://127.0.0.1:$HISTORY_PORT"
HISTORY_URL="$HB/v1/account/$ACCOUNT/history?projectId=$HISTORY_PROJECT&chainId=eip155:31337"
STARTED="$(date +%s.%N)"
SIGIL_DATABASE_URL="$HISTORY_DB" $SIGIL serve --listen "127.0.0.1:$HISTORY_PORT" --chains "$WORK/chains.toml" --dev-deployment "$WORK/devchain.json" >/dev/null 2>&1 &
HISTORY_SERVER=$!
until curl -fsS "$HISTORY_URL" 2>/dev/null | grep -q "$LAST"; do sleep 0.02; done
INDEX_SECS="$(awk -v a="$STARTED" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')"

printf '\nSigil transaction history, anvil on 127.0.0.1, release build, SQLite\n\n'
awk -v n="$BLOCKS" -v i="$INDEX_SECS" -v l="$LOGS_SECS" -v f="$LOGS_FOUND" -v r="$READS_SECS" 'BEGIN {
  printf "indexer catching up %d blocks (%d transfers): %.2f s, %.0f blocks/s\n", n, f, i, n / i
  printf "anvil answering the same eth_getLogs calls alone (500-block ranges): %.2f s, %.0f blocks/s\n", l, n / l
  printf "anvil answering those and trace_filter at once (the reads alone, nothing stored): %.2f s, x%.3f\n", r, l / r
  printf "ratio (indexer / getLogs alone): x%.3f   goal: >= x0.5\n\n", l / i }'
printf '%-34s %10s %9s %9s %10s %10s %10s  %s\n' endpoint 'req/s' 'p50 ms' 'p99 ms' 'rps/base' 'p50/base' 'p99/base' 'goal (p50/base)'
read -r base_rps base_p50 base_p99 < <(wrk_figures "$HB/health")
read -r rps p50 p99 < <(wrk_figures "$HISTORY_URL")
awk -v r="$base_rps" -v a="$base_p50" -v b="$base_p99" 'BEGIN { printf "%-34s %10.0f %9.3f %9.3f %10.3f %10.2f %10.2f\n", "/health (baseline)", r, a, b, 1, 1, 1 }'
awk -v r="$rps" -v a="$p50" -v b="$p99" -v br="$base_rps" -v ba="$base_p50" -v bb="$base_p99" \
  'BEGIN { printf "%-34s %10.0f %9.3f %9.3f %10.3f %10.2f %10.2f  %s\n", "history page 1 (10,000 transfers)", r, a, b, r / br, a / ba, b / bb, "<= x3" }'
