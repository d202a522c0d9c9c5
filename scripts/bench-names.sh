#!/usr/bin/env bash
# make bench-names: the account names' CCIP-read gateway (GET /v1/profile/gateway/{sender}/{data},
# a signed answer to resolve(name, addr(node, 60)) for a registered name) beside /health, in one
# run of a release build on a fresh SQLite database; wrk (Debian package) drives the load on
# 127.0.0.1; each figure is the median of ROUNDS alternating rounds. Goal: >= x0.5 of /health's
# requests per second.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

DURATION="${BENCH_DURATION:-5s}"
CONNECTIONS="${BENCH_CONNECTIONS:-16}"
ROUNDS="${BENCH_ROUNDS:-3}"
ensure_wrk
cargo build --locked --release -p sigil-server --bin sigil >&2
[ -d web/node_modules ] || (cd web && npm ci --no-audit --no-fund >&2)

WORK="$(mktemp -d)"
API_PORT="$(free_port)"
SERVER=""
trap 'kill $SERVER 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"' EXIT
export SIGIL_DATABASE_URL="sqlite://$WORK/bench.db" SIGIL_LOG=warn
# A signer for the gateway's answers and an account that registers the name: development keys only.
export SIGIL_NAMES_SIGNER_KEY=1111111111111111111111111111111111111111111111111111111111111111
SIGIL="${CARGO_TARGET_DIR:-target}/release/sigil"
PROJECT="$($SIGIL project add --name bench --origin '*')"
$SIGIL serve --listen "127.0.0.1:$API_PORT" --names-zones sigil.id >/dev/null 2>&1 &
SERVER=$!
BASE="http://127.0.0.1:$API_PORT"
wait_http "$BASE/health"

# Registers bench.sigil.id for coin type 60 (a personal_sign'd message, as the modal sends it) and
# prints the gateway URL of resolve("bench.sigil.id", addr(node, 60)) asked by a resolver.
GATEWAY="$(cd web && BASE="$BASE" PROJECT="$PROJECT" node --input-type=module -e '
  import { encodeFunctionData, namehash, parseAbi, toHex } from "viem"
  import { privateKeyToAccount } from "viem/accounts"
  import { packetToBytes } from "viem/ens"
  const account = privateKeyToAccount("0x2222222222222222222222222222222222222222222222222222222222222222")
  const name = "bench.sigil.id"
  const message = JSON.stringify({ name, attributes: {}, timestamp: Math.floor(Date.now() / 1000) })
  const signature = await account.signMessage({ message })
  const res = await fetch(`${process.env.BASE}/v1/profile/account?projectId=${process.env.PROJECT}`, {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ coin_type: 60, address: account.address, message, signature }),
  })
  if (!res.ok) throw new Error(`registration failed: ${res.status} ${await res.text()}`)
  const inner = encodeFunctionData({ abi: parseAbi(["function addr(bytes32 node, uint256 coinType) view returns (bytes)"]), args: [namehash(name), 60n] })
  const data = encodeFunctionData({ abi: parseAbi(["function resolve(bytes name, bytes data) view returns (bytes)"]), args: [toHex(packetToBytes(name)), inner] })
  console.log(`${process.env.BASE}/v1/profile/gateway/0x000000000000000000000000000000000000beef/${data}.json`)
')"
curl -fsS "$GATEWAY" | grep -q '"data":"0x' || { echo "the gateway did not answer $GATEWAY" >&2; exit 1; }
# The same lookup asked by a new resolver address each time: no kept answer serves it, each is
# read and signed (the long tail of names; a popular one is the row above it).
REQUEST="${GATEWAY#*/0x000000000000000000000000000000000000beef/}"
cat > "$WORK/fresh.lua" <<LUA
math.randomseed(os.time())
request = function()
  local sender = "0x" .. string.format("%08x%08x%08x%08x%08x", math.random(0, 0x7fffffff), math.random(0, 0x7fffffff), math.random(0, 0x7fffffff), math.random(0, 0x7fffffff), math.random(0, 0x7fffffff))
  return wrk.format("GET", "/v1/profile/gateway/" .. sender .. "/$REQUEST")
end
LUA

declare -a NAMES=("/health (baseline)" "gateway, one name asked again" "gateway, signed each time")
declare -a URLS=("$BASE/health" "$GATEWAY" "$BASE/")
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
run() { if [ "$1" = 2 ]; then wrk_figures -s "$WORK/fresh.lua" "${URLS[$1]}"; else wrk_figures "${URLS[$1]}"; fi; }
for i in "${!URLS[@]}"; do : > "$WORK/r$i"; done
for _ in $(seq "$ROUNDS"); do
  for i in "${!URLS[@]}"; do run "$i" >> "$WORK/r$i"; done
done
col() { awk -v c="$2" '{ print $c }' "$WORK/r$1" | median; }

printf 'Sigil names gateway (CCIP-read, signed answers), wrk %s, %s connections, 2 threads, 127.0.0.1, release build, SQLite, median of %s alternating rounds\n\n' "$DURATION" "$CONNECTIONS" "$ROUNDS"
printf '%-34s %10s %9s %9s %10s %10s  %s\n' target 'req/s' 'p50 ms' 'p99 ms' 'rps/base' 'p50/base' 'goal'
base_rps="$(col 0 1)"; base_p50="$(col 0 2)"
for i in "${!URLS[@]}"; do
  goal=""; [ "$i" -ge 1 ] && goal=">= x0.5 req/s"
  awk -v n="${NAMES[$i]}" -v r="$(col "$i" 1)" -v a="$(col "$i" 2)" -v b="$(col "$i" 3)" -v br="$base_rps" -v ba="$base_p50" -v g="$goal" \
    'BEGIN { printf "%-34s %10.0f %9.3f %9.3f %10.3f %10.2f  %s%s\n", n, r, a, b, r / br, a / ba, g, (g != "" ? (r / br >= 0.5 ? ": met" : ": NOT met") : "") }'
done
printf '\nA new answer reads the name from the store and signs it (secp256k1) with the gateway key; a signed answer is served again for 60 s (a registration clears them).\n'
