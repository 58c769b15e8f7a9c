#!/usr/bin/env bash
# The campaign speedup of `playtest run --jobs` (docs/performance.md "Online testing"): 40 runs of
# 10 steps (5 stimuli, no test purpose: the whole budget) against an adapter that sleeps 20 ms before
# each answer, with 1 and with 4 jobs.
#   bench/campaign_speedup.sh BUILD_DIR     (BUILD_DIR holds playtest and bench/trivial_adapter)
set -euo pipefail
build=${1:-build/release}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/pp.json" <<'JSON'
{"playtest": "graph/1", "initial": "idle",
 "vertices": [{"id": "idle"}, {"id": "wait", "kind": "passive"}],
 "edges": [{"from": "idle", "to": "wait", "label": "ping"},
           {"from": "wait", "to": "idle", "label": "pong", "prob": 1}]}
JSON
declare -A wall
for jobs in 1 4; do
  start=$(date +%s.%N)
  "$build/playtest" run "$work/pp.json" --sut "$build/bench/trivial_adapter 20" --strategy random --purpose none \
    --runs 40 --steps 10 --jobs "$jobs" --quiet > /dev/null
  wall[$jobs]=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
  echo "--jobs $jobs: 40 runs in ${wall[$jobs]} s"
done
awk -v a="${wall[4]}" -v b="${wall[1]}" 'BEGIN { printf "ratio jobs 4 / jobs 1: %.3f\n", a / b }'
