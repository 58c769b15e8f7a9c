#!/usr/bin/env bash
# Every test: install what is missing, then
#   1. Release build with -Werror, the whole ctest suite;
#   2. AddressSanitizer + UndefinedBehaviorSanitizer build, the whole ctest suite;
#   3. ThreadSanitizer build, the whole ctest suite (no race may be reported);
#   4. the libFuzzer targets (clang), each run briefly on its seed corpus.
# Set PLAYTEST_SKIP_SANITIZE=1, PLAYTEST_SKIP_TSAN=1 or PLAYTEST_SKIP_FUZZ=1 to leave a stage out
# locally.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
jobs=$(nproc)

echo "== Release build and tests"
cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=Release -DPLAYTEST_WERROR=ON >/dev/null
cmake --build build/test -j "$jobs"
ctest --test-dir build/test --output-on-failure -j "$jobs" --timeout 600

if [ "${PLAYTEST_SKIP_SANITIZE:-0}" != 1 ]; then
  echo "== AddressSanitizer + UndefinedBehaviorSanitizer build and tests"
  cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
    -DPLAYTEST_SANITIZE=ON -DPLAYTEST_BENCH=OFF >/dev/null
  cmake --build build/asan -j "$jobs"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build/asan --output-on-failure -j "$jobs" --timeout 1200
fi

if [ "${PLAYTEST_SKIP_TSAN:-0}" != 1 ]; then
  echo "== ThreadSanitizer build and tests"
  tsan_start=$(date +%s)
  cmake -S . -B build/tsan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" \
    -DPLAYTEST_TSAN=ON -DPLAYTEST_BENCH=OFF >/dev/null
  cmake --build build/tsan -j "$jobs"
  # halt_on_error: a reported race fails its test. Excluded, with the reason:
  #   docs_commands, docs_commands_selftest: they run the documented shell commands (the Release
  #     build's examples, long simulations) and test no thread of playtest's that the rest do not.
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
    ctest --test-dir build/tsan --output-on-failure -j "$jobs" --timeout 1200 -E '^docs_commands'
  echo "== ThreadSanitizer stage: $(( $(date +%s) - tsan_start )) s"
fi

if [ "${PLAYTEST_SKIP_FUZZ:-0}" != 1 ]; then
  if command -v clang++ >/dev/null; then
    echo "== libFuzzer targets"
    CXX=clang++ cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPLAYTEST_FUZZ=ON \
      -DPLAYTEST_WERROR=OFF -DPLAYTEST_TESTS=OFF -DPLAYTEST_BENCH=OFF >/dev/null
    cmake --build build/fuzz -j "$jobs" --target playtest_fuzzers
    for f in build/fuzz/tests/fuzz/fuzz_*; do
      [ -x "$f" ] || continue
      name=$(basename "$f")
      corpus=tests/fuzz/corpus/${name#fuzz_}
      work=$(mktemp -d)
      [ -d "$corpus" ] && cp -r "$corpus"/. "$work"/
      echo "-- $name (${PLAYTEST_FUZZ_SECONDS:-30} s)"
      "$f" -max_total_time="${PLAYTEST_FUZZ_SECONDS:-30}" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 "$work" 2>&1 | tail -n 12
      rm -rf "$work"
    done
  else
    echo "== libFuzzer targets skipped: clang++ not found"
  fi
fi
echo "== all test stages passed"
