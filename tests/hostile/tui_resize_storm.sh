#!/bin/sh
# Rapid resizes: 300 sizes from 1×1 to 250×80, sent in bursts with no pause, then a normal
# size: the explorer is alive, draws the whole screen at the final size, and quits cleanly.
. "$(dirname "$0")/../tui/lib.sh"
start 120 40
wait_for 'Memory per GPU' 'never drew'
i=0
seed=7
while [ $i -lt 30 ]; do
	cmd=""
	j=0
	while [ $j -lt 10 ]; do
		seed=$(( (seed * 1103515245 + 12345) % 2147483648 ))
		w=$(( seed % 250 + 1 ))
		seed=$(( (seed * 1103515245 + 12345) % 2147483648 ))
		h=$(( seed % 80 + 1 ))
		cmd="$cmd resize-window -t app -x $w -y $h ;"
		j=$((j + 1))
	done
	# one tmux call per burst of ten: no pause between them
	# shellcheck disable=SC2086
	eval "tm $(echo "$cmd" | sed 's/;/\\;/g; s/\\;$//')"
	i=$((i + 1))
done
[ "$(tm display-message -p -t app '#{pane_dead}')" = 0 ] || fail "died during the resizes"
tm resize-window -t app -x 132 -y 43
wait_for 'Memory per GPU' 'nothing drawn after the resizes'
[ "$(screen | wc -l)" -eq 43 ] || fail "not 43 lines after the resizes"
screen | grep -q 'make the terminal' && fail 'still says the terminal is too small'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: 300 rapid resizes"
