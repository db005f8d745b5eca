#!/bin/sh
# A flood of keys: 6,000 keys (every key of the key table but quit, and junk: function keys,
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
while [ $round -lt 100 ]; do
	keys "$@" Escape Escape
	n=$((n + $# + 2))
	round=$((round + 1))
done
keys -l 'Ωmega → ∞ 日本語 é'
keys Escape Escape Escape
[ "$(tm display-message -p -t app '#{pane_dead}')" = 0 ] || fail "died in the flood"
# it has caught up: a fresh key is answered
keys C-l
wait_for 'Memory per GPU' 'no main screen after the flood (Escape, C-l)'
keys q
st=$(wait_exit)
[ "$st" = 0 ] || fail "exit status $st"
echo "ok: $n keys"
