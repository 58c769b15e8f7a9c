#!/usr/bin/env bash
# The main job on bundled examples: install what is missing, build playtest (Release) and
#  1. check and describe the seed 000 Figure 1 test graph, and compute its edge-coverage tour;
#  2. compute the expected-cost strategy for the example system under test (examples/sut, a
#     multithreaded program whose output order is nondeterministic);
#  3. play that strategy online against the correct build (verdict PASS) and against the buggy build
#     (verdict FAIL, with the trace that led to it), writing a JSON-lines trace and a JUnit report;
#  4. write one HTML report of both (build/release/demo-report.html): verdicts, replay commands, the
#     model with coverage and the path to the failure.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
out=build/release
cmake -S . -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPLAYTEST_TESTS=OFF -DPLAYTEST_BENCH=OFF >/dev/null
cmake --build "$out" --target playtest workers_sut workers_sut_buggy -j "$(nproc)"
pt=$out/playtest
figure1=examples/graphs/seed000-figure1.json
model=examples/sut/workers.json
set -x
"$pt" validate "$figure1"
"$pt" info "$figure1"
"$pt" cover "$figure1" --sim-runs 2000 --max-visits 8 --seed 1
"$pt" solve "$model" --objective expected
"$pt" run "$model" --sut "$out/examples/sut/workers_sut" --strategy expected --goal off --steps 3000 \
  --timeout-ms 10000 --seed 1 --trace "$out/demo-trace.jsonl" --junit "$out/demo-junit.xml"
set +e
"$pt" run "$model" --sut "$out/examples/sut/workers_sut_buggy" --strategy expected --goal off --steps 3000 \
  --timeout-ms 10000 --vertex-timeout last0=200 --seed 1 --trace "$out/demo-buggy-trace.jsonl"
code=$?
set +x
if [ "$code" -ne 1 ]; then
  echo "demo: expected verdict FAIL (exit code 1) on the buggy build, got exit code $code" >&2
  exit 1
fi
"$pt" report "$out/demo-trace.jsonl" "$out/demo-buggy-trace.jsonl" --model "$model" -o "$out/demo-report.html"
echo "demo: the correct build passed, the buggy build was caught (traces and JUnit in $out/)"
echo "demo: report of both runs: $out/demo-report.html (open it in a browser; it loads nothing from the network)"
