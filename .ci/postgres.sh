# Start a throw-away PostgreSQL cluster on a free loopback port; sets GATEWAY_TEST_POSTGRES_URL.
pg_bin() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do [ -x "$dir/pg_ctl" ] && { echo "$dir"; return; }; done
  dirname "$(command -v pg_ctl)"
}

start_postgres() {
  local bin port user
  bin=$(pg_bin)
  PG_DIR=$(mktemp -d /tmp/gw-pg.XXXXXX)
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  user=postgres
  id -u "$user" >/dev/null 2>&1 || useradd -r -M "$user"
  chown "$user" "$PG_DIR"
  runuser -u "$user" -- "$bin/initdb" -D "$PG_DIR/data" -U gateway --auth=trust -E UTF8 >/dev/null
  runuser -u "$user" -- "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
    -o "-k $PG_DIR -p $port -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off" start >/dev/null
  GATEWAY_TEST_POSTGRES_URL="postgresql+asyncpg://gateway@127.0.0.1:$port/postgres"
  PG_BIN=$bin
  echo "PostgreSQL ready at 127.0.0.1:$port"
}

stop_postgres() {
  [ -n "${PG_DIR:-}" ] || return 0
  runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
}
