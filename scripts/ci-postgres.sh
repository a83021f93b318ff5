# Sourced by .ci/run: starts a throwaway PostgreSQL server for the server suite's real-PostgreSQL
# back end and exports TEST_DATABASE_URL. Best effort: without PostgreSQL binaries the suites
# still run on SQLite and PostgreSQL-in-WASM (PGlite).
ci_pg_start() {
  local initdb
  initdb=$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1)
  if [ -z "$initdb" ]; then
    echo "ci-postgres: no PostgreSQL binaries; installing postgresql with apt"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) ||
      { echo "ci-postgres: could not install PostgreSQL; the real-PostgreSQL suite is skipped"; return 0; }
    initdb=$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -n 1)
  fi
  local bin dir port=55432
  bin=$(dirname "$initdb")
  dir=$(mktemp -d /tmp/needl-ci-pg.XXXXXX)
  local runas=()
  if [ "$(id -u)" = 0 ]; then
    chown postgres "$dir" 2>/dev/null || { echo "ci-postgres: no postgres user; skipped"; return 0; }
    runas=(runuser -u postgres --)
  fi
  if "${runas[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres >/dev/null &&
    "${runas[@]}" "$bin/pg_ctl" -D "$dir/data" -o "-p $port -k $dir -c listen_addresses=127.0.0.1" -l "$dir/log" -w start >/dev/null; then
    export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
    CI_PG_STOP=("${runas[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast stop)
    echo "ci-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
  else
    echo "ci-postgres: PostgreSQL did not start (see $dir/log); the real-PostgreSQL suite is skipped"
  fi
}
ci_pg_stop() {
  if [ -n "${CI_PG_STOP+x}" ]; then "${CI_PG_STOP[@]}" >/dev/null 2>&1 || true; fi
}
