#!/usr/bin/env bash
# Decisions per second and their latency on N nodes sharing one PostgreSQL
# database, on this machine (docs/server.md, "Several nodes"):
#
#   scripts/cluster-load.sh NODES TABLES THINK [ROUNDS]
#   scripts/cluster-load.sh 3 100 500ms 20
#
# It starts NODES `sabot serve` processes on a fresh schema of
# $SABOT_TEST_POSTGRES (the database CI's .ci/run creates), runs `sabot bots`
# with 7 bots a table spread over every node, prints the bots' report, and
# stops the nodes. Needs a built ./sabot or builds one.
set -euo pipefail
export PGOPTIONS="-c client_min_messages=warning"
nodes=${1:?nodes}; tables=${2:?tables}; think=${3:?think}; rounds=${4:-20}
: "${SABOT_TEST_POSTGRES:?set SABOT_TEST_POSTGRES to a PostgreSQL URL}"
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/sabot
go build -o "$bin" ./cmd/sabot
schema="load_$$_$RANDOM"
psql "$SABOT_TEST_POSTGRES" -qc "CREATE SCHEMA $schema" >/dev/null
sep='?'; [[ $SABOT_TEST_POSTGRES == *\?* ]] && sep='&'
dsn="$SABOT_TEST_POSTGRES${sep}search_path=$schema"
export SABOT_SEED_KEY=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n') SABOT_ADMIN_PASSWORD=load-password
pids=(); urls=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  psql "$SABOT_TEST_POSTGRES" -qc "DROP SCHEMA $schema CASCADE" >/dev/null || true
}
trap cleanup EXIT
for i in $(seq 1 "$nodes"); do
  port=$((18080 + i))
  "$bin" serve --db "$dsn" --addr "127.0.0.1:$port" --admin pit --bcrypt-cost 4 --default-tables=false --metrics-public \
    --register-burst 100000 --log-format json 2>"/tmp/cluster-load-node$i.log" >/dev/null &
  pids+=($!); urls+=("http://127.0.0.1:$port")
  for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
done
list=$(IFS=,; echo "${urls[*]}")
"$bin" bots --url "$list" --admin pit --tables "$tables" --players 7 --rounds "$rounds" --think "$think" --profile venice --stake 100
"$bin" nodes --db "$dsn"
for u in "${urls[@]}"; do
  printf '%s forwarded: %s\n' "$u" "$(curl -s "$u/metrics" | grep '^sabot_forwarded_total' | tr '\n' ' ')"
done
