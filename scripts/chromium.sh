#!/usr/bin/env bash
# Makes sure Debian's Chromium is at /usr/bin/chromium for the browser tests (playwright-core
# drives it; no browser is ever downloaded). Installs the apt package when it is missing, waiting
# for another apt run to finish first.
set -euo pipefail

CHROMIUM="${SIGIL_E2E_CHROMIUM:-/usr/bin/chromium}"

have_chromium() { [ -x "$CHROMIUM" ] && "$CHROMIUM" --version >/dev/null 2>&1; }

# Another apt/dpkg run (e.g. one already installing chromium) holds the lock: wait for it.
wait_for_apt() {
  local i
  for i in $(seq 1 600); do
    pgrep -x apt >/dev/null || pgrep -x apt-get >/dev/null || pgrep -x dpkg >/dev/null || return 0
    [ $((i % 30)) = 1 ] && echo "chromium.sh: waiting for a running apt/dpkg to finish..." >&2
    sleep 1
  done
  echo "chromium.sh: apt still busy after 10 minutes" >&2
  return 1
}

if have_chromium; then
  exit 0
fi
wait_for_apt
if have_chromium; then
  exit 0
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then
  command -v sudo >/dev/null || { echo "chromium.sh: $CHROMIUM is missing; install Debian's chromium package (needs root)" >&2; exit 1; }
  SUDO="sudo"
fi
echo "chromium.sh: installing Debian's chromium (about 350 MB)..." >&2
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
have_chromium || { echo "chromium.sh: chromium still not runnable at $CHROMIUM" >&2; exit 1; }
"$CHROMIUM" --version
