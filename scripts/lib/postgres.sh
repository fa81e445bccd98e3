# A throw-away PostgreSQL 15 cluster (Debian's `postgresql`) for the tests and for a developer's shell:
# initdb into a temporary folder, listening only on 127.0.0.1 at a free port, fsync on, password
# authentication over TCP (so a wrong password is refused, as in production). Run as the `postgres` user when
# we are root (PostgreSQL refuses to run as root), else as ourselves.
#
#   start_test_postgres   sets TESSERA_TEST_DATABASE_URL (a superuser's URL: each test suite creates and drops
#                         its own database) and TEST_POSTGRES_DIR
#   stop_test_postgres    stops the cluster and removes its folder; call it from an EXIT trap
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}

_as_cluster_owner() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_test_postgres() {
    [ -x "$PG_BIN/initdb" ] || { echo "postgres: $PG_BIN/initdb is missing; install Debian's postgresql" >&2; return 1; }
    TEST_POSTGRES_DIR=$(mktemp -d "${TMPDIR:-/tmp}/tessera-postgres.XXXXXX")
    chmod 700 "$TEST_POSTGRES_DIR"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$TEST_POSTGRES_DIR"
    local password port
    password=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
    printf '%s\n' "$password" >"$TEST_POSTGRES_DIR/password"
    [ "$(id -u)" -eq 0 ] && chown postgres: "$TEST_POSTGRES_DIR/password"
    _as_cluster_owner "$PG_BIN/initdb" -D "$TEST_POSTGRES_DIR/data" -U tessera --pwfile="$TEST_POSTGRES_DIR/password" \
        --auth-host=scram-sha-256 --auth-local=trust --encoding=UTF8 --locale=C.UTF-8 >"$TEST_POSTGRES_DIR/initdb.log" 2>&1 \
        || { cat "$TEST_POSTGRES_DIR/initdb.log" >&2; return 1; }
    rm -f "$TEST_POSTGRES_DIR/password"
    # A free port: bind port 0 and read what the kernel picked (a race with another program is unlikely and
    # shows as a failed start below).
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    # Tests run suites in parallel, each with its own database and connection pool: room for them all.
    _as_cluster_owner "$PG_BIN/pg_ctl" -D "$TEST_POSTGRES_DIR/data" -l "$TEST_POSTGRES_DIR/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $TEST_POSTGRES_DIR -c fsync=on -c max_connections=300" \
        start >/dev/null || { cat "$TEST_POSTGRES_DIR/server.log" >&2; return 1; }
    export TESSERA_TEST_DATABASE_URL="postgres://tessera:$password@127.0.0.1:$port/postgres?sslmode=disable"
    export TEST_POSTGRES_DIR
}

stop_test_postgres() {
    [ -n "${TEST_POSTGRES_DIR:-}" ] && [ -d "$TEST_POSTGRES_DIR" ] || return 0
    _as_cluster_owner "$PG_BIN/pg_ctl" -D "$TEST_POSTGRES_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$TEST_POSTGRES_DIR"
    unset TEST_POSTGRES_DIR
}
