#!/usr/bin/env bash
# The main job on a bundled example: install what is missing, build playtest (Release) and run it on
# examples/graphs/seed000-figure1.json (the test graph of seed 000, section 5, Figure 1).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DPLAYTEST_TESTS=OFF -DPLAYTEST_BENCH=OFF >/dev/null
cmake --build build/release --target playtest -j "$(nproc)"
pt=build/release/playtest
example=examples/graphs/seed000-figure1.json
set -x
"$pt" validate "$example"
"$pt" info "$example"
"$pt" dot "$example" -o build/release/seed000-figure1.dot
