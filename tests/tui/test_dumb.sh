#!/bin/sh
# TERM=dumb, or a TERM without terminfo, does not crash: a clear message and status 1.
# A locale without UTF-8 falls back to ASCII drawing.
. "$(dirname "$0")/lib.sh"
out="$TUI_TMP/out"
tm set-option -g remain-on-exit on \; new-session -d -s app -x 100 -y 20 \
	"sh -c 'TERM=dumb $NAPKIN explore 2> $out.1; echo rc=\$? >> $out.1; TERM=no-such-term $NAPKIN explore 2> $out.2; echo rc=\$? >> $out.2'"
wait_exit >/dev/null
grep -q 'cannot move the cursor' "$out.1" || fail "TERM=dumb: $(cat "$out.1")"
grep -q 'rc=1' "$out.1" || fail "TERM=dumb: $(cat "$out.1")"
grep -q 'no terminfo entry for TERM=no-such-term' "$out.2" || fail "bad TERM: $(cat "$out.2")"
grep -q 'rc=1' "$out.2" || fail "bad TERM: $(cat "$out.2")"
stop
tm set-option -g remain-on-exit on \; new-session -d -s app -x 100 -y 30 "env LC_ALL=C $NAPKIN explore --no-color"
wait_for '^\+ Knobs -' 'no ASCII borders in the C locale'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: dumb terminal, bad TERM, ASCII"
