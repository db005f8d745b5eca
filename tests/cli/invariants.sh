#!/bin/sh
# Invariants of the command line over seeded random scenarios (NAPKIN_INVARIANT_SEED picks
# another set): a report's scenario loads back to the same report, plan candidates and
# sweep points are what `napkin report` says for the same knobs, and no command runs past
# a bound on any range it accepts (tests/cli/invariants.py says how).
#   sh tests/cli/invariants.sh PATH/TO/napkin
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3) || { echo "FAIL: python3 is needed to check the invariants"; exit 1; }
command -v timeout >/dev/null 2>&1 || { echo "FAIL: timeout(1) is needed to bound each command"; exit 1; }
exec "$PY" "$(dirname "$0")/invariants.py" "$NAPKIN"
