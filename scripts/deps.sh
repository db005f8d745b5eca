#!/bin/sh
# Installs the packages of scripts/packages.txt that one of the named groups needs and that
# are missing (with sudo when not root): build, test (build + test), ci (build + test + ci),
# shots (build + shots: scripts/screenshots.sh).
#   ./scripts/deps.sh build|test|ci|shots
set -eu
cd "$(dirname "$0")/.."
case "${1:-}" in
  build) groups="build" ;;
  test) groups="build test" ;;
  ci) groups="build test ci" ;;
  shots) groups="build shots" ;;
  *) echo "usage: scripts/deps.sh build|test|ci|shots" >&2; exit 2 ;;
esac
need=""
while read -r pkg group _; do
  case "$pkg" in ''|'#'*) continue ;; esac
  case " $groups " in *" $group "*) ;; *) continue ;; esac
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need="$need $pkg"
done < scripts/packages.txt
[ -n "$need" ] || exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "napkin: missing packages:$need (no apt-get here: install them yourself)" >&2
  exit 1
fi
echo "napkin: installing$need"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $need >/dev/null
