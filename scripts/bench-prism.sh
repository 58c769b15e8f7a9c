#!/usr/bin/env bash
# Issue 13's benchmark: playtest against PRISM on the anchors' random MDPs, in one run.
#
# Generates the models (gen_mdp.py N rN --seed 12345: PRISM explicit files, N states; and a graph/1
# file of 1M vertices / 4M edges), runs playtest on them and, when PRISM names a PRISM launcher
# (its bin/prism), runs PRISM on the same files in the same run, rounds interleaved, and prints
# one table (medians over the rounds) with the ratios PRISM / playtest:
#   load      playtest validate rN.tra                                  | PRISM: its model construction
#   expected  playtest solve rN.tra --objective expected --json         | prism ... -pf 'Rmin=? [ F "goal" ]' -gs
#   reach     playtest solve rN.tra --objective reach --bound 200       | prism ... -pf 'Pmax=? [ F<=100 "goal" ]'
#             (one MDP step is two moves in a test graph: F<=100 is --bound 200), 1 and 2 threads
#   graph/1   playtest validate g1m.json
# Wall time and peak memory come from /usr/bin/time -v; "solve" is playtest's own solver time
# (summary.seconds, or the "solve time" line), "load" is the rest of the wall time (reading the
# files and, for --json, writing the answer); for PRISM the two are its reported model
# construction and model checking times. The load average is printed before and after.
#
# Usage: scripts/bench-prism.sh            (from the repository root, after building build/release)
# Environment:
#   PLAYTEST     the playtest binary (default build/release/playtest)
#   SIZES        state counts (default "100000 1000000")
#   ROUNDS       rounds per measurement (default 3)
#   WORK         where models and outputs go (default /tmp/playtest-bench)
#   GEN_MDP      the anchors' generator (default: shared/anchors/gen_mdp.py next to or above the repository)
#   GRAPH        vertices of the graph/1 file (default 1000000; 0: skip)
#   PRISM        a PRISM launcher, e.g. ~/prism/bin/prism (default: none, PRISM is not run)
#   PRISM_OPTS   extra PRISM options, e.g. "-javamaxmem 20g" (default none)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
PLAYTEST=${PLAYTEST:-$root/build/release/playtest}
SIZES=${SIZES:-"100000 1000000"}
ROUNDS=${ROUNDS:-3}
WORK=${WORK:-/tmp/playtest-bench}
GRAPH=${GRAPH:-1000000}
PRISM=${PRISM:-}
PRISM_OPTS=${PRISM_OPTS:-}
if [[ -z ${GEN_MDP:-} ]]; then
  for d in "$root/.." "$root/../.." "$root/../../.."; do
    if [[ -f $d/shared/anchors/gen_mdp.py ]]; then GEN_MDP=$d/shared/anchors/gen_mdp.py; break; fi
  done
fi
[[ -x $PLAYTEST ]] || { echo "bench-prism: no playtest binary at $PLAYTEST (build first, or set PLAYTEST)" >&2; exit 2; }
[[ -n ${GEN_MDP:-} && -f $GEN_MDP ]] || { echo "bench-prism: gen_mdp.py not found (set GEN_MDP)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench-prism: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
[[ -z $PRISM || -x $PRISM ]] || { echo "bench-prism: PRISM=$PRISM is not executable" >&2; exit 2; }
mkdir -p "$WORK"
results=$WORK/results.tsv
: > "$results"

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "playtest: $PLAYTEST"
[[ -n $PRISM ]] && echo "PRISM: $PRISM $PRISM_OPTS"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

# Models (made once; gen_mdp.py is deterministic for a seed).
for n in $SIZES; do
  [[ -f $WORK/r$n.tra ]] || python3 "$GEN_MDP" "$n" "$WORK/r$n" --seed 12345 > /dev/null
done
if [[ $GRAPH -gt 0 && ! -f $WORK/g$GRAPH.json ]]; then
  "$PLAYTEST" gen random --vertices "$GRAPH" --out-degree 4 --goals 10 --seed 7 -o "$WORK/g$GRAPH.json"
fi

# timed NAME OUT CMD...: runs CMD with stdout to OUT, records wall seconds and peak MB.
timed() {
  local name=$1 out=$2
  shift 2
  local t=$WORK/$name.time code=0
  /usr/bin/time -v -o "$t" "$@" > "$out" 2> "$WORK/$name.err" || code=$?
  # playtest exits 5 for an uncertified answer: still a measurement (the table says certified=false).
  if [[ $code -ne 0 && $code -ne 5 ]]; then
    echo "bench-prism: '$*' failed (exit $code), see $WORK/$name.err" >&2
    exit 1
  fi
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, a, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + a[i]; print s}' "$t")
  peak=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$t")
}

# row N WORK TOOL WALL SOLVE PEAK VALUE NOTE
row() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >> "$results"; }

prism_run() {  # prism_run NAME FILEBASE PROPERTY [OPTIONS...]
  local name=$1 base=$2 prop=$3
  shift 3
  # shellcheck disable=SC2086
  timed "$name" "$WORK/$name.out" "$PRISM" -importmodel "$base.tra,lab,trew" -mdp -explicit -pf "$prop" "$@" $PRISM_OPTS
  build=$(sed -n 's/^Time for model construction: *\([0-9.]*\).*/\1/p' "$WORK/$name.out" | tail -1)
  check=$(sed -n 's/^Time for model checking: *\([0-9.]*\).*/\1/p' "$WORK/$name.out" | tail -1)
  result=$(sed -n 's/^Result: *\([^ ]*\).*/\1/p' "$WORK/$name.out" | tail -1)
}

for round in $(seq 1 "$ROUNDS"); do
  for n in $SIZES; do
    base=$WORK/r$n
    timed "load$n" /dev/null "$PLAYTEST" validate "$base.tra"
    row "$n" load playtest "$wall" - "$peak" - -

    timed "expected$n" "$WORK/expected$n.json" "$PLAYTEST" solve "$base.tra" --objective expected --json
    read -r solve value bound certified < <(python3 - "$WORK/expected$n.json" << 'EOF'
import re, sys
head = open(sys.argv[1], encoding="utf-8").read(4096)
num = lambda key: re.search(r'"%s": ([^,\n]+)' % key, head).group(1)
value = re.search(r'"id": "0",\s*"value": ([^\s,}]+)', head).group(1)
print(num("seconds"), value, num("error_bound"), num("certified"))
EOF
)
    row "$n" expected playtest "$wall" "$solve" "$peak" "$value" "certified=$certified bound=$bound"

    for threads in 1 2; do
      timed "reach$n.$threads" "$WORK/reach$n.$threads.txt" "$PLAYTEST" solve "$base.tra" --objective reach --bound 200 --threads "$threads" --limit 0
      solve=$(sed -n 's/^solve time: \([0-9.]*\) s/\1/p' "$WORK/reach$n.$threads.txt")
      value=$(sed -n 's/.*reached with probability \([^ ]*\) at worst-case cost \(.*\)/\1 (cost \2)/p' "$WORK/reach$n.$threads.txt")
      row "$n" "reach --bound 200" "playtest, $threads thread(s)" "$wall" "$solve" "$peak" "$value" -
    done

    if [[ -n $PRISM ]]; then
      prism_run "prism_rmin$n" "$base" 'Rmin=? [ F "goal" ]' -gs
      row "$n" expected "PRISM -gs" "$wall" "$check" "$peak" "$result" "build=$build"
      prism_run "prism_bounded$n" "$base" 'Pmax=? [ F<=100 "goal" ]'
      row "$n" "reach --bound 200" PRISM "$wall" "$check" "$peak" "$result" "build=$build"
      row "$n" load PRISM "$build" - - - "model construction of the Rmin run"
    fi
  done
  if [[ $GRAPH -gt 0 ]]; then
    timed "graph$GRAPH" /dev/null "$PLAYTEST" validate "$WORK/g$GRAPH.json"
    row "g$GRAPH" "load graph/1" playtest "$wall" - "$peak" - -
  fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$results" "$ROUNDS" << 'EOF'
import statistics, sys
rows = [line.rstrip("\n").split("\t") for line in open(sys.argv[1])]
groups = {}
for n, work, tool, wall, solve, peak, value, note in rows:
    groups.setdefault((n, work, tool), []).append((wall, solve, peak, value, note))
def med(xs):
    xs = [float(x) for x in xs if x not in ("-", "")]
    return statistics.median(xs) if xs else None
def fmt(x, unit=""):
    return "-" if x is None else ("%.2f%s" % (x, unit))
print()
print("Medians of %s round(s):" % sys.argv[2])
print()
print("| N | work | tool | wall s | load / solve s | peak MB | value | notes | PRISM / playtest (wall) |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
for (n, work, tool), rs in groups.items():
    wall, solve, peak = med(r[0] for r in rs), med(r[1] for r in rs), med(r[2] for r in rs)
    split = "-" if solve is None or wall is None else "%.2f / %.2f" % (wall - solve, solve)
    if tool.startswith("PRISM") and work != "load":
        split = "%s / %.2f" % (rs[-1][4].replace("build=", ""), solve)
    ratio = "-"
    if not tool.startswith("PRISM"):
        prism = [g for k, g in groups.items() if k[0] == n and k[1] == work and k[2].startswith("PRISM")]
        if prism and wall:
            ratio = "%.1fx" % (med(r[0] for r in prism[0]) / wall)
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (n, work, tool, fmt(wall), split, fmt(peak), rs[-1][3],
                                                          rs[-1][4], ratio))
EOF
