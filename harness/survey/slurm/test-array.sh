#!/usr/bin/env bash
# The Slurm test of `reptest survey` sharding (issue 12, item 5), for real:
#
#   1. installs Debian's slurm-wlm and munge when missing (as root, idempotently);
#   2. builds reptest (or takes REPTEST_BIN) and fetches the protego files if missing;
#   3. starts a private single-node Slurm on localhost: munged, slurmctld and slurmd,
#      every file they use (config, key, socket, state, spool, logs, pid files) under a
#      temporary directory this script creates, listening only on the loopback address the
#      host name resolves to (127.0.0.1 here; Debian often maps it to 127.0.1.1);
#   4. runs the survey unsharded (WORK/whole), then as a Slurm job array of TASKS tasks
#      (`sbatch --array=0-(TASKS-1) --wait`) whose tasks pass no --shard, so that
#      SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT choose the shard (what is tested);
#      merges the partials (WORK/merged) and compares survey.json, README.md and
#      survey.html with the unsharded ones (`cmp`); prints each task's elapsed time and
#      peak RSS;
#   5. always stops the daemons it started (trap on EXIT) and removes the temporary
#      directory unless KEEP=1.
#
# Usage (as root, from anywhere):  bash harness/survey/slurm/test-array.sh
# Environment:
#   TASKS=4                 array tasks (at least 4)
#   REPTEST_BIN=PATH        a reptest binary to use instead of `cargo build --release -p reptest`
#   REPTEST_SURVEY_IMPLS    implementations (default: reference,rust-robotxt,rust-texting-robots)
#   REPTEST_SURVEY_INPUT    the input (default: the protego 0.7.0 test_data, fetched if missing)
#   QUERY_TIMEOUT=10        the survey's --timeout, in seconds, for the unsharded run and every
#                           task alike: generous, so that a loaded machine (4 tasks on 2 cores)
#                           times no crate query out and the comparison stays exact
#   SLURM_TEST_TIMEOUT=900  seconds the array job may take (sbatch --wait is killed after)
#   SLURMCTLD_PORT=16817, SLURMD_PORT=16818   first ports tried (the next free ones are taken)
#   KEEP=1                  keep the temporary directory (logs, outputs) and print its path
# Exit status: 0 when the merged outputs are byte-identical to the unsharded ones; non-zero
# with a message saying what failed otherwise.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
state="${REPTEST_STATE:-$repo/harness/external/.state}"
TASKS="${TASKS:-4}"
IMPLS="${REPTEST_SURVEY_IMPLS:-reference,rust-robotxt,rust-texting-robots}"
INPUT="${REPTEST_SURVEY_INPUT:-$state/survey/protego-0.7.0/test_data}"
JOB_TIMEOUT="${SLURM_TEST_TIMEOUT:-900}"
QUERY_TIMEOUT="${QUERY_TIMEOUT:-10}"
KEEP="${KEEP:-0}"

say() { printf 'slurm-test: %s\n' "$*"; }
die() { printf 'slurm-test: FAILED: %s\n' "$*" >&2; exit 1; }
now() { date +%s.%N; }
# seconds since $1 (a `now`), with one decimal
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

t_start="$(now)"
if ! [[ "$TASKS" =~ ^[0-9]+$ ]] || [ "$TASKS" -lt 4 ]; then
  die "TASKS must be a number >= 4 (got '$TASKS')"
fi
[ "$(id -u)" -eq 0 ] || die "run as root (it installs packages and runs slurmd, which runs jobs as root)"

# ---------------------------------------------------------------------------------------
# 1. Packages. The check is on the programs the test runs, so a second run installs
# nothing. On a machine without systemd (a container), the packages' maintainer scripts
# would start Debian's own munged/slurmd through invoke-rc.d; a policy-rc.d that answers
# 101 ("action not allowed") for the duration of the install prevents that (Docker images
# ship one already; one we create is removed right after).
# ---------------------------------------------------------------------------------------
have_slurm() {
  local p
  for p in munged munge unmunge slurmctld slurmd sbatch sinfo squeue scancel scontrol; do
    command -v "$p" >/dev/null 2>&1 || return 1
  done
}
if have_slurm; then
  say "slurm-wlm and munge: already installed"
else
  command -v apt-get >/dev/null 2>&1 || die "slurm-wlm/munge missing and no apt-get"
  made_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\n# reptest slurm test: no service starts while installing\nexit 101\n' \
      >/usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    made_policy=1
  fi
  say "installing slurm-wlm and munge"
  install_rc=0
  {
    apt-get update &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        -o DPkg::Lock::Timeout=300 slurm-wlm munge
  } || install_rc=$?
  [ -z "$made_policy" ] || rm -f /usr/sbin/policy-rc.d
  [ "$install_rc" -eq 0 ] || die "apt-get install slurm-wlm munge (exit $install_rc)"
  have_slurm || die "slurm-wlm/munge installed but their programs are not on PATH"
fi
say "$(slurmctld -V), $(munged --version 2>&1 | head -n 1)"

# ---------------------------------------------------------------------------------------
# 2. reptest, once, and the input (before any daemon starts: a build can take minutes).
# ---------------------------------------------------------------------------------------
if [ -n "${REPTEST_BIN:-}" ]; then
  bin="$REPTEST_BIN"
else
  say "cargo build --release -p reptest"
  (cd "$repo" && cargo build --release -q -p reptest) || die "cargo build --release -p reptest"
  bin="${CARGO_TARGET_DIR:-$repo/target}/release/reptest"
fi
[ -x "$bin" ] || die "no reptest binary at $bin"
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"   # absolute, for the batch script
if [ ! -e "$INPUT" ] && [ -z "${REPTEST_SURVEY_INPUT:-}" ]; then
  say "fetching the protego files: bash harness/external/setup survey-data"
  bash "$repo/harness/external/setup" survey-data || die "bash harness/external/setup survey-data"
fi
[ -e "$INPUT" ] || die "no input at $INPUT"
say "reptest $("$bin" --version | awk '{ print $NF }'), input $INPUT, --impl $IMPLS"

# ---------------------------------------------------------------------------------------
# The temporary directory, and the cleanup that always runs (set before any daemon starts).
# ---------------------------------------------------------------------------------------
tmp="$(mktemp -d "${TMPDIR:-/tmp}/reptest-slurm.XXXXXX")"
# munged wants every directory above its socket searchable by all (the clients of any
# user must reach it) and none writable by others: 0711 here, 0755 for its own directory.
chmod 711 "$tmp"
etc="$tmp/etc" run="$tmp/run" logs="$tmp/log" work="$tmp/work"
mkdir -p "$etc" "$run" "$logs" "$work" "$tmp/state" "$tmp/spool"
mkdir -m 755 "$tmp/munge"
conf="$etc/slurm.conf"
export SLURM_CONF="$conf"   # every Slurm command below reads our configuration
# Nothing of the caller's Slurm or Kubernetes context may leak into the jobs or the whole run.
unset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_JOB_ID JOB_COMPLETION_INDEX \
  REPTEST_SHARD_COUNT

jobid="" sbatch_pid=""
# stop_pid NAME PIDFILE: SIGTERM, wait up to 15 s, then SIGKILL and wait up to 5 s more.
stop_pid() {
  local name=$1 pidfile=$2 pid i
  [ -s "$pidfile" ] || return 0
  pid="$(cat "$pidfile")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 150; i++)); do
    kill -0 "$pid" 2>/dev/null || { say "stopped $name (pid $pid)"; return 0; }
    sleep 0.1
  done
  say "$name (pid $pid) did not stop on SIGTERM: SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  say "WARNING: $name (pid $pid) is still running"
}
cleanup() {
  local rc=$? i
  trap - EXIT INT TERM
  set +e
  [ -z "$sbatch_pid" ] || kill -TERM "$sbatch_pid" 2>/dev/null
  # The job id, if sbatch printed it before being stopped.
  [ -n "$jobid" ] || jobid="$(cut -d';' -f1 "$logs/sbatch.out" 2>/dev/null | head -n 1)"
  if [ -s "$run/slurmctld.pid" ] && kill -0 "$(cat "$run/slurmctld.pid")" 2>/dev/null; then
    # Cancel what is left of our jobs (this cluster has no others), and give slurmd a
    # moment to end their steps before it is stopped itself.
    # (Each client call is bounded: one that cannot reach slurmctld retries for long.)
    if [ -n "$(timeout 10 squeue -h -o %A 2>/dev/null)" ]; then
      say "cancelling leftover jobs"
      [ -z "$jobid" ] || timeout 10 scancel --quiet --full "$jobid" 2>/dev/null
      timeout 10 squeue -h -o %A 2>/dev/null | sort -u \
        | xargs -r timeout 10 scancel --quiet --full 2>/dev/null
      for ((i = 0; i < 50; i++)); do
        [ -z "$(timeout 5 squeue -h -o %A 2>/dev/null)" ] && break
        sleep 0.2
      done
    fi
  fi
  stop_pid slurmd "$run/slurmd.pid"
  stop_pid slurmctld "$run/slurmctld.pid"
  stop_pid munged "$run/munged.pid"
  if [ "$rc" -ne 0 ]; then
    # On failure, show the daemons' last words before they are removed.
    for f in "$logs"/*.log; do
      [ -s "$f" ] || continue
      echo "---- last lines of $f" >&2
      tail -n 15 "$f" >&2
    done
  fi
  if [ "$KEEP" = 1 ]; then
    say "kept $tmp (logs in $logs, outputs in $work)"
  else
    rm -rf "$tmp"
  fi
  say "total $(since "$t_start") s, exit $rc"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------------------------------
# 3a. munged, with its own key, socket, pid, seed and log under $tmp (not /etc/munge).
# ---------------------------------------------------------------------------------------
key="$tmp/munge/munge.key"
sock="$tmp/munge/munge.socket"
if ! mungekey --create --keyfile="$key" 2>"$logs/mungekey.err"; then
  dd if=/dev/urandom of="$key" bs=1024 count=1 status=none   # munge < 0.5.14 has no mungekey
fi
chmod 600 "$key"
munged --key-file="$key" --socket="$sock" --pid-file="$run/munged.pid" \
  --seed-file="$tmp/munge/munged.seed" --log-file="$logs/munged.log" \
  || die "munged did not start (see $logs/munged.log)"
for ((i = 0; i < 50; i++)); do [ -S "$sock" ] && break; sleep 0.1; done
munge -n --socket="$sock" | unmunge --socket="$sock" >/dev/null || die "munge/unmunge round trip failed"
say "munged up (pid $(cat "$run/munged.pid"), socket $sock)"

# ---------------------------------------------------------------------------------------
# 3b. slurm.conf: one node (this host, by its short name as slurmd requires, reached at
# 127.0.0.1), one partition, no cgroups, no accounting database.
# ---------------------------------------------------------------------------------------
node="$(hostname -s)"
# With CommunicationParameters=NoInAddrAny,NoCtldInAddrAny the daemons bind to the address
# the host name resolves to (not to NodeAddr/ControlAddr: measured), so that address is the
# one to use. Debian maps the host name to 127.0.1.1 or 127.0.0.1; where it resolves to a
# non-loopback address instead, binding there would leave the loopback, so the daemons then
# listen on every address (Slurm's default) while all traffic still goes to 127.0.0.1.
addr="$(getent ahostsv4 "$node" 2>/dev/null | awk 'NR == 1 { print $1 }' || true)"
if [[ "$addr" == 127.* ]]; then
  bind="CommunicationParameters=NoInAddrAny,NoCtldInAddrAny"
else
  say "WARNING: $node resolves to '${addr:-nothing}', not a loopback address:" \
    "slurmctld/slurmd will listen on every address (traffic stays on 127.0.0.1)"
  addr=127.0.0.1
  bind="# (the host name is not a loopback address: Slurm's default, every address)"
fi
# free_port P: the first port from P up that nothing on $addr listens on
free_port() {
  local p=$1
  while (exec 3<>"/dev/tcp/$addr/$p") 2>/dev/null; do p=$((p + 1)); done
  echo "$p"
}
ctld_port="$(free_port "${SLURMCTLD_PORT:-16817}")"
slurmd_port="$(free_port "${SLURMD_PORT:-16818}")"
[ "$slurmd_port" != "$ctld_port" ] || slurmd_port="$(free_port $((ctld_port + 1)))"

# The hardware as slurmd sees it ("NodeName=vm CPUs=2 Boards=1 ... RealMemory=24105").
hw="$(slurmd -C | head -n 1)"
field() { tr ' ' '\n' <<<"$hw" | sed -n "s/^$1=//p"; }
cpus="$(field CPUs)" mem="$(field RealMemory)"
[[ "$cpus" =~ ^[0-9]+$ && "$mem" =~ ^[0-9]+$ ]] || die "cannot read 'slurmd -C': $hw"
mem=$((mem * 9 / 10))   # a bit below what slurmd reports, so the node is never refused
topology="Boards=$(field Boards) SocketsPerBoard=$(field SocketsPerBoard)"
topology+=" CoresPerSocket=$(field CoresPerSocket) ThreadsPerCore=$(field ThreadsPerCore)"

cat >"$conf" <<EOF
# Written by harness/survey/slurm/test-array.sh: a private single-node cluster.
ClusterName=reptest-test
SlurmctldHost=$node($addr)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
# Bind to the address the host name resolves to ($addr), not to every address
# (NoInAddrAny: slurmd and the clients; NoCtldInAddrAny: slurmctld).
$bind
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$run/slurmctld.pid
SlurmdPidFile=$run/slurmd.pid
SlurmctldLogFile=$logs/slurmctld.log
SlurmdLogFile=$logs/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$etc/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdTimeout=60
InactiveLimit=0
KillWait=5
MinJobAge=600
NodeName=$node NodeAddr=$addr NodeHostname=$node CPUs=$cpus $topology RealMemory=$mem State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
: >"$etc/plugstack.conf"   # no SPANK plugins (and no reading of /etc/slurm's)

# 3c. slurmctld and slurmd, daemonized (-f: our configuration; -i: ignore saved state).
slurmctld -f "$conf" -i || die "slurmctld did not start (see $logs/slurmctld.log)"
slurmd -f "$conf" || die "slurmd did not start (see $logs/slurmd.log)"
say "slurmctld on $addr:$ctld_port, slurmd ($node, $cpus CPUs, ${mem} MB) on $addr:$slurmd_port"

# Wait (at most 30 s by the clock: a client that cannot reach slurmctld retries for long,
# hence the timeout on each sinfo) for the node to be idle.
t_wait="$(now)"
deadline=$((SECONDS + 30))
nodestate=""
while [ "$SECONDS" -lt "$deadline" ]; do
  nodestate="$(timeout 5 sinfo -h -n "$node" -o %T 2>/dev/null || true)"
  [ "$nodestate" = idle ] && break
  sleep 0.5
done
[ "$nodestate" = idle ] || die "node $node not idle after 30 s (sinfo says '${nodestate:-nothing}')"
say "node $node idle after $(since "$t_wait") s"
if command -v ss >/dev/null 2>&1; then
  # Where the daemons listen, for the log (expected: $addr only).
  ss -ltnpH 2>/dev/null | awk '/"slurm(ctld|d)"/ { print "  listening: " $4, $6 }' || true
fi

# ---------------------------------------------------------------------------------------
# 4a. The unsharded run.
# ---------------------------------------------------------------------------------------
t_whole="$(now)"
"$bin" survey --input "$INPUT" --impl "$IMPLS" --timeout "$QUERY_TIMEOUT" --out "$work/whole" \
  >"$logs/whole.out" 2>"$logs/whole.err" || die "the unsharded survey failed (see $logs/whole.err)"
whole_s="$(since "$t_whole")"
say "unsharded survey: $whole_s s"

# 4b. The array. Each task runs the survey WITHOUT --shard: the shard must come from
# SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT. The task checks that it wrote the partial
# its variables name, and logs its peak RSS and elapsed time (GNU time -v) into its log.
batch="$etc/survey.sbatch"
{
  echo '#!/bin/bash'
  echo 'set -euo pipefail'
  printf 'bin=%q input=%q impls=%q timeout=%q parts=%q\n' "$bin" "$INPUT" "$IMPLS" \
    "$QUERY_TIMEOUT" "$work/parts"
  cat <<'EOF'
echo "task ${SLURM_ARRAY_TASK_ID} of ${SLURM_ARRAY_TASK_COUNT} (job ${SLURM_ARRAY_JOB_ID}) on $(hostname -s)"
unset JOB_COMPLETION_INDEX REPTEST_SHARD_COUNT
start=$(date +%s.%N)
if [ -x /usr/bin/time ]; then
  /usr/bin/time -v -o "timing-${SLURM_ARRAY_TASK_ID}.txt" \
    "$bin" survey --input "$input" --impl "$impls" --timeout "$timeout" --out "$parts"
  sed 's/^/time: /' "timing-${SLURM_ARRAY_TASK_ID}.txt"
else
  "$bin" survey --input "$input" --impl "$impls" --timeout "$timeout" --out "$parts"
fi
end=$(date +%s.%N)
echo "elapsed: $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }') s"
echo "span: $start $end"
want="$parts/partial-${SLURM_ARRAY_TASK_ID}-of-${SLURM_ARRAY_TASK_COUNT}.json"
[ -s "$want" ] || { echo "no $want: the shard did not come from the Slurm variables" >&2; exit 3; }
echo "wrote $want"
EOF
} >"$batch"
mkdir -p "$work/parts" "$work/logs"
t_array="$(now)"
say "sbatch --array=0-$((TASKS - 1)) --wait (at most $JOB_TIMEOUT s)"
sbatch_rc=0
# In the background and waited for, so that a SIGTERM/SIGINT to this script is handled at
# once (bash runs a trap only after a foreground command ends) and the cleanup cancels it.
timeout "$JOB_TIMEOUT" sbatch --array="0-$((TASKS - 1))" --wait --parsable \
  --job-name=reptest-survey --cpus-per-task=1 --time=30 \
  --chdir="$work/logs" --output="$work/logs/task-%a.log" \
  "$batch" >"$logs/sbatch.out" 2>"$logs/sbatch.err" &
sbatch_pid=$!
wait "$sbatch_pid" || sbatch_rc=$?
sbatch_pid=""
jobid="$(head -n 1 "$logs/sbatch.out" | cut -d';' -f1)"
array_s="$(since "$t_array")"
if [ "$sbatch_rc" -ne 0 ]; then
  cat "$logs/sbatch.err" >&2
  for f in "$work"/logs/task-*.log; do
    [ -f "$f" ] && { echo "---- $f" >&2; grep -v '^time:' "$f" | tail -n 20 >&2; }
  done
  [ "$sbatch_rc" -eq 124 ] && die "the array job $jobid did not finish in $JOB_TIMEOUT s"
  die "the array job ${jobid:-?} failed (sbatch --wait exit $sbatch_rc)"
fi
# sbatch --wait polls the job with growing intervals, so its return can lag the last task's
# end by many seconds; the tasks' own clocks give the real span.
span="$(cat "$work"/logs/task-*.log | awk -v t0="$t_array" '
  /^span: / { if (!n++ || $2 < a) a = $2; if ($3 > b) b = $3 }
  END { if (n) printf "first task started +%.1f s, last ended +%.1f s after submission", a - t0, b - t0 }')"
say "array job $jobid: $TASKS tasks done; sbatch --wait returned after $array_s s; ${span:-no span logged}"

# Per task: elapsed time and peak RSS. sacct needs accounting storage, which this cluster
# does not have (no slurmdbd); it is used only if it answers. Otherwise the tasks' logs.
if timeout 10 sacct -n -j "$jobid" -o JobID,Elapsed,MaxRSS -P >"$logs/sacct.out" 2>/dev/null \
  && [ -s "$logs/sacct.out" ]; then
  say "sacct (JobID|Elapsed|MaxRSS):"
  sed 's/^/  /' "$logs/sacct.out"
fi
printf '  %-6s %10s %12s  %s\n' task elapsed_s max_rss_MiB slurm_runtime
for ((t = 0; t < TASKS; t++)); do
  log="$work/logs/task-$t.log"
  el="$(sed -n 's/^elapsed: \([0-9.]*\) s$/\1/p' "$log" | tail -n 1)"
  rss="$(sed -n 's/^time:[[:space:]]*Maximum resident set size (kbytes): \([0-9]*\)$/\1/p' "$log" | tail -n 1)"
  [ -z "$rss" ] || rss="$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')"
  rt="$(timeout 10 scontrol -o show job "${jobid}_$t" 2>/dev/null | tr ' ' '\n' | sed -n 's/^RunTime=//p' | head -n 1)"
  printf '  %-6s %10s %12s  %s\n' "$t" "${el:-?}" "${rss:-?}" "${rt:-?}"
done

# ---------------------------------------------------------------------------------------
# 4c. Merge and compare.
# ---------------------------------------------------------------------------------------
shopt -s nullglob
partials=("$work/parts"/partial-*-of-"$TASKS".json)
all=("$work/parts"/*)
shopt -u nullglob
[ "${#partials[@]}" -eq "$TASKS" ] \
  || die "expected $TASKS partials partial-I-of-$TASKS.json, found ${#partials[@]} (${all[*]##*/})"
[ "${#all[@]}" -eq "$TASKS" ] || die "unexpected files among the partials: ${all[*]##*/}"
"$bin" survey merge "${partials[@]}" --out "$work/merged" \
  >"$logs/merge.out" 2>"$logs/merge.err" || { cat "$logs/merge.err" >&2; die "reptest survey merge failed"; }

differ=()
for f in survey.json README.md survey.html; do
  [ -f "$work/whole/$f" ] || die "the unsharded run wrote no $f"
  if cmp "$work/whole/$f" "$work/merged/$f"; then
    say "identical: $f ($(wc -c <"$work/whole/$f") bytes)"
  else
    differ+=("$f")
    diff -u "$work/whole/$f" "$work/merged/$f" | head -n 40 >&2 || true
  fi
done
[ "${#differ[@]}" -eq 0 ] \
  || die "the merge of $TASKS shards differs from the unsharded run in: ${differ[*]}"
say "PASS: $TASKS array tasks merged == unsharded (unsharded $whole_s s, array $array_s s)"
