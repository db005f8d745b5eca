#!/bin/sh
# The explorer leaves when its terminal goes away (the tmux server killed: the pty closes
# under it), instead of spinning on a dead input. Its parent here ignores SIGHUP and
# outlives it, so the kernel's SIGHUP (sent to the session leader) never reaches the
# explorer: only the dead input tells.
. "$(dirname "$0")/lib.sh"
mark="$TUI_TMP/presets-hangup-$$"
mkdir -p "$mark/gpus"
tm set-option -g remain-on-exit on \; new-session -d -s app -x 100 -y 30 \
	"sh -c 'trap \"\" HUP; $NAPKIN explore --presets $mark; sleep 5'" || fail 'tmux did not start'
wait_for 'Memory per GPU' 'never drew'
# the explorer's own command line ends with its presets folder (the sh around it ends with
# its sleep); under valgrind it starts with valgrind's, so it is not anchored at the start
pid=$(pgrep -n -f -- "explore --presets $mark\$")
[ -n "$pid" ] || fail 'no explorer process'
tm kill-server
i=0
while kill -0 "$pid" 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 100 ]; then
		kill "$pid"
		echo "FAIL: the explorer (pid $pid) kept running after its terminal closed"
		exit 1
	fi
	sleep 0.05
done
echo "ok: hangup"
