#!/bin/sh
# Hostile environments: no locale at all (env -i, LC_ALL=C, LC_ALL=POSIX), a terminal without
# colours (vt100), NO_COLOR, TERM=dumb and no TERM: the explorer draws (ASCII where there is
# no UTF-8) and quits cleanly, or refuses with a message and status 1; never a crash.
. "$(dirname "$0")/../tui/lib.sh"
out="$TUI_TMP/out"
base=$SOCK
runs=0
# run_env NAME CMD: CMD in a fresh tmux server (its own socket: a server being killed can
# still answer on the old one)
run_env() {
	name=$1
	shift
	tm kill-server 2>/dev/null
	rm -f "/tmp/tmux-$(id -u)/$SOCK"
	runs=$((runs + 1))
	SOCK=$base-$runs
	tm set-option -g remain-on-exit on \; new-session -d -s app -x 100 -y 30 "$* 2>$out"
}
for e in "env -i PATH=/usr/bin:/bin TERM=tmux-256color" "env LC_ALL=C" "env LC_ALL=POSIX LANG=" \
	"env -u LANG -u LC_ALL -u LC_CTYPE" "env TERM=vt100 LC_ALL=C" "env NO_COLOR=1 LC_ALL=C.UTF-8" \
	"env LC_ALL=xx_XX.UTF-8"; do
	run_env "$e" "$e $NAPKIN explore"
	wait_for 'Memory per GPU' "nothing drawn with: $e"
	keys q
	st=$(wait_exit)
	[ "$st" = 0 ] || fail "$e: exit status $st: $(cat "$out")"
	echo "ok: $e"
done
for e in "env TERM=dumb LC_ALL=C" "env -u TERM" "env TERM= LC_ALL=C" "env -i TERM=dumb"; do
	run_env "$e" "$e $NAPKIN explore"
	st=$(wait_exit)
	[ "$st" = 1 ] || fail "$e: exit status $st, wanted 1: $(cat "$out")"
	[ -s "$out" ] || fail "$e: no message"
	grep -qi 'napkin' "$out" || fail "$e: the message does not say who: $(cat "$out")"
	echo "ok: $e: $(head -n1 "$out")"
done
echo "ok: hostile environments"
