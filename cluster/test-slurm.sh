#!/usr/bin/env bash
# The cluster scripts on a real Slurm: starts a single-node Slurm on this
# machine (munged, slurmctld, slurmd on localhost with its CPUs, from a
# generated slurm.conf in a temporary directory), submits Lango's blind solve
# split into its 4 cells and a 40-game match split into 4 parts (one the
# SPRT stops early) with cluster/submit, waits for the arrays and their
# merges, and checks the merged results against the same work run in one
# process (the match at concurrency 1 and 3). It also checks that
# cluster/submit refuses options choro refuses, submitting nothing, and that
# a campaign with a failed part ends with a failed merge that says why
# rather than a merge that waits forever. Every daemon it started is stopped
# on the way out, however it ends.
#
# Needs root where slurm-wlm and munge are missing (it installs them with
# apt-get) and a release build of choro (built here if missing). No
# systemd: the daemons are started directly. WAIT (default 600) bounds the
# wait for the jobs, in seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
wait_s=${WAIT:-600}

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null || ! command -v sbatch >/dev/null; then
  echo "== installing slurm-wlm and munge"
  SUDO=""
  if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

cargo build --release -q -p choro
choro=$repo/target/release/choro

state=$(mktemp -d /tmp/choro-slurm.XXXXXX)
chmod 700 "$state"
pids=()
stop_all() {
  local rc=$?
  # Jobs first (their processes are children of slurmd), then the daemons,
  # newest first; each is waited for, a few seconds at most, then killed.
  if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ]; then
    timeout 10 scancel --user="$(id -un)" 2>/dev/null || true
  fi
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    local p=${pids[$i]}
    kill "$p" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
  done
  if [ "$rc" != 0 ]; then
    echo "== failed; the daemons' logs:" >&2
    tail -n 20 "$state"/*.log >&2 2>/dev/null || true
  fi
  rm -rf "$state"
  exit "$rc"
}
trap stop_all EXIT INT TERM

# A long command in the background, waited for: a signal then reaches the
# trap at once (bash runs traps only between foreground commands), and the
# trap stops the command with the daemons.
bounded() {
  "$@" &
  local p=$!
  pids+=("$p")
  wait "$p"
  unset 'pids[-1]'
}

# The daemons write their pid files after forking; wait for one to appear.
pid_of() {
  for _ in $(seq 100); do
    if [ -s "$1" ]; then cat "$1"; return 0; fi
    sleep 0.1
  done
  echo "no pid file $1" >&2
  return 1
}

echo "== munged"
mungekey --create --keyfile="$state/munge.key" --force
chmod 400 "$state/munge.key"
munged --force --socket="$state/munge.sock" --key-file="$state/munge.key" \
  --pid-file="$state/munged.pid" --seed-file="$state/munge.seed" --log-file="$state/munged.log"
pids+=("$(pid_of "$state/munged.pid")")

echo "== slurmctld and slurmd"
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2 / 1024 / 2)}' /proc/meminfo)
user=$(id -un)
mkdir -p "$state/ctld" "$state/d"
cat >"$state/slurm.conf" <<EOF
ClusterName=choro-test
SlurmctldHost=localhost
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$state/munge.sock
SlurmctldPort=${SLURMCTLD_PORT:-6917}
SlurmdPort=${SLURMD_PORT:-6918}
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SchedulerParameters=sched_interval=1
MessageTimeout=30
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$state/slurm.conf
slurmctld -f "$SLURM_CONF"
pids+=("$(pid_of "$state/slurmctld.pid")")
slurmd -f "$SLURM_CONF" -N localhost
pids+=("$(pid_of "$state/slurmd.pid")")
for _ in $(seq 60); do
  if sinfo -h -N -o '%T' 2>/dev/null | grep -Eq '^(idle|mixed|allocated)'; then break; fi
  sleep 1
done
sinfo -N -o '%N %T %c'

work=$state/work
mkdir -p "$work"
# Alpha-beta against random moves: the SPRT accepts H1 well before the 40th
# game, so the stop itself is compared (issue 32).
engines=(--engine name=ab "cmd=$choro" --engine name=rnd "cmd=$choro" option.Algorithm=random)
match=(--variant lango --random-blind --random-plies 2 --depth 3 --games 40 --seed 11
  --sprt elo0=0 elo1=150 "${engines[@]}")
solve=(--variant lango)

echo "== cluster/submit refuses options that choro refuses, and submits nothing"
export CHORO=$choro
if cluster/submit match 2 "$work/bad" --variant nosuch --depth 1 "${engines[@]}" 2>"$state/bad.err"; then
  echo "cluster/submit accepted --variant nosuch" >&2
  exit 1
fi
cat "$state/bad.err"
grep -q "nothing submitted" "$state/bad.err"
if [ -n "$(squeue -h -o %i)" ] || [ -e "$work/bad" ]; then
  echo "cluster/submit submitted or wrote something for refused options" >&2
  squeue
  exit 1
fi

echo "== submitting: the solve in 4 parts, the match in 4 parts, a match whose part 2 fails"
cluster/submit solve 4 "$work/solve" "${solve[@]}"
cluster/submit match 4 "$work/match" "${match[@]}"
# A choro that works where it is typed (the check passes) but fails as the
# array's task 2, as a part that dies on its node would.
printf '#!/bin/sh\nif [ "${SLURM_ARRAY_TASK_ID:-}" = 2 ]; then echo "part 2 fails on purpose" >&2; exit 1; fi\nexec "%s" "$@"\n' \
  "$choro" >"$state/choro-failing"
chmod +x "$state/choro-failing"
CHORO=$state/choro-failing cluster/submit match 2 "$work/failing" --variant lango --random-blind \
  --depth 1 --games 4 "${engines[@]}"

echo "== the same work in one process meanwhile"
bounded "$choro" solve "${solve[@]}" --threads 1 --progress 1000 >"$state/solve-whole.txt"
bounded "$choro" match "${match[@]}" --quiet >"$state/match-whole.txt"
bounded "$choro" match "${match[@]}" --quiet --concurrency 3 >"$state/match-whole-3.txt"
bounded "$choro" match "${match[@]}" --quiet --job 1/1 --out "$state/match-one.jsonl" >/dev/null

echo "== waiting for the jobs (at most $wait_s s)"
deadline=$((SECONDS + wait_s))
while [ -n "$(squeue -h -o %i)" ]; do
  if [ "$SECONDS" -ge "$deadline" ]; then
    squeue
    echo "the jobs did not finish within $wait_s s" >&2
    exit 1
  fi
  sleep 2
done
for d in solve match; do
  if [ ! -s "$work/$d/merged.txt" ]; then
    echo "no merged result of the $d; its logs:" >&2
    tail -n 20 "$work/$d"/logs/* >&2
    exit 1
  fi
done
ls "$work/solve" "$work/match"

echo "== the campaign with a failed part: its merge ended, failed, and says why"
cat "$work/failing/logs/merge.out"
if [ -e "$work/failing/merged.txt" ] || ! grep -q "parts missing of 2: 2" "$work/failing/logs/merge.out"; then
  echo "the merge after a failed part did not fail with the missing part named" >&2
  exit 1
fi

echo "== the merged solve against the whole solve"
proven() {
  grep -E '^(value|matrix|strategy) ' "$1"
  grep '^cell ' "$1" | sed -E 's/ nodes [0-9]+//'
}
diff <(proven "$state/solve-whole.txt") <(proven "$work/solve/merged.txt")
cat "$work/solve/merged.txt"

echo "== the merged match against the match in one process"
"$choro" merge "$state/match-one.jsonl" >"$state/match-one.txt"
"$choro" merge --json "$state/match-one.jsonl" >"$state/match-one.json"
cmp "$state/match-one.txt" "$work/match/merged.txt"
cmp "$state/match-one.json" "$work/match/merged.json"
# The plain match's report: the same but for its wall time on the first line;
# at concurrency 3 also but for `3 at once`. The SPRT stopped it early.
diff <(sed -E '1s/, [0-9:]+$//' "$state/match-whole.txt") "$work/match/merged.txt"
diff <(sed -E '1s/, [0-9:]+$//; 1s/3 at once/1 at once/' "$state/match-whole-3.txt") "$work/match/merged.txt"
grep -q "^stopped early: SPRT: H1 accepted" "$work/match/merged.txt"
cat "$work/match/merged.txt"
echo "== Slurm test passed"
