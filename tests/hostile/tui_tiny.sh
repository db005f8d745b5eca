#!/bin/sh
# The explorer on a 1×1 terminal, then 2×1, 3×2, 10×3, 79×23 and back up: it stays alive at
# every size, says what it needs where it can, and draws everything once there is room.
. "$(dirname "$0")/../tui/lib.sh"
alive() {
	st=$(tm display-message -p -t app '#{pane_dead}' 2>/dev/null)
	[ "$st" = 0 ] || fail "died at $1"
}
start 1 1
sleep 0.5
alive 1x1
for size in "2 1" "1 2" "3 2" "10 3" "20 1" "1 40" "79 23" "80 23" "79 24"; do
	set -- $size
	tm resize-window -t app -x "$1" -y "$2"
	sleep 0.2
	alive "$1x$2"
done
tm resize-window -t app -x 40 -y 10
wait_for 'at least 80' 'no "too small" message at 40×10'
# keys on a tiny terminal do not crash it either
tm resize-window -t app -x 1 -y 1
keys Down Up Right Left Tab Enter Escape '?' Escape m Escape g Escape
sleep 0.3
alive "keys at 1x1"
tm resize-window -t app -x 120 -y 40
wait_for 'Memory per GPU' 'nothing drawn at 120×40 after the tiny sizes'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: 1×1 and other tiny terminals"
