#!/usr/bin/env bash
# measure.sh: `reptest survey` at Internet scale, measured on this machine (issue 22,
# item 9; the figures and the Common Crawl projection are in docs/survey.md, "Internet
# scale").
#
# What it does:
#  1. generates synthetic WARC files of 10^4, 10^5 and 10^6 response records from the real
#     robots.txt files (`reptest survey synth`, seed 1) as WORK/synth-N.warc.gz; a file
#     already there is reused (the generator renames it into place only when whole);
#  2. surveys each file with the reference alone (set `reference`), with the reference
#     and the six Rust crates (set `rust`) and with them but rust-cylon (set `rust-fast`:
#     cylon's runaway workers on a few files set its pace and memory), under GNU
#     `time -v` (or, without it, VmHWM and the CPU ticks polled from /proc every half
#     second: lower bounds, the last half second unseen): wall and CPU seconds and peak
#     RSS, and the summed RSS of its process tree;
#  3. reads each file without surveying it (set `read`: the reference with --shard
#     0/1000, which reads every record and surveys a thousandth of them): what every task
#     of a sharded run pays to read the whole input;
#  4. surveys the first 1,000 real files with every available implementation (the
#     default --impl; set `all`), for a per-core rate of the whole set;
#  5. prints the table: records, set, wall s, files/s (files read / wall), files
#     surveyed, CPU s (user + system, the adapters' processes included), surveyed files
#     per CPU second, peak RSS MB (the largest process) and tree MB (the peak of the
#     summed RSS of reptest and its adapters' processes, sampled every half second).
# Each result is appended to WORK/results.tsv with the commit it was measured on; a
# result of the same commit, set and size is not measured again (FORCE=1 measures it
# again), so the script can be stopped and run again.
#
# Usage:   bash harness/survey/scale/measure.sh
# Build:   cargo build --release -p reptest   (the script does not build)
# Variables (defaults):
#   REPTEST  the binary (target/release/reptest)
#   INPUT    the real files ($REPTEST_STATE or harness/external/.state, then
#            survey/protego-0.7.0/test_data; `bash harness/external/setup survey-data`)
#   WORK     where the WARC files, outputs, logs and results go (target/scale): never
#            commit it, the 10^6 file is about 1 GB
#   SIZES    "10000 100000 1000000"
#   SETS     "reference rust rust-fast read all" (any of them)
#   SKIP     runs to leave out, as SET@SIZE: "rust@1000000" (about an hour on 2 shared
#            cores at 250 files/s)
#   SEED     1
#   FORCE    1: measure again what results.tsv already holds
#   GNU_TIME /usr/bin/time (none: the /proc polling is used)
# External implementations (in `all`) need their setup (bash harness/external/setup) and
# REPTEST_STATE when the state lives elsewhere.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
state="${REPTEST_STATE:-$repo/harness/external/.state}"
REPTEST="${REPTEST:-$repo/target/release/reptest}"
INPUT="${INPUT:-$state/survey/protego-0.7.0/test_data}"
WORK="${WORK:-$repo/target/scale}"
SIZES="${SIZES:-10000 100000 1000000}"
SETS="${SETS:-reference rust rust-fast read all}"
SKIP="${SKIP:-}"
SEED="${SEED:-1}"
FORCE="${FORCE:-0}"
GNU_TIME="${GNU_TIME:-/usr/bin/time}"
RUST_FAST="reference,rust-robotstxt,rust-texting-robots,rust-robotxt,rust-robots-txt,rust-robotparser"
RUST_SET="$RUST_FAST,rust-cylon"
RESULTS="$WORK/results.tsv"

die() { echo "measure.sh: $*" >&2; exit 2; }
[ -x "$REPTEST" ] || die "no $REPTEST: cargo build --release -p reptest (or set REPTEST)"
[ -d "$INPUT" ] || die "no input $INPUT: bash harness/external/setup survey-data (or set INPUT)"
mkdir -p "$WORK"
commit="$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)"
if ! git -C "$repo" diff --quiet HEAD 2>/dev/null; then commit="$commit+dirty"; fi
header='date\tcommit\trecords\tset\twall_s\tcpu_s\tfiles_read\tfiles_surveyed\tpeak_rss_mb\ttree_rss_mb'
[ -f "$RESULTS" ] || printf "$header\n" >"$RESULTS"
# A results file of before the tree column: its rows leave that column empty.
head -1 "$RESULTS" | grep -q tree_rss_mb || sed -i "1s/.*/$header/" "$RESULTS"

# tree_rss_kb PID: the summed RSS of PID and all its descendants (the external adapters'
# processes, which GNU time's peak, that of the largest process, leaves out).
tree_rss_kb() {
  ps -e -o pid=,ppid=,rss= | awk -v root="$1" '{ parent[$1] = $2; rss[$1] = $3 }
    END { for (p in rss) { q = p; while (q != "" && q != 0 && q != root) q = parent[q]
      if (q == root) sum += rss[p] }; print sum + 0 }'
}

# run_timed LOG CMD...: runs CMD, its stderr into LOG; sets wall and cpu (seconds), rss_kb
# (the peak RSS of the largest process) and tree_kb (the peak of the summed RSS of the
# process tree, sampled every half second).
run_timed() {
  local log="$1"; shift
  local timed=("$@") start end pid now hz hwm=0 ticks=0
  [ -x "$GNU_TIME" ] && timed=("$GNU_TIME" -v -o "$log.time" "$@")
  tree_kb=0
  start="$(date +%s.%N)"
  "${timed[@]}" 2>"$log" &
  pid=$!
  # Until it ends (a zombie until reaped has no VmHWM line).
  while grep -qs VmHWM "/proc/$pid/status"; do
    now="$(tree_rss_kb "$pid")"
    [ "$now" -gt "$tree_kb" ] && tree_kb="$now"
    if [ ! -x "$GNU_TIME" ]; then
      # No GNU time: the process's own peak RSS (VmHWM) and CPU ticks, children's included.
      hwm="$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo "$hwm")"
      ticks="$(awk '{print $14 + $15 + $16 + $17}' "/proc/$pid/stat" 2>/dev/null || echo "$ticks")"
    fi
    sleep 0.5
  done
  wait "$pid" || die "failed: $* (see $log)"
  end="$(date +%s.%N)"
  if [ -x "$GNU_TIME" ]; then
    wall="$(awk -F': ' '/Elapsed \(wall clock\)/ {
      n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$log.time")"
    cpu="$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {print u + s}' "$log.time")"
    rss_kb="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log.time")"
  else
    hz="$(getconf CLK_TCK)"
    wall="$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.2f", b - a}')"
    cpu="$(awk -v t="$ticks" -v hz="$hz" 'BEGIN {printf "%.2f", t / hz}')"
    rss_kb="${hwm:-0}"
  fi
  [ "$tree_kb" -ge "$rss_kb" ] || tree_kb="$rss_kb"
}

# counts DIR: "files_read files_surveyed" from survey.json, or from a shard's partial
# (whose input fingerprint counts every entry the shard read, in the shard or not).
counts() {
  python3 - "$1" <<'EOF'
import glob, json, os, sys
out = sys.argv[1]
path = os.path.join(out, "survey.json")
if os.path.exists(path):
    files = json.load(open(path))["files"]
    print(files["read"], files["surveyed"])
else:
    partial = json.load(open(glob.glob(os.path.join(out, "partial-*.json"))[0]))
    print(partial["input"]["entries"], partial["tally"]["files"]["surveyed"])
EOF
}

# measured SIZE SET: whether results.tsv holds this commit's result.
measured() {
  [ "$FORCE" = 1 ] && return 1
  awk -F'\t' -v c="$commit" -v n="$1" -v s="$2" '$2 == c && $3 == n && $4 == s {found = 1}
    END {exit !found}' "$RESULTS"
}

# survey SIZE SET INPUT ARGS...: one measured survey, appended to results.tsv.
survey() {
  local size="$1" set="$2" input="$3"; shift 3
  case " $SKIP " in *" $set@$size "*) echo "skipped: $set at $size"; return;; esac
  if measured "$size" "$set"; then echo "already measured: $set at $size ($commit)"; return; fi
  local out="$WORK/out-$set-$size"
  rm -rf "$out"
  echo "surveying $size records with set $set ..."
  run_timed "$WORK/log-$set-$size" "$REPTEST" survey --input "$input" --out "$out" -q "$@"
  read -r files surveyed < <(counts "$out")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$commit" "$size" "$set" \
    "$wall" "$cpu" "$files" "$surveyed" "$(awk -v k="$rss_kb" 'BEGIN {printf "%.1f", k / 1024}')" \
    "$(awk -v k="$tree_kb" 'BEGIN {printf "%.1f", k / 1024}')" >>"$RESULTS"
}

for size in $SIZES; do
  warc="$WORK/synth-$size.warc.gz"
  if [ ! -f "$warc" ]; then
    echo "generating $warc ..."
    run_timed "$WORK/log-synth-$size" "$REPTEST" survey synth --input "$INPUT" --out "$warc" \
      --records "$size" --seed "$SEED"
    echo "  $(tail -1 "$WORK/log-synth-$size"); peak RSS $((rss_kb / 1024)) MB"
  fi
  for set in $SETS; do
    case "$set" in
      reference) survey "$size" reference "$warc" --impl reference ;;
      rust) survey "$size" rust "$warc" --impl "$RUST_SET" ;;
      rust-fast) survey "$size" rust-fast "$warc" --impl "$RUST_FAST" ;;
      read) survey "$size" read "$warc" --impl reference --shard 0/1000 ;;
    esac
  done
done
case " $SETS " in *" all "*) survey 1000 all "$INPUT" --limit 1000 ;; esac

echo
echo "commit $commit; $(nproc) cores: $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo)"
awk -F'\t' -v c="$commit" 'NR > 1 && $2 == c {
  printf "| %9s | %-10s | %8.1f | %9.0f | %9d | %8.1f | %14.0f | %6.1f | %7s |\n",
    $3, $4, $5, $7 / $5, $8, $6, ($6 > 0 ? $8 / $6 : 0), $9, ($10 == "" ? "-" : $10) }' "$RESULTS" |
  sort -t'|' -k3,3 -k2,2n |
  { echo "|   records | set        |   wall s |   files/s |  surveyed |    CPU s | surveyed/CPU s | RSS MB | tree MB |"
    echo "| --------: | ---------- | -------: | --------: | --------: | -------: | -------------: | -----: | ------: |"
    cat; }
