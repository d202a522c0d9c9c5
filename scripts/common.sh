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
