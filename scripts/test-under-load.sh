#!/usr/bin/env bash
# The timing-sensitive packages' tests with a CPU hog beside them: proof that
# the suite says the same on a busy machine. Runs `stress-ng --cpu N` (from
# Debian: apt-get install stress-ng) for as long as the tests run, and the
# listed packages with -count=COUNT; exits non-zero on the first failing run.
#
#   scripts/test-under-load.sh [--hog N] [--count N] [--runs N] [packages…]
#
# Defaults: a hog of 4 CPU workers on this machine's cores, -count=3, one run,
# the packages cmd/sabot, internal/server, internal/actor, internal/cluster and
# internal/webtest. The load average seen during each run is printed.
set -euo pipefail
hog=4 count=3 runs=1
while [ $# -gt 0 ]; do
  case "$1" in
    --hog) hog=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "test-under-load.sh: unknown flag $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
cd "$(dirname "$0")/.."
pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(./cmd/sabot ./internal/server ./internal/actor ./internal/cluster ./internal/webtest)
command -v stress-ng >/dev/null || { echo "test-under-load.sh: stress-ng is not installed (apt-get install stress-ng)" >&2; exit 2; }
go test -count=1 -run XXX "${pkgs[@]}" >/dev/null # build first, outside the timing
for run in $(seq "$runs"); do
  stress-ng --cpu "$hog" --timeout 0 --quiet &
  hogpid=$!
  trap 'kill $hogpid 2>/dev/null || true' EXIT
  start=$(date +%s)
  status=0
  # The README's 30 minutes a package for each of the -count runs.
  go test -count="$count" -timeout="$((30 * count))m" "${pkgs[@]}" || status=$?
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  kill $hogpid 2>/dev/null || true
  wait $hogpid 2>/dev/null || true
  echo "run $run of $runs: exit $status in $(( $(date +%s) - start )) s, load average $load, hog --cpu $hog, -count=$count"
  [ "$status" -eq 0 ] || exit "$status"
done
