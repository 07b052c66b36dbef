#!/usr/bin/env bash
# The switch of PostgreSQL's primary under play (docs/server.md,
# "PostgreSQL in high availability"): Patroni on etcd with a synchronous
# standby (scripts/pg-ha.sh), three `sabot serve` nodes on the multi-host DSN
# (target_session_attrs=read-write), `sabot bots` over the three; then KILLS
# times the primary's machine dies (kill -9 of its Patroni and its
# PostgreSQL), the standby is promoted, and the dead one comes back as the
# new standby.
#
#   scripts/ha-switch.sh [KILLS] [TABLES] [THINK]     default 5 6 100ms
#
# Prints, for each kill, the seconds until decisions flow again (the first
# decision the nodes count after it), then their p50 and max; the bots'
# decisions acknowledged (their event came back) against the players'
# decisions in the log (none missing: the log holds at least every
# acknowledged one), the rounds dealt twice (0), and `sabot ledger check`.
# Exits 1, naming what failed and the tails of the logs, if a check fails or
# a wait runs out: 120 s for decisions to flow again after a kill, 120 s for
# a synchronous standby. Ports: BASE (default 26430) as scripts/pg-ha.sh,
# NODE_PORT+1..+3 (default 18281-18283) for the nodes. HA_DIR is the
# cluster's directory, HA_WORK the nodes' and the bots' logs (kept).
set -euo pipefail
kills=${1:-5}; tables=${2:-6}; think=${3:-100ms}
# shellcheck source=scripts/lib-ha.sh
. "$(dirname "$0")/lib-ha.sh"
ha_init ha-switch
fail() { ha_fail "$@"; }
ha_start_nodes 30
decisions() { # the players' decisions the nodes applied, summed (a node that does not answer counts 0: see alive)
  ha_metric_sum '/^sabot_decisions_total\{by="player"\}/' 1
}
alive() { ha_alive; }
# The bots play until the kills are done (SIGINT: they print their report);
# the timeout only bounds a run that hangs.
timeout=$((kills * 300 + 600))
"$bin" bots --url "$list" --admin pit --tables "$tables" --players 5 --rounds 100000 --think "$think" \
  --profile venice --stake 100 --timeout "${timeout}s" >"$work/bots.out" 2>"$work/bots.err" &
bots=$!; pids+=("$bots")
started=
for _ in $(seq 600); do [ "$(decisions)" -gt 50 ] && { started=1; break; }; sleep 0.2; done
[ -n "$started" ] || fail "the nodes counted no 50 decisions within 2 minutes of the bots' start (now $(decisions))"
times=()
for k in $(seq 1 "$kills"); do
  scripts/pg-ha.sh synced "$dir" || fail "no synchronous standby within 120 s before kill $k"
  before=$(decisions)
  for _ in $(seq 100); do [ "$(decisions)" -gt "$before" ] && break; sleep 0.1; done # play flows
  lead=$(scripts/pg-ha.sh primary "$dir") || fail "no primary before kill $k"
  t0=$(date +%s.%N)
  scripts/pg-ha.sh crash "${lead#pg}" "$dir"
  sleep 0.5 # what was committed before the kill is counted by now
  base=$(decisions)
  while [ "$(decisions)" -le "$base" ]; do
    sleep 0.1
    if awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN {exit !(a - b > 120)}'; then fail "kill $k ($lead): no decision within 120 s"; fi
  done
  t1=$(date +%s.%N)
  s=$(awk -v a="$t1" -v b="$t0" 'BEGIN {printf "%.2f", a - b}')
  times+=("$s")
  echo "kill $k: $lead killed; decisions flow again after ${s}s (now $(scripts/pg-ha.sh primary "$dir") leads)"
  scripts/pg-ha.sh revive "${lead#pg}" "$dir"
  alive
done
scripts/pg-ha.sh synced "$dir" || true
alive
# SIGINT stops the bots where they are: they print the report of what they
# played and exit 0 (a signal's stop is no failure of theirs).
kill -INT "$bots" 2>/dev/null || true
botsrc=0; wait "$bots" 2>/dev/null || botsrc=$?
sorted=$(printf '%s\n' "${times[@]}" | sort -g)
n=${#times[@]}
p50=$(echo "$sorted" | sed -n "$(( (n + 1) / 2 ))p")
max=$(echo "$sorted" | tail -1)
echo "switches: $n; seconds until decisions flow again: p50 $p50, p99 (the max of $n) $max"
# Every decision a bot saw acknowledged (its event came back) is in the
# log, and so is every one the nodes counted applied (the counter counts a
# decision whose append returned committed). The three counts differ, none
# missing: the log's players' decisions (not their declines, which neither
# the bots nor the counter count) also hold those committed whose answer
# was lost (the connection cut in the commit: answered 503, sent again
# under their command ID and answered from the log, counted by no node)
# and those the bots sent before the SIGINT and never saw answered.
q() { psql "$dsn" -Atqc "$1"; }
counted=$(decisions)
acked=$(awk '/^tables / {for (i = 1; i < NF; i++) if ($i == "decisions") print $(i + 1)}' "$work/bots.out")
[ -n "$acked" ] || fail "the bots printed no report: $(cat "$work/bots.err")"
grep -q '^decisions/s .* p99 ' "$work/bots.out" || fail "the bots' report on SIGINT has no latency line: $(cat "$work/bots.out")"
[ "$botsrc" = 0 ] || fail "the bots exited $botsrc on SIGINT: $(tail -3 "$work/bots.err")"
logged=$(q "SELECT COUNT(*) FROM log WHERE kind = 'action' AND client_id <> '' AND NOT COALESCE((payload::jsonb ->> 'decline')::boolean, false)")
declines=$(q "SELECT COUNT(*) FROM log WHERE kind = 'action' AND client_id <> '' AND COALESCE((payload::jsonb ->> 'decline')::boolean, false)")
twice=$(q "SELECT COUNT(*) FROM (SELECT table_id, round_no FROM log WHERE kind = 'deal' GROUP BY 1, 2 HAVING COUNT(*) > 1) d")
echo "decisions acknowledged to the bots: $acked (the nodes counted $counted applied); players' decisions in the log: $logged (and $declines declines); missing: $(( acked > logged ? acked - logged : 0 ))"
cat "$work/bots.out"
echo "rounds dealt twice: $twice"
ledger=$("$bin" ledger check --db "$dsn" 2>&1) || true
echo "$ledger" | head -1
[ "$acked" -le "$logged" ] || fail "$(( acked - logged )) acknowledged decisions missing from the log"
[ "$counted" -le "$logged" ] || fail "$(( counted - logged )) decisions the nodes applied missing from the log"
[ "$twice" = 0 ] || fail "$twice rounds dealt twice"
echo "$ledger" | grep -q "^the ledger balances" || fail "the ledger does not balance: $ledger"
echo "ok: the switch of primary under play"
