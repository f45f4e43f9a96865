#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests: initdb into a temp folder, fsync off, on a free loopback port,
# trust authentication (loopback only, nothing else can reach it), run as the `postgres` user when started as
# root (PostgreSQL refuses to run as root). Installs Debian's postgresql when no server binaries are found.
#
#   source .ci/postgres.sh && pg_start     # exports HOOT_TEST_DATABASE_URL; pg_stop stops only what pg_start started
#   .ci/postgres.sh start                  # prints `export HOOT_TEST_DATABASE_URL=…` and the folder to give to stop
#   .ci/postgres.sh stop DIR
set -uo pipefail

pg_bindir() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  if [ -z "$dir" ] || [ ! -x "$dir/initdb" ]; then
    echo "== installing PostgreSQL from Debian" >&2
    # Only the server binaries are wanted: no system-wide "main" cluster started behind our back.
    if [ ! -e /etc/postgresql-common/createcluster.conf ]; then
      mkdir -p /etc/postgresql-common && echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.conf
    fi
    (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql) >&2 || return 1
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  fi
  [ -x "$dir/initdb" ] || return 1
  echo "$dir"
}

# Runs a command as the postgres user when we are root, else as ourselves.
pg_as() {
  if [ "$(id -u)" = "0" ]; then
    su postgres -s /bin/sh -c "$(printf '%q ' "$@")"
  else
    "$@"
  fi
}

pg_free_port() {
  node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

pg_start() {
  local bin port dir
  bin=$(pg_bindir) || { echo "PostgreSQL is not available" >&2; return 1; }
  dir=$(mktemp -d /tmp/hoot-pg-XXXXXX)
  chmod 0755 "$dir"
  [ "$(id -u)" = "0" ] && chown postgres "$dir"
  pg_as "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
    || pg_as "$bin/initdb" -D "$dir/data" -U postgres -A trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; return 1; }
  for attempt in 1 2 3; do
    port=$(pg_free_port)
    if pg_as "$bin/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400 -c shared_buffers=64MB" \
      start >/dev/null; then
      export HOOT_TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
      export HOOT_TEST_PG_DIR="$dir"
      export HOOT_TEST_PG_BIN="$bin"
      echo "== PostgreSQL $("$bin/postgres" --version | grep -oE '[0-9]+(\.[0-9]+)*' | head -1) on 127.0.0.1:$port ($dir)" >&2
      return 0
    fi
  done
  cat "$dir/data/server.log" >&2
  return 1
}

pg_stop() {
  local dir=${1:-${HOOT_TEST_PG_DIR:-}} bin=${HOOT_TEST_PG_BIN:-}
  [ -n "$dir" ] && [ -d "$dir/data" ] || return 0
  [ -n "$bin" ] || bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  # pg_ctl stops the postmaster recorded in this cluster's own pid file: only the server pg_start started.
  pg_as "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1
  rm -rf "$dir"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-}" in
    start) pg_start && echo "export HOOT_TEST_DATABASE_URL=$HOOT_TEST_DATABASE_URL HOOT_TEST_PG_DIR=$HOOT_TEST_PG_DIR HOOT_TEST_PG_BIN=$HOOT_TEST_PG_BIN" ;;
    stop) pg_stop "${2:-}" ;;
    *) echo "usage: $0 start | stop DIR" >&2; exit 2 ;;
  esac
fi
