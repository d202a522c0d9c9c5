#!/usr/bin/env bash
# Prints the path of a local EVM chain binary (anvil), installing the pinned npm package into
# var/tools on first use. The npm package ships the binary: nothing else is downloaded. The
# path is the binary itself, not npm's node wrapper, so killing it stops the chain.
# Every caller passes --max-persisted-states 0: otherwise anvil writes each state older than its
# in-memory window to ~/.foundry/anvil/tmp and never deletes it (4.4 GB after one bench run).
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=1.7.1
TOOLS=var/tools
BIN="$TOOLS/node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil"
if [ ! -x "$BIN" ] || [ "$(cat "$TOOLS/anvil.version" 2>/dev/null)" != "$VERSION" ]; then
  mkdir -p "$TOOLS"
  npm install --silent --no-audit --no-fund --no-save --prefix "$TOOLS" "@foundry-rs/anvil-linux-amd64@$VERSION" >&2
  echo "$VERSION" > "$TOOLS/anvil.version"
fi
"$BIN" --version >/dev/null
echo "$PWD/$BIN"
