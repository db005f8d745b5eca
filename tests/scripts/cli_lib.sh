# What the command-line tests (tests/cli/*.sh) share, sourced with the napkin binary as $1:
# NAPKIN, a temporary folder $tmp removed on the way out, fail (counts, goes on), run (the
# binary with its stdout and stderr in $tmp/out and $tmp/err, its status in $rc; under
# `timeout $RUN_TIMEOUT` when that is set, so that a range that spins fails as 124), the
# checks on them (each names $what), and finish, which ends the script with its count.
#   . "$(dirname "$0")/../scripts/cli_lib.sh"

set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0
what=

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
run() {
	if [ -n "${RUN_TIMEOUT:-}" ]; then
		timeout "$RUN_TIMEOUT" "$NAPKIN" "$@" >"$tmp/out" 2>"$tmp/err"
	else
		"$NAPKIN" "$@" >"$tmp/out" 2>"$tmp/err"
	fi
	rc=$?
}
ok() { [ "$rc" -eq 0 ] || fail "$what: status $rc: $(head -c 400 "$tmp/err")"; }
refused() { [ "$rc" -eq 2 ] || fail "$what: status $rc, not 2 (refused): $(head -c 300 "$tmp/err")"; }
out_has() { grep -qF -- "$1" "$tmp/out" || fail "$what: stdout lacks '$1': $(head -c 600 "$tmp/out")"; }
err_has() { grep -qF -- "$1" "$tmp/err" || fail "$what: stderr lacks '$1': $(head -c 600 "$tmp/err")"; }
err_lacks() { ! grep -qF -- "$1" "$tmp/err" || fail "$what: stderr has '$1': $(head -c 600 "$tmp/err")"; }
have_py() { command -v python3 >/dev/null 2>&1; }
# finish MESSAGE: the count of failures and status 1, or MESSAGE and status 0
finish() {
	[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
	echo "$1"
	exit 0
}
