#!/usr/bin/env bash
# Adaptive strategies against a real FIFO server (docs/testing.md "Adaptive strategies"): Redis's
# BLPOP behind examples/models/redis_queue.ptm (NW=2: 500 vertices, 860 edges; the server serves the
# worker that waited longest, a coin in the model). For random, cover and planner, --adapt on and
# off, seeds 1-3, --steps 20000: one line per run with verdict, covered edges, steps.
# Usage: scripts/bench-adapt.sh [BUILD_DIR] (default build/rel)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/rel}
port=$((20000 + RANDOM % 20000))
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes >/dev/null
trap 'redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true' EXIT
sleep 0.3
printf '%-8s %-5s %-4s %-13s %-9s %s\n' strategy adapt seed verdict covered steps
for strategy in random cover planner; do
  for adapt in off on; do
    for seed in 1 2 3; do
      out=$("$build/playtest" run examples/models/redis_queue.ptm --sut "$build/examples/sut/redis_queue_adapter --port $port" \
        --strategy "$strategy" --adapt "$adapt" --steps 20000 --timeout-ms 10000 --seed "$seed" --json || true)
      python3 -c 'import json,sys; j=json.loads(sys.argv[1]); r=j["runs"][0]
print("%-8s %-5s %-4s %-13s %-9s %s" % (sys.argv[2], sys.argv[3], sys.argv[4], j["verdict"],
      "%d/%d" % (j["coverage"]["edges_covered"], j["coverage"]["edges_total"]), r["steps"]))' "$out" "$strategy" "$adapt" "$seed"
    done
  done
done
