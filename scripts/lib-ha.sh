# The parts scripts/ha-switch.sh and scripts/ha-reports.sh share, sourced by
# them (not run): the build, Patroni's cluster (scripts/pg-ha.sh), three
# `sabot serve` nodes on its multi-host DSN, their checks and the cleanup.
#
#   . scripts/lib-ha.sh
#   ha_init NAME          # cd to the repository, build sabot, start the cluster
#   ha_start_nodes WAIT [serve flags…]
#   ha_alive; ha_metric_sum PATTERN; ha_fail MESSAGE
#
# ha_init sets: BASE (exported; default 26430, as scripts/pg-ha.sh), nodes
# (NODE_PORT, default 18280: the nodes listen on +1..+3), dir (HA_DIR, default
# /tmp/sabot-NAME: the cluster's), work (HA_WORK, default a new
# /tmp/sabot-NAME-work.XXXXXX: the logs, kept), bin (sabot built there), dsn
# and standby (the primary's multi-host DSN and the standby's), and exports
# SABOT_SEED_KEY, SABOT_ADMIN_PASSWORD and SABOT_METRICS_TOKEN (GET /metrics
# is private: the nodes answer it to this token only). pids holds the
# processes the cleanup stops (the nodes first, then whatever the script
# adds); urls the nodes' addresses, list the same comma-separated.

ha_init() { # ha_init NAME
  local name=$1
  cd "$(dirname "${BASH_SOURCE[0]}")/.."
  export BASE=${BASE:-26430}
  nodes=${NODE_PORT:-18280}
  dir=${HA_DIR:-/tmp/sabot-$name}
  work=${HA_WORK:-$(mktemp -d "/tmp/sabot-$name-work.XXXXXX")}
  mkdir -p "$work"
  echo "the nodes' and the clients' logs: $work; the cluster's: $dir"
  pids=(); urls=(); list=
  trap ha_cleanup EXIT
  trap "exit 1" TERM INT
  bin="$work/sabot"
  go build -o "$bin" ./cmd/sabot
  scripts/pg-ha.sh start "$dir" >/dev/null
  # shellcheck disable=SC1091
  . "$dir/env"
  dsn=$SABOT_HA_PRIMARY_DSN standby=$SABOT_HA_STANDBY_DSN
  SABOT_SEED_KEY=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
  export SABOT_SEED_KEY SABOT_ADMIN_PASSWORD="$name-password"
  export SABOT_METRICS_TOKEN="$name-metrics-$RANDOM$RANDOM$RANDOM"
}

ha_fail() { # ha_fail MESSAGE: say what failed, and where to look; exit 1
  echo "FAIL: $*" >&2
  local f n
  for f in "$work"/node*.log; do
    [ -f "$f" ] || continue
    echo "--- the last warnings of $f" >&2
    grep -E '"level":"(WARN|ERROR)"' "$f" | tail -5 | cut -c1-300 >&2 || true
  done
  [ -f "$work/bots.out" ] && echo "--- bots: $(tail -3 "$work/bots.out" "$work/bots.err" 2>/dev/null | tr '\n' ' ')" >&2
  for n in 1 2; do
    [ -f "$dir/patroni$n.log" ] && { echo "--- $dir/patroni$n.log" >&2; tail -4 "$dir/patroni$n.log" | cut -c1-300 >&2; }
  done
  echo "logs kept in $work and $dir" >&2
  exit 1
}

ha_cleanup() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  scripts/pg-ha.sh stop "$dir" >/dev/null 2>&1 || true
}

ha_start_nodes() { # ha_start_nodes WAIT [serve flags…]: three nodes on $dsn, each serving within WAIT seconds
  local wait=$1 i port up
  shift
  for i in 1 2 3; do
    port=$((nodes + i))
    "$bin" serve --db "$dsn" --addr "127.0.0.1:$port" --admin pit --bcrypt-cost 4 --default-tables=false \
      --register-burst 100000 --log-format json "$@" 2>"$work/node$i.log" >/dev/null &
    pids+=($!); urls+=("http://127.0.0.1:$port")
    up=
    for _ in $(seq 1 $((wait * 10))); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && { up=1; break; }; sleep 0.1; done
    [ -n "$up" ] || ha_fail "node $i not serving on port $port after $wait s"
  done
  list=$(IFS=,; echo "${urls[*]}")
}

ha_alive() { # every node still runs: one that died takes its counters with it
  local i
  for i in 0 1 2; do
    kill -0 "${pids[$i]}" 2>/dev/null || ha_fail "node $((i + 1)) died: $(grep -m1 -A3 '^panic' "$work/node$((i + 1)).log" | tr '\n' ' ' | cut -c1-300)"
  done
}

ha_metric_sum() { # ha_metric_sum PATTERN [SECONDS]: a metric's line (an awk pattern) summed over the nodes (one that does not answer within SECONDS, default 2, counts 0)
  local sum=0 v u
  for u in "${urls[@]}"; do
    v=$(curl -s --max-time "${2:-2}" -H "Authorization: Bearer $SABOT_METRICS_TOKEN" "$u/metrics" 2>/dev/null | awk "$1 {print \$2}" || true)
    sum=$(awk -v a="$sum" -v b="${v:-0}" 'BEGIN {printf "%.0f", a + b}')
  done
  echo "$sum"
}
