#!/bin/sh
# Builds napkin with warnings as errors and runs every test but the ones that need a GPU.
#   ./scripts/test.sh                 (installs the packages it needs first: scripts/deps.sh)
#   BUILD=build-asan NAPKIN_SANITIZE=ON ./scripts/test.sh   (ASan + UBSan)
set -eu
cd "$(dirname "$0")/.."
./scripts/deps.sh test
build="${BUILD:-build}"
cmake -S . -B "$build" -DNAPKIN_WERROR=ON -DNAPKIN_SANITIZE="${NAPKIN_SANITIZE:-OFF}" >/dev/null
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)"
ctest --test-dir "$build" -LE gpu --output-on-failure -j "$(nproc 2>/dev/null || echo 2)"
