#!/usr/bin/env bash
# Every test: install what is missing, then
#   1. Release build with -Werror, the whole ctest suite;
#   2. AddressSanitizer + UndefinedBehaviorSanitizer build, the whole ctest suite;
#   3. ThreadSanitizer build, the tests that run threads (no race may be reported);
#   4. the libFuzzer targets (clang), each run briefly on its seed corpus.
# Set PLAYTEST_SKIP_SANITIZE=1, PLAYTEST_SKIP_TSAN=1 or PLAYTEST_SKIP_FUZZ=1 to leave a stage out
# locally. Each stage prints its build and test seconds, and the last lines sum them up
# (docs/performance.md, "CI time", keeps the figures before and after each change to the build).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

# Stage timing: `stage NAME` opens a stage, `step WHAT` closes the previous step of the open stage;
# `stage_end` prints the stage's steps and total, in wall seconds and in CPU seconds (user + system
# of everything the stage ran: comparable between runs on a machine that others share).
times_file=$(mktemp)
summary=()
print_summary() {
  local line
  for line in "${summary[@]}"; do echo "   $line"; done
}
# A stage that fails still leaves the times of the stages before it in the log.
on_exit() {
  local status=$?
  if [ "$status" -ne 0 ] && [ ${#summary[@]} -gt 0 ]; then
    echo "== stage times (stopped with exit code $status${stage_name:+ in: $stage_name})"
    print_summary
  fi
  rm -f "$times_file"
}
trap on_exit EXIT
cpu=0
cpu_now() { # sets cpu; `times` runs in this shell (a subshell does not see this shell's children)
  times >"$times_file"
  cpu=$(awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, t, "m"); n += t[1] * 60 + t[2] }
                       printf "%d", n }' "$times_file")
}
stage_name="" stage_start=0 stage_cpu=0 step_start=0 steps=""
stage() {
  cpu_now
  stage_name=$1 stage_start=$(date +%s) stage_cpu=$cpu step_start=$stage_start steps=""
  echo "== $stage_name"
}
step() {
  local now
  now=$(date +%s)
  steps="$steps${steps:+, }$1 $((now - step_start)) s"
  step_start=$now
}
stage_end() {
  local line
  cpu_now
  line="$stage_name: $(($(date +%s) - stage_start)) s${steps:+ ($steps)}, CPU $((cpu - stage_cpu)) s"
  echo "== stage time: $line"
  summary+=("$line")
  stage_name=""
}
total_start=$(date +%s)

stage "setup"
./scripts/setup.sh
stage_end

# A compiler cache where the machine keeps one: CI runs on the machine of the session that submits,
# which keeps ccache's cache of its earlier runs and of the developers' builds. Paths are taken
# relative to this checkout (CCACHE_BASEDIR) so that a clone in another folder hits; the
# precompiled headers need the two sloppiness settings (ccache's manual, "Precompiled headers").
# CCACHE_NOHASHDIR: the sanitizer builds take -g1, and with debug information ccache hashes the
# build folder itself unless told not to, so that no clone in another folder would hit (the price:
# the file names in a hit's debug information are those of the checkout that compiled it first).
# No compile command may hold a path of the checkout for the same reason (the tests read theirs at
# run time: tests/support/test_paths.hpp). A cold cache costs little; PLAYTEST_CCACHE=0 builds
# without it.
cache=(-DCMAKE_CXX_COMPILER_LAUNCHER=)
if [ "${PLAYTEST_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null; then
  export CCACHE_BASEDIR=$PWD CCACHE_SLOPPINESS=pch_defines,time_macros CCACHE_NOHASHDIR=1
  cache=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

# The sanitizer builds keep -O1 for the library and the property tests (the code the tests run
# hard) and compile the tool's and the unit and CLI tests' own code at -O0 (PLAYTEST_LIGHT_CODE_OPTIONS:
# it runs little, and compiles in half the time; the sanitizers check unoptimized code as well as
# optimized). They take -g1 instead of -g: line tables and function names, all that the
# sanitizers' stack traces print (file:line per frame), without the full debug information. They
# build neither the benchmarks (not run in CI) nor the header check (a header that compiles on its
# own does so under any sanitizer: the Release stage checks it).
sanitizer_flags=("${cache[@]}" -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-g1 -O1" -DPLAYTEST_LIGHT_CODE_OPTIONS=-O0
                 -DPLAYTEST_PCH=ON -DPLAYTEST_BENCH=OFF -DPLAYTEST_HEADER_CHECK=OFF)

stage "Release build and tests"
# The benchmarks are built here (not run): so that a change of the library's interface that breaks
# them fails CI rather than the next performance measurement. The configuration is the developers'
# Release build (build/rel, -DPLAYTEST_WERROR=ON, the same depth of folder), so that their compiles
# are in ccache for CI's.
cmake -S . -B build/test -G Ninja "${cache[@]}" -DCMAKE_BUILD_TYPE=Release -DPLAYTEST_WERROR=ON >/dev/null
cmake --build build/test -j "$jobs"
step build
ctest --test-dir build/test --output-on-failure -j "$jobs" --timeout 600
step tests
stage_end

if [ "${PLAYTEST_SKIP_SANITIZE:-0}" != 1 ]; then
  stage "AddressSanitizer + UndefinedBehaviorSanitizer build and tests"
  cmake -S . -B build/asan -G Ninja "${sanitizer_flags[@]}" -DPLAYTEST_SANITIZE=ON >/dev/null
  cmake --build build/asan -j "$jobs"
  step build
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build/asan --output-on-failure -j "$jobs" --timeout 1200
  step tests
  stage_end
fi

if [ "${PLAYTEST_SKIP_TSAN:-0}" != 1 ]; then
  stage "ThreadSanitizer build and tests"
  cmake -S . -B build/tsan -G Ninja "${sanitizer_flags[@]}" -DPLAYTEST_TSAN=ON >/dev/null
  cmake --build build/tsan -j "$jobs"
  step build
  # halt_on_error: a reported race fails its test. Excluded, with the reason:
  #   docs_commands, docs_commands_selftest: they run the documented shell commands (the Release
  #     build's examples, long simulations) and test no thread of playtest's that the rest do not.
  #   the property tests (label property) but those about threads: they check values against
  #     brute force on hundreds of random inputs, which the Release and ASan stages run; the
  #     threaded code they pass through (the solvers' teams, campaigns, the parallel readers) runs
  #     here under the unit and CLI tests on two threads, and the property tests named for threads,
  #     jobs, load or campaigns run here too (the second ctest). They were 500 of the stage's 1500
  #     test CPU seconds.
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
    ctest --test-dir build/tsan --output-on-failure -j "$jobs" --timeout 1200 -E '^docs_commands' -LE '^property$'
  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
    ctest --test-dir build/tsan --output-on-failure -j "$jobs" --timeout 1200 -L '^property$' \
      -R 'Thread|Jobs|Parallel|Concurren|Reproducib|Load|Campaign|Shard'
  step tests
  stage_end
fi

if [ "${PLAYTEST_SKIP_FUZZ:-0}" != 1 ]; then
  if command -v clang++ >/dev/null; then
    stage "libFuzzer targets"
    # Only the fuzzers and the libraries they link are built (target playtest_fuzzers); -g1 (line
    # tables) is what a crash's stack trace prints. No precompiled header: CMake hands clang the
    # header's absolute path behind -Xclang, which ccache cannot make relative, so with one no
    # object would be shared between two clones.
    CXX=clang++ cmake -S . -B build/fuzz -G Ninja "${cache[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPLAYTEST_FUZZ=ON -DPLAYTEST_PCH=OFF \
      "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" \
      -DPLAYTEST_WERROR=OFF -DPLAYTEST_TESTS=OFF -DPLAYTEST_BENCH=OFF >/dev/null
    cmake --build build/fuzz -j "$jobs" --target playtest_fuzzers
    step build
    # Each fuzzer runs its full time on one core: $jobs of them at once, their reports printed in
    # order. A fuzzer that finds a crash (or fails to start) exits non-zero and fails the stage.
    seconds=${PLAYTEST_FUZZ_SECONDS:-30}
    fuzz_out=$(mktemp -d)
    fuzzers=() pids=()
    for f in build/fuzz/tests/fuzz/fuzz_*; do
      [ -x "$f" ] || continue
      fuzzers+=("$f")
    done
    fuzz_one() {
      local f=$1 name corpus work
      name=$(basename "$f")
      corpus=tests/fuzz/corpus/${name#fuzz_}
      work=$fuzz_out/$name.corpus
      mkdir -p "$work"
      [ -d "$corpus" ] && cp -r "$corpus"/. "$work"/
      "$f" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 "$work" >"$fuzz_out/$name.log" 2>&1
    }
    fuzz_failed=0
    for ((i = 0; i < ${#fuzzers[@]}; i += jobs)); do
      pids=()
      for f in "${fuzzers[@]:i:jobs}"; do
        fuzz_one "$f" &
        pids+=($!)
      done
      for ((k = 0; k < ${#pids[@]}; k++)); do
        f=${fuzzers[i + k]}
        status=0
        wait "${pids[k]}" || status=$?
        echo "-- $(basename "$f") ($seconds s)"
        if [ "$status" -ne 0 ]; then
          cat "$fuzz_out/$(basename "$f").log"
          echo "-- $(basename "$f") failed (exit $status)"
          fuzz_failed=1
        else
          tail -n 12 "$fuzz_out/$(basename "$f").log"
        fi
      done
    done
    rm -rf "$fuzz_out"
    [ "$fuzz_failed" = 0 ]
    step fuzzing
    stage_end
  else
    echo "== libFuzzer targets skipped: clang++ not found"
  fi
fi
echo "== stage times"
print_summary
cpu_now
echo "   all: $(($(date +%s) - total_start)) s, CPU $cpu s"
echo "== all test stages passed"
