#!/usr/bin/env bash
# The table server's CPU per decision, measured from outside: a fresh
# `sabot serve`, `sabot bots` playing against it, the server's and the bots'
# CPU read from /proc while they play (after the bots have registered and sat
# down), the decisions counted from the server's own /metrics, and a CPU
# profile of the same window (go tool pprof) attributed to the server's
# subsystems (scripts/cpu-by-subsystem.sh), a heap profile at its end and
# another once the bots have played (heap-end.pprof). Not a test: a measurement, run by
# hand (docs/server.md, "Where the CPU goes").
#
#   scripts/cpu-per-decision.sh [--store disk|shm|postgres] [--tables N]
#       [--players N] [--rounds N] [--think D] [--warm S] [--window S] [--bin PATH]
#
# --store postgres uses $SABOT_TEST_POSTGRES (a fresh schema each run is up to
# the caller: the script drops and recreates the database's tables by using a
# new database name if $SABOT_PERF_PG_DB is set). Prints one line of figures
# and leaves the profile in $OUT (default /tmp/sabot-perf).
set -euo pipefail
store=disk tables=30 players=7 rounds=12 think=500ms warm=12 window=20 bin=
while [ $# -gt 0 ]; do
  case "$1" in
    --store) store=$2; shift 2 ;;
    --tables) tables=$2; shift 2 ;;
    --players) players=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --think) think=$2; shift 2 ;;
    --warm) warm=$2; shift 2 ;;
    --window) window=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    *) echo "cpu-per-decision.sh: unknown flag $1" >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/.."
out="${OUT:-/tmp/sabot-perf}"
mkdir -p "$out"
if [ -z "$bin" ]; then
  bin="$out/sabot"
  go build -o "$bin" ./cmd/sabot
fi
case "$store" in
  disk) db="$out/load.db"; rm -f "$db" "$db"-* ;;
  shm) db="/dev/shm/sabot-perf.db"; rm -f "$db" "$db"-* ;;
  postgres)
    db="${SABOT_TEST_POSTGRES:?--store postgres needs SABOT_TEST_POSTGRES}" ;;
  *) echo "cpu-per-decision.sh: --store disk, shm or postgres" >&2; exit 2 ;;
esac
export SABOT_ADMIN_PASSWORD=adminpassword
# GET /metrics is private: the server answers it to this token only.
export SABOT_METRICS_TOKEN="${SABOT_METRICS_TOKEN:-perf-metrics-token-$RANDOM$RANDOM}"
port=$((18200 + RANDOM % 500)) dport=$((16200 + RANDOM % 500))
"$bin" serve --addr 127.0.0.1:$port --db "$db" --admin admin --bcrypt-cost 4 --bet-window 2s \
  --debug-addr 127.0.0.1:$dport >"$out/serve.log" 2>&1 &
spid=$!
trap 'kill $spid 2>/dev/null; wait $spid 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -fs "http://127.0.0.1:$port/api/tables" >/dev/null 2>&1 && break
  sleep 0.1
done
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
decisions() {
  curl -fs -H "Authorization: Bearer $SABOT_METRICS_TOKEN" "http://127.0.0.1:$port/metrics" | awk '/^sabot_decisions_total\{by="player"\}/ {n = $2} END {print n + 0}'
}
"$bin" bots --url "http://127.0.0.1:$port" --admin admin --tables "$tables" --players "$players" \
  --rounds "$rounds" --think "$think" >"$out/bots.log" 2>&1 &
bpid=$!
trap 'kill $bpid $spid 2>/dev/null; wait $spid 2>/dev/null || true' EXIT
# The window opens --warm seconds after the first decision (700 bots take
# a while to register, credit and sit down).
for _ in $(seq 600); do
  [ "$(decisions)" != 0 ] && break
  kill -0 $bpid 2>/dev/null || { echo "cpu-per-decision.sh: the bots ended before a decision" >&2; cat "$out/bots.log" >&2; exit 1; }
  sleep 0.5
done
sleep "$warm"
s1=$(ticks $spid) b1=$(ticks $bpid) d1=$(decisions)
curl -fs "http://127.0.0.1:$dport/debug/pprof/profile?seconds=$window" -o "$out/cpu.pprof"
s2=$(ticks $spid) b2=$(ticks $bpid) d2=$(decisions)
rss=$(awk '/VmHWM/ {print $2}' "/proc/$spid/status")
curl -fs "http://127.0.0.1:$dport/debug/pprof/heap" -o "$out/heap.pprof" || true
wait $bpid || true
rss_end=$(awk '/VmHWM/ {print $2}' "/proc/$spid/status")
curl -fs "http://127.0.0.1:$dport/debug/pprof/heap?gc=1" -o "$out/heap-end.pprof" || true
hz=$(getconf CLK_TCK)
python3 - "$store" "$tables" "$players" "$think" "$window" "$s1" "$s2" "$b1" "$b2" "$d1" "$d2" "$hz" "$rss" "$rss_end" <<'PY'
import sys
store, tables, players, think, window = sys.argv[1:6]
s1, s2, b1, b2, d1, d2, hz, rss, rss_end = (float(x) for x in sys.argv[6:15])
d = d2 - d1
if d <= 0:
    sys.exit("cpu-per-decision.sh: no decision in the window (see the bots' log)")
print(f"store={store} tables={tables} players={players} think={think} window={window}s "
      f"decisions={int(d)} decisions/s={d/float(window):.0f} "
      f"server_ms/decision={(s2-s1)/hz*1000/d:.3f} bots_ms/decision={(b2-b1)/hz*1000/d:.3f} "
      f"server_peak_rss={rss/1024:.0f}MiB (after the bots: {rss_end/1024:.0f}MiB)")
PY
tail -2 "$out/bots.log"
scripts/cpu-by-subsystem.sh --decisions "$(python3 -c "print($d2 - $d1)")" --bin "$bin" "$out/cpu.pprof"
echo "profiles: go tool pprof -top $bin $out/cpu.pprof (and $out/heap.pprof, at the window's end)"
