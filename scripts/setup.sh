#!/bin/sh
# Sets napkin up on a fresh Debian or Ubuntu machine: installs the packages that are
# missing (with sudo when not root), configures and builds into ./build.
#   ./scripts/setup.sh && ./build/napkin
set -eu
cd "$(dirname "$0")/.."

./scripts/deps.sh build
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc 2>/dev/null || echo 2)"
echo "napkin setup: built ./build/napkin"
