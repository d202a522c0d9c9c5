#!/usr/bin/env bash
# make demo: builds the server, seeds the wallet directory and a demo project into
# var/sigil.db (SQLite), runs the server, a local dev chain (anvil, chain id 31337), the dev
# Solana runtime (devsolana/, litesvm) and Bitcoin regtest node (devbitcoin/, bcoin), a local
# mail sink (the embedded wallet's login codes and device links land there; the demo page shows
# its inbox) and the demo host page. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

API_PORT="${SIGIL_DEMO_API_PORT:-8080}"
CHAIN_PORT="${SIGIL_DEMO_CHAIN_PORT:-8545}"
FRAME_PORT="${SIGIL_DEMO_FRAME_PORT:-8081}"
SMTP_PORT="${SIGIL_DEMO_SMTP_PORT:-2525}"
MAIL_PORT="${SIGIL_DEMO_MAIL_PORT:-8025}"
IDP_PORT="${SIGIL_DEMO_IDP_PORT:-8082}"
SOLANA_PORT="${SIGIL_DEMO_SOLANA_PORT:-8899}"
BITCOIN_PORT="${SIGIL_DEMO_BITCOIN_PORT:-3002}"
DEMO_PORT=5173
HAS_WEB_DEMO=0
[ -f web/apps/demo/package.json ] && HAS_WEB_DEMO=1
export SIGIL_DATABASE_URL="${SIGIL_DATABASE_URL:-sqlite://var/sigil.db}"

cargo build --locked -p sigil-server
SIGIL="${CARGO_TARGET_DIR:-target}/debug/sigil"
mkdir -p var
# The embedded wallets' key-encryption key: made once, kept apart from the database.
[ -s var/kek ] || { (umask 077; $SIGIL keys new-kek > var/kek); }
$SIGIL wallets import data/wallets.json | head -n 1
if [ ! -s var/demo-project-id ]; then
  $SIGIL project add --name "Sigil demo" --origin http://localhost:5173 --origin http://127.0.0.1:5173 > var/demo-project-id
fi
PROJECT_ID="$(cat var/demo-project-id)"

pids=()
# npm and vite start children of their own: stop whole process trees.
kill_tree() { local c; for c in $(pgrep -P "$1" || true); do kill_tree "$c"; done; kill "$1" 2>/dev/null || true; }
cleanup() { for p in "${pids[@]}"; do kill_tree "$p"; done; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

ANVIL="$(bash scripts/anvil.sh)"
"$ANVIL" --host 127.0.0.1 --port "$CHAIN_PORT" --chain-id 31337 --hardfork prague --silent --max-persisted-states 0 &
pids+=($!)
wait_rpc "http://127.0.0.1:$CHAIN_PORT/"
[ -d devchain/node_modules ] || (cd devchain && npm ci --no-audit --no-fund)
# Account names (sigil.id) resolve through the server's CCIP-read gateway.
node devchain/deploy.mjs --rpc "http://127.0.0.1:$CHAIN_PORT" --out var/devchain.json \
  --names-gateway "http://127.0.0.1:$API_PORT/v1/profile/gateway/{sender}/{data}.json" >/dev/null

# The other chain families: Solana (litesvm) and Bitcoin regtest (bcoin), each printing one JSON
# line (its URL and CAIP-2 id) once it listens. npm install for devsolana: see scripts/test.sh.
[ -d devsolana/node_modules ] || (cd devsolana && npm install --no-audit --no-fund)
[ -d devbitcoin/node_modules ] || (cd devbitcoin && npm ci --no-audit --no-fund)
node devsolana/server.mjs --port "$SOLANA_PORT" > var/devsolana.log 2>&1 &
pids+=($!)
node devbitcoin/server.mjs --port "$BITCOIN_PORT" > var/devbitcoin.log 2>&1 &
pids+=($!)
json_line() {
  local i
  for i in $(seq 1 600); do
    grep -m1 '^{' "$1" 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || { cat "$1" >&2; return 1; }
    sleep 0.1
  done
  echo "timed out waiting for $1" >&2
  return 1
}
DEV_SOLANA="$(json_line var/devsolana.log "${pids[-2]}")"
DEV_BITCOIN="$(json_line var/devbitcoin.log "${pids[-1]}")"
# The server's chains: the built-in list plus these two (balances, RPC proxy, sign-in).
DEV_SOLANA="$DEV_SOLANA" DEV_BITCOIN="$DEV_BITCOIN" node -e '
  const fs = require("fs");
  const sol = JSON.parse(process.env.DEV_SOLANA), btc = JSON.parse(process.env.DEV_BITCOIN);
  const tokens = sol.mints.map((m) => `{ address = "${m.address}", symbol = "${m.symbol}", name = "${m.name}", decimals = ${m.decimals} }`).join(", ");
  fs.writeFileSync("var/chains.toml", `${fs.readFileSync("config/chains.toml", "utf8")}
[[chains]]
id = "${sol.caipNetworkId}"
name = "Sigil Solana Dev"
testnet = true
rpc = ["${sol.url}"]
native = { name = "Solana", symbol = "SOL", decimals = 9 }
tokens = [${tokens}]

[[chains]]
id = "${btc.caipNetworkId}"
name = "Bitcoin Regtest"
testnet = true
rpc = []
esplora = "${btc.url}"
native = { name = "Bitcoin", symbol = "BTC", decimals = 8 }
`);'
SOLANA_CHAIN="$(node -e 'console.log(JSON.parse(process.argv[1]).caipNetworkId)' "$DEV_SOLANA")"
BITCOIN_CHAIN="$(node -e 'console.log(JSON.parse(process.argv[1]).caipNetworkId)' "$DEV_BITCOIN")"

[ -d web/node_modules ] || (cd web && npm ci --no-audit --no-fund)
# The local mail sink (npm smtp-server, from web/node_modules): SMTP for the server, an inbox for the page.
node web/e2e/mail-sink.mjs --smtp-port "$SMTP_PORT" --http-port "$MAIL_PORT" &
pids+=($!)
wait_http "http://127.0.0.1:$MAIL_PORT/health"
# Social login against a local OpenID Connect / OAuth 2 provider (devidp/: any login name, any
# password) standing in for Google (by its issuer) and GitHub (by its endpoints); Farcaster
# against the dev chain's ID registry.
[ -d devidp/node_modules ] || (cd devidp && npm ci --no-audit --no-fund)
node devidp/idp.mjs --port "$IDP_PORT" --redirect "http://127.0.0.1:$FRAME_PORT/wallet/v1/social/callback" >/dev/null &
pids+=($!)
wait_http "http://127.0.0.1:$IDP_PORT/.well-known/openid-configuration"
cat > var/socials.toml <<TOML
[[provider]]
id = "google"
client_id = "sigil-google"
client_secret = "google-secret-for-tests"
issuer = "http://127.0.0.1:$IDP_PORT"

[[provider]]
id = "github"
client_id = "sigil-github"
client_secret = "github-secret-for-tests"
auth_url = "http://127.0.0.1:$IDP_PORT/auth"
token_url = "http://127.0.0.1:$IDP_PORT/token"
user_url = "http://127.0.0.1:$IDP_PORT/me"
scopes = ["openid", "email", "profile"]
fields = { id = "/sub", username = "/preferred_username", email = "/email", email_verified = "/email_verified" }
TOML
FARCASTER_REGISTRY="$(node -e 'console.log(require("./var/devchain.json").farcaster.idRegistry)')"
# The embedded wallet's frame page, served by the server on its frame origin.
(cd web && npm run build -w @sigil/frame)

# Deposits from an exchange: the sandbox exchange (a page of the server's own, in an exchange's
# place) deposits from a development key of Sigil's own, funded here with 1000 dev-chain ETH.
PAY_SANDBOX_KEY=f1ddd47091b30789fce9de25b7576edfa10917071c594c6d2da3ae00cd1fece3
PAY_SANDBOX_ADDRESS=0xfc276b622053EF94D3D68F2866Ce858605209eD8
node -e 'fetch(process.argv[1], { method: "POST", headers: { "content-type": "application/json" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_setBalance", params: [process.argv[2], "0x3635c9adc5dea00000"] }) })
  .then((r) => r.json()).then((r) => { if (r.error) { console.error(r.error); process.exit(1) } })' "http://127.0.0.1:$CHAIN_PORT/" "$PAY_SANDBOX_ADDRESS"

# Buying with a card: the sandbox provider (a page of the server's own, in a real provider's
# place) pays what is bought from anvil's account 9, a well-known development key.
# The names gateway signs with devchain/deploy.mjs's DEV_NAMES_SIGNER_KEY (public, dev only).
SIGIL_ONRAMP_SANDBOX_KEY=2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6 \
SIGIL_PAY_SANDBOX_KEY="$PAY_SANDBOX_KEY" \
SIGIL_NAMES_SIGNER_KEY=3cd2e9b3a2fcc4dd50078cb0011b92ee4b4075d95e83f586e3f2288cb3dd7858 \
$SIGIL serve --listen "127.0.0.1:$API_PORT" --chains var/chains.toml --dev-deployment var/devchain.json \
  --frame-listen "127.0.0.1:$FRAME_PORT" --kek-file var/kek \
  --smtp-host 127.0.0.1 --smtp-port "$SMTP_PORT" --smtp-tls none \
  --socials var/socials.toml --farcaster-chain eip155:31337 --farcaster-id-registry "$FARCASTER_REGISTRY" \
  --nfts-ipfs-gateway "http://127.0.0.1:$DEMO_PORT/ipfs/" --nfts-allow-private-hosts --names-zones sigil.id &
pids+=($!)
wait_http "http://127.0.0.1:$API_PORT/health"

if [ "$HAS_WEB_DEMO" = 1 ]; then
  [ -d web/node_modules ] || (cd web && npm ci --no-audit --no-fund)
  (cd web && npm run build)
  SGL_ADDRESS="$(node -e 'console.log(require("./var/devchain.json").tokens[0].address)')"
  (cd web && VITE_SIGIL_API_URL="http://127.0.0.1:$API_PORT" VITE_SIGIL_PROJECT_ID="$PROJECT_ID" \
     VITE_SIGIL_DEV_RPC_URL="http://127.0.0.1:$CHAIN_PORT" VITE_SIGIL_SGL_ADDRESS="$SGL_ADDRESS" \
     VITE_SIGIL_FRAME_URL="http://127.0.0.1:$FRAME_PORT" VITE_SIGIL_MAIL_URL="http://127.0.0.1:$MAIL_PORT" \
     VITE_SIGIL_SOLANA_CHAIN="$SOLANA_CHAIN" VITE_SIGIL_BITCOIN_CHAIN="$BITCOIN_CHAIN" VITE_SIGIL_SOCIALS=google,github,farcaster npm run dev -w @sigil/demo) &
  pids+=($!)
  wait_http "http://127.0.0.1:$DEMO_PORT/"
fi

cat <<MSG

Sigil is running.
MSG
[ "$HAS_WEB_DEMO" = 1 ] && cat <<MSG
  demo page    http://127.0.0.1:$DEMO_PORT   (open it in a browser with a wallet extension, or log in with any email)
               http://127.0.0.1:$DEMO_PORT/?families=eip155,solana,bip122   (EVM, Solana and Bitcoin networks and wallets)
  login idp    http://127.0.0.1:$IDP_PORT   (Continue with Google / GitHub: any login name, any password)
  mail sink    http://127.0.0.1:$MAIL_PORT/messages   (SMTP on 127.0.0.1:$SMTP_PORT; the demo page shows this inbox)
MSG
cat <<MSG
  dev chain    http://127.0.0.1:$CHAIN_PORT   (anvil, chain id 31337, 10 funded dev accounts;
               demo token SGL at $(node -e 'console.log(require("./var/devchain.json").tokens[0].address)'), 1 SGL = 2.50 USDC)
MSG
cat <<MSG
  Solana       $(node -e 'console.log(JSON.parse(process.argv[1]).url)' "$DEV_SOLANA")   (dev runtime, litesvm, $SOLANA_CHAIN; requestAirdrop funds any address)
  Bitcoin      $(node -e 'console.log(JSON.parse(process.argv[1]).url)' "$DEV_BITCOIN")   (regtest node, bcoin, Esplora API, $BITCOIN_CHAIN;
               POST /dev/mine {"address","blocks"} mines to an address)
  API server   http://127.0.0.1:$API_PORT   (OpenAPI: /openapi.json, metrics: /metrics)
  wallet frame http://127.0.0.1:$FRAME_PORT   (embedded wallets; key-encryption key in var/kek)
  projectId    $PROJECT_ID
  try          curl 'http://127.0.0.1:$API_PORT/getWallets?projectId=$PROJECT_ID&entries=3'
Press Ctrl-C to stop.
MSG
wait
