#!/usr/bin/env bash
# Attributes a pprof profile of `sabot serve` (CPU, or allocations with
# --sample_index) to the server's subsystems: each sample goes to the
# subsystem of the innermost frame of its stack that belongs to one (so
# encoding/json under the feed is the fan-out's, under the store the
# store's; a syscall under a socket write is the sockets', under SQLite's
# file writes the store's), the collector's own work to "runtime: GC", and a
# stack with no such frame (the scheduler, idle) to "runtime: other". A
# column gives each subsystem's share spent in system calls (futex wake-ups
# included). Not a test: a measurement, run by hand (docs/server.md, "Where
# the CPU goes").
#
#   scripts/cpu-by-subsystem.sh [--decisions N] [--detail K] [--bin PATH] PROFILE [pprof flags...]
#
# --detail K lists, under the table, each subsystem's K heaviest frames (the
# innermost frame that named each sample): to check the attribution.
# --decisions N divides each subsystem's time by the decisions made in the
# profile's window (scripts/cpu-per-decision.sh passes it): ms per decision.
# Extra flags go to `go tool pprof` (e.g. --sample_index=alloc_space on a heap
# profile: the figures are then bytes).
set -euo pipefail
decisions=0 bin= show=0
while [ $# -gt 0 ]; do
  case "$1" in
    --decisions) decisions=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --detail) show=$2; shift 2 ;;
    -*) echo "cpu-by-subsystem.sh: unknown flag $1 (the profile comes first)" >&2; exit 2 ;;
    *) break ;;
  esac
done
prof=${1:?usage: cpu-by-subsystem.sh [--decisions N] [--bin PATH] PROFILE [pprof flags...]}
shift
go tool pprof -traces -lines "$@" ${bin:+"$bin"} "$prof" 2>/dev/null | python3 -c '
import re, sys
decisions, show = float(sys.argv[1]), int(sys.argv[2])

# Subsystems, tried in order on each frame from the innermost out: the first
# frame that matches any names the sample.
RULES = [
    ("timers", r"internal/actor/table_timers\.go|actor\.\(\*Table\)\.(expire|arm|stopTimer)|actor\.\(\*alarm\)"),
    ("views", r"actor\.\(\*Table\)\.(view|roundView|turn|needView|snapshotMsg|resync)\b|actor\.handView|internal/wire/view\.go"),
    ("event fan-out + JSON", r"actor\.\(\*feed\)|actor\.eventOf|actor\.\(\*Table\)\.(publish|publishRound|publishTurn)\b|actor\.\(\*Subscriber\)|internal/wire/api\.go"),
    ("decode", r"internal/wire/(decode|command|action|amount|admin)\.go|server\.\(\*Server\)\.(decodeWS|wsMessage|wsCommand|wsSessionCommand)\b|internal/server/decode\.go"),
    ("care guard", r"sabot/internal/care\.|internal/server/care\.go|StakeGuard"),
    ("rollups, sweeps, reports", r"internal/server/rollups\.go|sabot/internal/report\."),
    ("metrics", r"prometheus|internal/actor/metrics\.go|internal/server/metrics\.go"),
    ("store, SQL", r"sabot/internal/store|database/sql\.|modernc\.org/|jackc/pgx"),
    ("sockets: WebSocket, HTTP I/O", r"coder/websocket|internal/server/(ws|sockets|http|touch|limits)\.go|^net\.|^net/http\.|^bufio\.\(\*Writer\)"),
    ("rules, engine, shoe", r"^sabot/(engine|rules|shoe|card|money|analysis|table)\.|sabot/internal/(live|seal)\."),
    ("actor", r"^sabot/internal/actor\."),
    ("other sabot", r"^sabot"),
]
RULES = [(n, re.compile(p)) for n, p in RULES]
GC = re.compile(r"^runtime\.(gcBgMarkWorker|gcAssistAlloc|bgsweep|bgscavenge|gcStart|markroot|gcMarkDone|gcMarkTermination)\b")
SYS = re.compile(r"^(syscall\.(Syscall|Syscall6|RawSyscall|RawSyscall6|syscall)|internal/runtime/syscall\.Syscall6|runtime\.(futex|epollwait|usleep|write1|read|madvise|mmap|osyield))$")
UNIT = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3, "B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}

def value(s):
    m = re.match(r"^([0-9.]+)([a-zA-Z]*)$", s)
    if not m:
        return None
    return float(m.group(1)) * UNIT.get(m.group(2), 1)

unit = "ms"
totals, sys_, stacks, detail = {}, {}, [], {}
cur = None
for line in sys.stdin:
    line = line.rstrip("\n")
    if line.startswith("-----------+"):
        if cur:
            stacks.append(cur)
        cur = None
        continue
    if line.startswith("Type:"):
        t = line.split()[1]
        if t != "cpu":
            unit = "MB"
    m = re.match(r"^\s+([0-9.]+[a-zA-Z]*)\s+(\S+)", line)
    if m and value(m.group(1)) is not None and cur is None:
        cur = [value(m.group(1)), [line[m.start(2):].strip()]]
        continue
    if cur is not None and line.strip():
        cur[1].append(line.strip())
if cur:
    stacks.append(cur)
if unit == "MB":
    stacks = [[v / 1e6, f] for v, f in stacks]
total = sum(v for v, _ in stacks)
if total == 0:
    sys.exit("cpu-by-subsystem.sh: no sample in the profile")
for v, frames in stacks:
    name, where = None, "(none)"
    if any(GC.match(f.split()[0]) for f in frames):
        name = "runtime: GC"
    else:
        for f in frames:
            for n, r in RULES:
                if r.search(f):
                    name, where = n, f
                    break
            if name:
                break
    name = name or "runtime: other (scheduler, idle)"
    totals[name] = totals.get(name, 0) + v
    detail.setdefault(name, {})
    where = where.split()[0]
    detail[name][where] = detail[name].get(where, 0) + v
    if any(SYS.match(f.split()[0]) for f in frames[:6]):
        sys_[name] = sys_.get(name, 0) + v
per = "| per decision " if decisions > 0 else ""
print(f"| subsystem | {unit} | share {per}| of it in syscalls |")
print("|---|---|---" + ("|---" if decisions > 0 else "") + "|---|")
for n, v in sorted(totals.items(), key=lambda kv: -kv[1]):
    pd = f"| {v / decisions:.3f} {unit} " if decisions > 0 else ""
    print(f"| {n} | {v:.0f} | {100 * v / total:.1f} % {pd}| {100 * sys_.get(n, 0) / v:.0f} % |")
pd = f"| {total / decisions:.3f} {unit} " if decisions > 0 else ""
print(f"| all | {total:.0f} | 100 % {pd}| {100 * sum(sys_.values()) / total:.0f} % |")
if show:
    for n, v in sorted(totals.items(), key=lambda kv: -kv[1]):
        print(f"\n{n}: the innermost frames that named it")
        for f, w in sorted(detail[n].items(), key=lambda kv: -kv[1])[:show]:
            print(f"  {w:8.0f} {unit}  {f}")
' "$decisions" "$show"
