#!/usr/bin/env bash
# The pit's reports on the standby beside the tables on the primary, and the
# settlements per second of three real nodes (docs/server.md, "Reports on a
# replica" and "No hot row, measured"): Patroni on etcd with a synchronous
# standby (scripts/pg-ha.sh), a synthesised year of rounds (`sabot report
# synth`) on the primary (in a database of its own, sabot_year), three `sabot serve` nodes on the multi-host DSN
# (target_session_attrs=read-write) with `--reports-db` on the standby, then
#
#   1. quiet: `sabot bots` over the three nodes for SECONDS;
#   2. beside the reports: the same bots for SECONDS while `sabot report
#      players` and `sabot report tables` over the year run in a loop on the
#      standby (read-only, --rollup=false);
#   3. settlements: `sabot bots --think 0` with SETTLE_TABLES tables of five
#      players (one player alone dealt no round in a minute) for
#      SECONDS: the rounds the three nodes settled (sabot_rounds_total
#      {result="settled"}, summed), a second.
#
#   scripts/ha-reports.sh [SECONDS] [TABLES] [ROUNDS]    default 60 4 200000
#
# Prints the decisions, decision-to-event p50/p99/max of phases 1 and 2, the
# reports' passes (and failures) in phase 2, and phase 3's settlements/s.
# Exits 1 if a node dies, a report fails on the standby, or the bots report
# errors. Ports: BASE (default 26430) as scripts/pg-ha.sh, NODE_PORT+1..+3
# (default 18281-18283). HA_DIR is the cluster's directory, HA_WORK the
# nodes', the bots' and the reports' logs (kept). SETTLE_TABLES: default 30.
# ONLY_SETTLE=1: phase 3 alone (no year, no reports).
set -euo pipefail
secs=${1:-60}; tables=${2:-4}; rounds=${3:-200000}
settle_tables=${SETTLE_TABLES:-30}
# shellcheck source=scripts/lib-ha.sh
. "$(dirname "$0")/lib-ha.sh"
ha_init ha-reports
fail() { ha_fail "$@"; }
loop=

# The year goes into a database of its own on the same cluster (sabot_year,
# streamed to the standby with the rest): the nodes serve `sabot` and never
# claim its tables (synthesised logs hold rounds, not a table's replayable
# play: a node would replay and close each of them).
lead=$(scripts/pg-ha.sh primary "$dir") || fail "no primary"
psql "postgres://postgres:postgres@127.0.0.1:$((BASE + ${lead#pg}))/postgres?sslmode=disable" -qc "CREATE DATABASE sabot_year OWNER sabot" ||
  fail "the year's database not created"
year=${dsn/\/sabot\?//sabot_year?} year_standby=${standby/\/sabot\?//sabot_year?}
if [ -z "${ONLY_SETTLE:-}" ]; then
t0=$(date +%s)
"$bin" report synth --db "$year" --rounds "$rounds" --tables 20 --writers 2 >"$work/synth.out" 2>&1 ||
  fail "report synth: $(tail -3 "$work/synth.out")"
echo "a year of $rounds rounds synthesised on the primary in $(( $(date +%s) - t0 )) s"
scripts/pg-ha.sh synced "$dir" || fail "no synchronous standby within 120 s"
# The standby has replayed the year (its reports read it all).
lsn=$(psql "$year" -Atqc "SELECT pg_current_wal_lsn()")
for _ in $(seq 600); do
  [ "$(psql "$year_standby" -Atqc "SELECT pg_last_wal_replay_lsn() >= '$lsn'::pg_lsn")" = t ] && break
  sleep 0.2
done

fi

# --rollup-every -1: the nodes do not roll the year up on the primary
# meanwhile (the reports below read the standby's logs past its rollups).
ha_start_nodes 300 --reports-db "$standby" --rollup-every -1s
alive() { ha_alive; }
settled() { # the rounds the three nodes settled, summed
  ha_metric_sum '/^sabot_rounds_total\{result="settled"\}/'
}
play() { # play NAME TABLES THINK [PLAYERS]: the bots over the three nodes for $secs s; their report in NAME.out
  local rc=0
  "$bin" bots --url "$list" --admin pit --tables "$2" --players "${4:-5}" --rounds 100000 --think "$3" \
    --profile venice --stake 100 --timeout "${secs}s" >"$work/$1.out" 2>"$work/$1.err" || rc=$?
  grep -q '^decisions/s' "$work/$1.out" || fail "$1: the bots printed no report (exit $rc): $(tail -3 "$work/$1.err")"
  grep -q ' errors 0 ' "$work/$1.out" || fail "$1: the bots' errors: $(head -1 "$work/$1.out"; tail -3 "$work/$1.err")"
}
line() { # line NAME: decisions and the decision-to-event latency of a run
  awk '/^tables / {for (i = 1; i < NF; i++) if ($i == "decisions") d = $(i + 1)}
       /^decisions\/s/ {for (i = 1; i < NF; i++) {if ($i == "p50") p50 = $(i + 1); if ($i == "p99") p99 = $(i + 1); if ($i == "max") mx = $(i + 1)}}
       END {printf "decisions %s  p50 %s  p99 %s  max %s\n", d, p50, p99, mx}' "$work/$1.out"
}

if [ -z "${ONLY_SETTLE:-}" ]; then
play quiet "$tables" 100ms
alive
echo "quiet:                 $(line quiet)  load $(cut -d' ' -f1-3 /proc/loadavg)"

# The year's reports on the standby, over and over, beside the same play.
(
  set +e
  n=0 bad=0
  while :; do
    "$bin" report players --db "$year_standby" --from 2025-11-26 --to 2026-11-26 --no-errors --rollup=false >/dev/null 2>>"$work/reports.err" || bad=$((bad + 1))
    n=$((n + 1)); echo "$n $bad" >"$work/reports.count"
    "$bin" report tables --db "$year_standby" --from 2025-11-26 --to 2026-11-26 --rollup=false >/dev/null 2>>"$work/reports.err" || bad=$((bad + 1))
    n=$((n + 1)); echo "$n $bad" >"$work/reports.count"
  done
) &
loop=$!; pids+=("$loop")
play beside "$tables" 100ms
kill "$loop" 2>/dev/null || true; wait "$loop" 2>/dev/null || true; loop=
alive
passes=0 bad=0
[ -f "$work/reports.count" ] && read -r passes bad <"$work/reports.count"
echo "beside the reports:    $(line beside)  load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "the reports on the standby: $passes of report players and report tables (in turn) over the year finished in ${secs} s, $bad failed (one more ran throughout)"
[ "$bad" = 0 ] || fail "reports failed on the standby: $(tail -3 "$work/reports.err")"

fi

before=$(settled); s0=$(date +%s.%N)
play settle "$settle_tables" 0s 5
after=$(settled); s1=$(date +%s.%N)
alive
awk -v a="$after" -v b="$before" -v t1="$s1" -v t0="$s0" -v n="$settle_tables" 'BEGIN {
  printf "settlements: %d rounds settled by the three nodes in %.1f s: %.0f/s (%d tables, 5 bots each, think 0)\n", a - b, t1 - t0, (a - b) / (t1 - t0), n }'
echo "  the bots: $(head -1 "$work/settle.out")  load $(cut -d' ' -f1-3 /proc/loadavg)"
ledger=$("$bin" ledger check --db "$dsn" 2>&1) || true
echo "$ledger" | head -1
echo "$ledger" | grep -q "^the ledger balances" || fail "the ledger does not balance: $ledger"
echo "ok: the reports on the standby and the settlements of three nodes"
