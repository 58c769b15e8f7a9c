#!/usr/bin/env bash
# Builds the Debian package of playtest: install what is missing, build Release (the tool, the
# library, the man pages) in build/release, and make build/release/playtest_<version>_<arch>.deb
# with CPack (cmake/PlaytestInstall.cmake says what goes in). Install it with
#   sudo apt install ./build/release/playtest_*.deb
# (apt, unlike dpkg -i, installs the packages it depends on). tests/package/deb_test.py checks
# the package that the same CPack configuration makes from the test build.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
out=build/release
cmake -S . -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPLAYTEST_TESTS=OFF -DPLAYTEST_BENCH=OFF >/dev/null
cmake --build "$out" -j "$(nproc)"
(cd "$out" && cpack -G DEB)
ls "$out"/playtest_*.deb
