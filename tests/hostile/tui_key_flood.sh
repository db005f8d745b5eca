#!/bin/sh
# A flood of keys: 6,200 keys (every key of the key table but quit, and junk: function keys,
# Escape, control characters, UTF-8 text) as fast as tmux sends them. The explorer stays
# alive, catches up, answers a key at once afterwards, and quits cleanly.
. "$(dirname "$0")/../tui/lib.sh"
start 120 40
wait_for 'Memory per GPU' 'never drew'
set -- Up Down Left Right + - = h l j k Tab BTab Enter Escape m Escape g Escape t e Escape c \
	PageUp PageDown Home End '?' Escape F1 Escape C-l L Escape T Escape D Escape \
	F2 F5 F12 IC DC C-a C-b C-d C-e C-k C-u C-w C-z BSpace Space 0 9 x Z '~' '[' ']'
n=0
round=0
rounds=${NAPKIN_FLOOD_ROUNDS:-100}
while [ $round -lt "$rounds" ]; do
	keys "$@" Escape Escape
	n=$((n + $# + 2))
	round=$((round + 1))
done
keys -l 'Ωmega → ∞ 日本語 é'
keys Escape Escape Escape
[ "$(tm display-message -p -t app '#{pane_dead}')" = 0 ] || fail "died in the flood"
# it has caught up: the screen stops changing (under valgrind the flood takes a while to
# drain), then a fresh key is answered
settled=0 last='' i=0
while [ $settled -lt 10 ]; do
	now=$(screen | cksum)
	if [ "$now" = "$last" ]; then settled=$((settled + 1)); else settled=0; fi
	last=$now
	i=$((i + 1))
	[ $i -gt $((DEADLINE * 10)) ] && fail 'the screen never settled after the flood'
	sleep 0.1
done
keys Escape Escape C-l
wait_for 'Memory per GPU' 'no main screen after the flood (Escape, C-l)'
screen | grep -q 'Keys (? or Esc closes)' && fail 'an overlay is still open after Escape'
keys Q
st=$(wait_exit)
[ "$st" = 0 ] || fail "exit status $st"
echo "ok: $n keys"
