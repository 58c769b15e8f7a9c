#!/usr/bin/env bash
# playtest tests a real third-party program: starts a redis-server of its own on a free loopback port
# (foreground, no persistence, scratch directory), runs `playtest run` with the model
# examples/models/redis_pubsub.ptm through examples/sut/redis_adapter, and stops the server at the
# end whatever happens. Extra arguments go to `playtest run` (e.g. --json, --trace FILE); the
# adapter's fault flags can be given with REDIS_ADAPTER_FLAGS="--drop-to 1".
#
# Usage: examples/sut/redis_demo.sh [BUILD_DIR] [-- playtest run options]
#        (BUILD_DIR defaults to build/release; it must hold playtest and examples/sut/redis_adapter)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=build/release
if [ $# -gt 0 ] && [ "$1" != "--" ]; then build=$1; shift; fi
if [ $# -gt 0 ] && [ "$1" = "--" ]; then shift; fi
command -v redis-server >/dev/null || { echo "redis_demo: redis-server not found (scripts/setup.sh installs it)" >&2; exit 3; }
for f in "$build/playtest" "$build/examples/sut/redis_adapter"; do
  [ -x "$f" ] || { echo "redis_demo: $f not built (cmake --build $build --target playtest redis_adapter)" >&2; exit 3; }
done

dir=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$dir"
}
trap cleanup EXIT

# A port nobody answers on; another program may take it before the server binds it, so retry.
for attempt in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 40000))
  redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no --dir "$dir" \
    >"$dir/redis.log" 2>&1 &
  pid=$!
  for _ in $(seq 50); do
    if redis-cli -p "$port" ping 2>/dev/null | grep -q PONG; then break 2; fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=""
done
[ -n "$pid" ] || { echo "redis_demo: redis-server did not start:" >&2; cat "$dir/redis.log" >&2; exit 3; }
echo "redis_demo: redis-server (pid $pid) on 127.0.0.1:$port" >&2

set +e
"$build/playtest" run examples/models/redis_pubsub.ptm \
  --sut "$build/examples/sut/redis_adapter --port $port ${REDIS_ADAPTER_FLAGS:-}" \
  --strategy cover --traps 'Publish*,Subscribe*,Unsubscribe*' --steps 20000 --seed 1 "$@"
code=$?
exit $code
