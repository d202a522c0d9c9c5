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
