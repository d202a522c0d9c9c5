#!/usr/bin/env bash
# A throw-away PostgreSQL server for tests, from Debian's packages, on 127.0.0.1 only.
#   scripts/postgres.sh start   -> installs if needed, starts, prints the admin URL
#   scripts/postgres.sh stop
# SIGIL_PG_DURABLE=1 keeps PostgreSQL's defaults (fsync, synchronous commit) rather than turning
# them off as the tests do: the benches measure commits as a deployment makes them.
set -euo pipefail
PORT="${SIGIL_PG_PORT:-54329}"
DIR="${SIGIL_PG_DIR:-${TMPDIR:-/tmp}/sigil-test-pg-$PORT}"

# The newest installed server (the client packages alone have no pg_ctl).
bin_dir() { for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -Vr); do [ -x "$d/pg_ctl" ] && [ -x "$d/postgres" ] && { echo "$d"; return; }; done; }

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

install() {
  if [ -z "$(bin_dir)" ]; then
    echo "installing PostgreSQL from Debian's packages..." >&2
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >&2
  fi
}

FAST="-c fsync=off -c synchronous_commit=off"
[ "${SIGIL_PG_DURABLE:-}" = 1 ] && FAST=""

case "${1:-}" in
  start)
    install
    BIN="$(bin_dir)"
    if [ ! -f "$DIR/data/PG_VERSION" ]; then
      rm -rf "$DIR"; mkdir -p "$DIR/data" "$DIR/sock"
      [ "$(id -u)" = 0 ] && chown -R postgres:postgres "$DIR"
      as_pg "$BIN/initdb" -D "$DIR/data" -U postgres --auth=trust --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1 \
        || { cat "$DIR/initdb.log" >&2; exit 1; }
    fi
    if ! as_pg "$BIN/pg_ctl" -D "$DIR/data" status >/dev/null 2>&1; then
      as_pg "$BIN/pg_ctl" -D "$DIR/data" -w -l "$DIR/server.log" \
        -o "-c listen_addresses=127.0.0.1 -p $PORT -k $DIR/sock $FAST -c max_connections=300" start >&2 \
        || { cat "$DIR/server.log" >&2; exit 1; }
      # Each Rust test makes its own database and none drops it (a failed test leaves it to look
      # at); a freshly started server belongs to no run yet, so the last runs' go now.
      as_pg "$BIN/psql" -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -Atqc \
        "SELECT datname FROM pg_database WHERE datname LIKE 'sigil\_test\_%'" \
        | while read -r db; do as_pg "$BIN/dropdb" -h 127.0.0.1 -p "$PORT" -U postgres --if-exists "$db" >&2 || true; done
    fi
    echo "postgres://postgres@127.0.0.1:$PORT/postgres"
    ;;
  stop)
    BIN="$(bin_dir)"
    [ -n "$BIN" ] && [ -d "$DIR/data" ] && as_pg "$BIN/pg_ctl" -D "$DIR/data" -m fast stop >&2 || true
    ;;
  *)
    echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
