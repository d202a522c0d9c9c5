# Shared helpers for the scripts (sourced).

# A TCP port nobody listens on.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Waits until URL answers 200, or fails after ~20 s.
wait_http() {
  local url="$1" i
  for i in $(seq 1 200); do
    curl -fsS -o /dev/null "$url" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "timed out waiting for $url" >&2
  return 1
}

# Waits until a JSON-RPC endpoint answers, or fails after ~20 s.
wait_rpc() {
  local url="$1" i
  for i in $(seq 1 200); do
    curl -fsS -o /dev/null -H 'content-type: application/json' -d '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}' "$url" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "timed out waiting for $url" >&2
  return 1
}

# Installs wrk from Debian's packages when missing.
ensure_wrk() {
  command -v wrk >/dev/null && return 0
  echo "installing wrk from Debian's packages..." >&2
  local sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq wrk >&2
}

# wrk_figures [wrk args...] URL -> "requests/s p50_ms p99_ms" (DURATION, CONNECTIONS from the caller)
wrk_figures() {
  local out
  out="$(wrk -t2 -c"$CONNECTIONS" -d"$DURATION" --latency "$@")"
  if echo "$out" | grep -q 'Non-2xx'; then echo "$out" >&2; echo "non-2xx responses" >&2; return 1; fi
  echo "$out" | awk '
    function ms(v) { n = v + 0; if (v ~ /us$/) return n / 1000; if (v ~ /ms$/) return n; if (v ~ /s$/) return n * 1000; return n }
    /Requests\/sec/ { rps = $2 } $1 == "50%" { p50 = ms($2) } $1 == "99%" { p99 = ms($2) }
    END { printf "%s %.3f %.3f\n", rps, p50, p99 }'
}
