#!/bin/sh
# Sets napkin up on a fresh Debian or Ubuntu machine: installs the packages that are
# missing (with sudo when not root), configures and builds into ./build.
#   ./scripts/setup.sh && ./build/napkin
set -eu
cd "$(dirname "$0")/.."

need=""
for pkg in build-essential cmake pkg-config libncurses-dev libyaml-dev libcmocka-dev tmux; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need="$need $pkg"
done
if [ -n "$need" ]; then
  echo "napkin setup: installing$need"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  # shellcheck disable=SC2086
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc 2>/dev/null || echo 2)"
echo "napkin setup: built ./build/napkin"
