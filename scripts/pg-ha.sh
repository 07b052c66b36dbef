#!/usr/bin/env bash
# PostgreSQL in high availability for sabot, on real parts (docs/server.md,
# "PostgreSQL in high availability"): one etcd, two PostgreSQL servers
# managed by Patroni (a primary and a synchronous standby, synchronous_commit
# on), and PgBouncer in transaction mode in front of the primary.
#
#   scripts/pg-ha.sh start [DIR]   start everything under DIR (default /tmp/sabot-ha);
#                                  prints the DSNs to use and writes them to DIR/env
#   scripts/pg-ha.sh stop  [DIR]   stop what start started
#   scripts/pg-ha.sh primary [DIR] the name of the node that leads now (pg1 or pg2)
#   scripts/pg-ha.sh crash N [DIR] kill -9 node pgN's Patroni and PostgreSQL: its machine dies
#   scripts/pg-ha.sh revive N [DIR] start node pgN's Patroni again (it rejoins as a standby)
#   scripts/pg-ha.sh synced [DIR]  wait (up to 120 s) until a primary has a synchronous standby streaming
#
# Ports: BASE (default 25430) + 1 and + 2 for the two PostgreSQL servers, + 3
# for PgBouncer, BASE-3000+1/+2 for Patroni's REST API, BASE-3000+9 and +10
# for etcd. PostgreSQL runs as the user postgres (it refuses root). Debian's
# packages: postgresql, patroni, etcd-server, pgbouncer.
set -euo pipefail
cmd=${1:-start}
dir=${2:-/tmp/sabot-ha}
base=${BASE:-25430}
pg1=$((base + 1)) pg2=$((base + 2)) bouncer=$((base + 3))
api=$((base - 3000))
etcd_client=$((api + 9)) etcd_peer=$((api + 10))
pgbin=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)}
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

primary() {
  for n in 1 2; do
    if curl -sf "http://127.0.0.1:$((api + n))/primary" >/dev/null 2>&1; then echo "pg$n"; return 0; fi
  done
  return 1
}

stop() {
  for f in "$dir"/pgbouncer.pid "$dir"/patroni1.pid "$dir"/patroni2.pid "$dir"/etcd.pid; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$f"
  done
  # A PostgreSQL whose Patroni was killed goes on: stop it by its data directory.
  for n in 1 2; do
    [ -f "$dir/pg$n/postmaster.pid" ] && as_pg "$pgbin/pg_ctl" -D "$dir/pg$n" -m immediate stop >/dev/null 2>&1 || true
  done
  [ -L "$dir/etcd" ] && rm -rf "$(readlink "$dir/etcd")"
  return 0
}

launch() { # launch N: node pgN's Patroni; its own PID in patroniN.pid (not runuser's)
  as_pg sh -c 'echo $$ >"$1"; exec patroni "$2"' sh "$dir/patroni$1.pid" "$dir/patroni$1.yml" >>"$dir/patroni$1.log" 2>&1 &
  for _ in $(seq 50); do [ -s "$dir/patroni$1.pid" ] && break; sleep 0.1; done
}

synced() { # Patroni itself names the other node its synchronous standby (the DCS's /sync key)
  for _ in $(seq 600); do
    if lead=$(primary); then
      other=$(( ${lead#pg} == 1 ? 2 : 1 ))
      curl -sf "http://127.0.0.1:$((api + other))/sync" >/dev/null 2>&1 && return 0
    fi
    sleep 0.2
  done
  return 1
}

case "$cmd" in
stop) stop; exit 0 ;;
primary) primary; exit $? ;;
crash)
  n=${2:?node number}; dir=${3:-/tmp/sabot-ha}
  kill -9 "$(cat "$dir/patroni$n.pid")" 2>/dev/null || true
  rm -f "$dir/patroni$n.pid"
  kill -9 "$(head -1 "$dir/pg$n/postmaster.pid")" 2>/dev/null || true
  exit 0 ;;
revive)
  n=${2:?node number}; dir=${3:-/tmp/sabot-ha}
  # The postmaster's children die with it; wait until they have.
  for _ in $(seq 100); do pgrep -f -- "-D $dir/pg$n" >/dev/null || break; sleep 0.1; done
  launch "$n"; exit 0 ;;
synced) synced; exit $? ;;
start) ;;
*) echo "usage: $0 start|stop|primary|crash N|revive N|synced [DIR]" >&2; exit 2 ;;
esac

stop
rm -rf "$dir"
mkdir -p "$dir"
chmod 755 "$dir"
[ "$(id -u)" = 0 ] && chown postgres "$dir"

# etcd's data in memory where there is /dev/shm: an fsync that takes
# seconds on a busy disk times Patroni's requests out, and a leader that
# cannot reach its DCS demotes itself (failsafe_mode below keeps it while
# it reaches its standby). A real etcd is three machines with disks.
etcd_data="$dir/etcd"
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
  etcd_data="/dev/shm/sabot-etcd-$(echo "$dir" | md5sum | cut -c1-8)"
  rm -rf "$etcd_data"
  mkdir -p "$etcd_data"; [ "$(id -u)" = 0 ] && chown postgres "$etcd_data"
  ln -sfn "$etcd_data" "$dir/etcd"
fi
as_pg sh -c 'echo $$ >"$0"; exec "$@"' "$dir/etcd.pid" etcd --name sabot-etcd --data-dir "$etcd_data" \
  --listen-client-urls "http://127.0.0.1:$etcd_client" --advertise-client-urls "http://127.0.0.1:$etcd_client" \
  --listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
  --initial-cluster "sabot-etcd=http://127.0.0.1:$etcd_peer" >"$dir/etcd.log" 2>&1 &
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$etcd_client/health" >/dev/null 2>&1 && break; sleep 0.1; done

for n in 1 2; do
  port=$((base + n))
  cat >"$dir/patroni$n.yml" <<YML
scope: sabot
namespace: /sabot-ha/
name: pg$n
restapi:
  listen: 127.0.0.1:$((api + n))
  connect_address: 127.0.0.1:$((api + n))
etcd3:
  hosts: 127.0.0.1:$etcd_client
bootstrap:
  dcs:
    # A leader's key lives 10 s; a dead primary is replaced within ttl +
    # loop_wait. Synchronous mode: a commit returns once the standby has it.
    ttl: 10
    loop_wait: 1
    retry_timeout: 4
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    synchronous_mode_strict: false
    failsafe_mode: true
    postgresql:
      use_pg_rewind: true
      parameters:
        synchronous_commit: "on"
        wal_level: replica
        hot_standby: "on"
        max_connections: 100
        max_wal_senders: 10
        max_replication_slots: 10
        wal_log_hints: "on"
        fsync: "on"
  initdb:
    - encoding: UTF8
    - locale: C
postgresql:
  listen: 127.0.0.1:$port
  connect_address: 127.0.0.1:$port
  data_dir: $dir/pg$n
  bin_dir: $pgbin
  pgpass: $dir/pgpass$n
  authentication:
    superuser: {username: postgres, password: postgres}
    replication: {username: replicator, password: replicator}
    rewind: {username: postgres, password: postgres}
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 md5
    - host all all 127.0.0.1/32 md5
  parameters:
    unix_socket_directories: $dir
tags:
  nofailover: false
  noloadbalance: false
YML
  launch "$n"
  [ "$n" = 1 ] && for _ in $(seq 300); do primary >/dev/null && break; sleep 0.2; done
done
lead=$(primary) || { echo "no primary after 60 s: see $dir/patroni1.log" >&2; exit 1; }
lport=$((base + ${lead#pg}))
# The standby streams and is the synchronous one.
for _ in $(seq 300); do
  as_pg psql -h "$dir" -p "$lport" -U postgres -d postgres -Atc \
    "SELECT 1 FROM pg_stat_replication WHERE sync_state = 'sync'" 2>/dev/null | grep -q 1 && break
  sleep 0.2
done
as_pg psql -q -h "$dir" -p "$lport" -U postgres -d postgres -v ON_ERROR_STOP=1 <<'SQL'
CREATE ROLE sabot LOGIN PASSWORD 'sabot';
CREATE DATABASE sabot OWNER sabot;
-- What PgBouncer in transaction mode cannot pass at startup: the store's
-- session defaults, set for the role (a server connection starts with them).
ALTER ROLE sabot SET idle_in_transaction_session_timeout = 2000;
ALTER ROLE sabot SET lock_timeout = 5000;
SQL

cat >"$dir/pgbouncer.ini" <<INI
[databases]
; PgBouncer's hosts are taken in turn, whichever is the primary: it names
; the leader only (after a switch, point it at the new one and RELOAD, as a
; Patroni on_role_change callback would).
sabot = host=127.0.0.1 port=$lport dbname=sabot
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $bouncer
unix_socket_dir = $dir
auth_type = plain
auth_file = $dir/userlist.txt
pool_mode = transaction
max_client_conn = 400
default_pool_size = 40
server_reset_query =
server_check_query = select 1
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
INI
echo '"sabot" "sabot"' >"$dir/userlist.txt"
if [ "$(id -u)" = 0 ]; then chown postgres "$dir"/pgbouncer.ini "$dir"/userlist.txt; fi
as_pg pgbouncer -d "$dir/pgbouncer.ini"
for _ in $(seq 50); do [ -f "$dir/pgbouncer.pid" ] && break; sleep 0.1; done

hosts="127.0.0.1:$pg1,127.0.0.1:$pg2"
standby=$(( lport == pg1 ? pg2 : pg1 ))
cat >"$dir/env" <<ENV
SABOT_HA_PRIMARY_DSN='postgres://sabot:sabot@$hosts/sabot?sslmode=disable&target_session_attrs=read-write'
SABOT_HA_STANDBY_DSN='postgres://sabot:sabot@127.0.0.1:$standby/sabot?sslmode=disable'
SABOT_HA_BOUNCER_DSN='postgres://sabot:sabot@127.0.0.1:$bouncer/sabot?sslmode=disable'
SABOT_HA_DIR='$dir'
ENV
cat "$dir/env"
