#!/usr/bin/env bash
# The adaptive strategies against a real round-robin broker (issue 31): playtest run on
# examples/models/mqtt_shared.ptm with examples/sut/mqtt_shared_adapter.py (each run starts its own
# mosquitto on a free loopback port), for every strategy x --adapt x seed, and a Markdown table of
# verdict, covered/total edges, steps and time per run. docs/mqtt-example.md.
#
# Usage: scripts/bench-mqtt.sh [PLAYTEST] [OUT.md]
#   PLAYTEST   the binary (default build/release/playtest)
#   OUT.md     where the table goes (default: standard output only)
# Environment: STRATEGIES (default "random cover planner"), ADAPT ("off on"), SEEDS ("1 2 3"),
#   STEPS (20000), PARALLEL (runs at once, default 2: a run waits on the broker far more than it
#   computes, so runs overlap well even on 2 cores; the results do not depend on it, only the times),
#   READY_MS (--ready-timeout-ms, default 30000: on a loaded machine the adapter's start, Python,
#   paho and a broker, has been measured at 4-8 s, above playtest's default of 5 s).
# Needs mosquitto and python3-paho-mqtt (scripts/setup.sh). Run from the repository root.
set -euo pipefail

playtest=${1:-build/release/playtest}
out=${2:-}
strategies=${STRATEGIES:-random cover planner}
adapts=${ADAPT:-off on}
seeds=${SEEDS:-1 2 3}
steps=${STEPS:-20000}
parallel=${PARALLEL:-2}
ready_ms=${READY_MS:-30000}
model=examples/models/mqtt_shared.ptm
sut='python3 examples/sut/mqtt_shared_adapter.py'
# The adapter imports the installed Python adapter kit; this checkout's comes first (the one measured).
export PYTHONPATH="$PWD/adapters/python${PYTHONPATH:+:$PYTHONPATH}"

if ! "$playtest" --version >/dev/null 2>&1; then
  echo "bench-mqtt: $playtest --version failed (build it, or give its path)" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cells=()
for s in $strategies; do for a in $adapts; do for seed in $seeds; do cells+=("$s $a $seed"); done; done; done

one() {  # strategy adapt seed: one run, its --json in $work
  local s=$1 a=$2 seed=$3
  "$playtest" run "$model" --sut "$sut" --strategy "$s" --adapt "$a" --steps "$steps" --seed "$seed" \
      --ready-timeout-ms "$ready_ms" --json >"$work/$s-$a-$seed.json" 2>"$work/$s-$a-$seed.err" || true
}
export -f one
export playtest model sut steps work ready_ms
printf '%s\n' "${cells[@]}" | xargs -P "$parallel" -L 1 bash -c 'one "$@"' _

{
  echo "playtest run $model --sut '$sut' --strategy S --adapt A --steps $steps --seed N --ready-timeout-ms $ready_ms --json"
  echo
  echo "| strategy | adapt | seed | verdict | edges | steps | resets | time (s) | why it ended |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
  for c in "${cells[@]}"; do
    set -- $c
    python3 - "$work/$1-$2-$3.json" "$1" "$2" "$3" <<'EOF'
import json, sys
path, s, a, seed = sys.argv[1:]
try:
    d = json.load(open(path))
    r = d["runs"][0]
    cov = d["coverage"]
    msg = " ".join(r.get("message", "").split()).replace("|", "\\|")
    print("| %s | %s | %s | %s | %d/%d | %d | %d | %.1f | %s |" % (
        s, a, seed, r["verdict"], cov["edges_covered"], cov["edges_total"], r["steps"], r["resets"],
        r["elapsed_ms"] / 1000.0, msg[:300]))
except Exception as e:  # a run that wrote no JSON: say so, with its standard error's end
    err = open(path[:-5] + ".err").read().strip().splitlines()
    print("| %s | %s | %s | no result (%s) | | | | | %s |" % (s, a, seed, type(e).__name__,
                                                         (err[-1] if err else "").replace("|", "\\|")))
EOF
  done
} | tee "$work/table.md"
if [ -n "$out" ]; then cp "$work/table.md" "$out"; fi
