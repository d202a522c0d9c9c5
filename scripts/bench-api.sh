#!/usr/bin/env bash
# make bench-api: load-tests the directory API on 127.0.0.1 with wrk (Debian package) against a
# release build on a fresh SQLite database, and prints each figure beside /health as the baseline.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

DURATION="${BENCH_DURATION:-5s}"
CONNECTIONS="${BENCH_CONNECTIONS:-32}"

if ! command -v wrk >/dev/null; then
  echo "installing wrk from Debian's packages..." >&2
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq wrk >&2
fi
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
declare -a URLS=("$BASE/health" "$BASE/getWallets?page=1&entries=40&$Q" "$BASE/getWallets?search=wallet&$Q" "$BASE/getWalletImage/e30d09fe-c0dd-4b61-81e2-d6dc09eb9700?$Q")

# wrk prints latencies as 850.00us / 1.23ms / 1.02s; convert to ms.
to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /s$/) n *= 1000; printf "%.3f", n }'; }

printf 'Sigil directory API, wrk %s, %s connections, 2 threads, 127.0.0.1, release build, SQLite\n\n' "$DURATION" "$CONNECTIONS"
printf '%-34s %10s %9s %9s %10s %10s %10s\n' endpoint 'req/s' 'p50 ms' 'p99 ms' 'rps/base' 'p50/base' 'p99/base'
base_rps=""; base_p50=""; base_p99=""
for i in "${!URLS[@]}"; do
  out="$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency "${URLS[$i]}")"
  if echo "$out" | grep -q 'Non-2xx'; then echo "$out" >&2; echo "non-2xx responses for ${URLS[$i]}" >&2; exit 1; fi
  rps="$(echo "$out" | awk '/Requests\/sec/ { print $2 }')"
  p50="$(to_ms "$(echo "$out" | awk '$1 == "50%" { print $2 }')")"
  p99="$(to_ms "$(echo "$out" | awk '$1 == "99%" { print $2 }')")"
  [ -z "$base_rps" ] && { base_rps=$rps; base_p50=$p50; base_p99=$p99; }
  awk -v n="${NAMES[$i]}" -v r="$rps" -v a="$p50" -v b="$p99" -v br="$base_rps" -v ba="$base_p50" -v bb="$base_p99" \
    'BEGIN { printf "%-34s %10.0f %9.3f %9.3f %10.3f %10.2f %10.2f\n", n, r, a, b, r / br, a / ba, b / bb }'
done
