#!/bin/sh
# Lessons agree with the screen. Lesson 5 step 3 says what mixed precision leaves alone (the
# model states: 16 bytes per parameter either way) and what it shrinks (the activations),
# and the techniques pane's line on the same screen says the same; a check reads in words
# the status line shows the step's goal, never the hidden condition (the check's words once
# it is met are held by the unit tests).
. "$(dirname "$0")/lib.sh"
tm set-option -g remain-on-exit on \; new-session -d -s app -x 120 -y 40 "$NAPKIN lesson 5" ||
	fail "tmux did not start"
wait_for 'step 1 of 4' 'lesson 5 did not open'
keys n n
wait_for 'step 3 of 4' 'n n did not reach step 3'
wait_for 'model states stay at 16 bytes' 'the lesson does not say the model states stay'
wait_for 'activations' 'the lesson does not say what shrinks'
screen | grep -q 'faster, not smaller' && fail 'the lesson still says "faster, not smaller"'
wait_for 'not yet · goal: ' 'the status line does not show the goal'
screen | grep -q 'bytes per parameter below' && fail 'the status line gives the hidden condition away'
# the panel covers the techniques pane: leave (the scenario is given back), u brings the
# lesson's scenario back onto the main screen
keys Escape
wait_gone 'Lesson 5:'
keys u
wait_for 'undid leaving the lesson'
wait_for '▸ states stay 16 B/param; activations off' "the techniques pane's line does not say the same"
keys Q
wait_exit >/dev/null
stop
tm set-option -g remain-on-exit on \; new-session -d -s app -x 120 -y 40 "$NAPKIN lesson 3" ||
	fail "tmux did not start"
wait_for 'Lesson 3' 'lesson 3 did not open'
wait_for 'not yet · goal: ' 'the status line does not show the goal'
screen | grep -q 'weights at most' && fail 'the status line gives the hidden condition away'
screen | grep -q 'memory.weights <=' && fail 'the check shows its raw key'
keys Escape
wait_gone 'Lesson 3'
keys Q
wait_exit >/dev/null
stop
# the pane's line with activations counted (the explorer's default scenario)
start 120 40
wait_for '▸ states stay 16 B/param, activations ~½' "the techniques pane's line does not say what mixed precision changes"
keys Q
[ "$(wait_exit)" = 0 ] || fail 'exit status'
echo "ok: lessons agree with the screen"
