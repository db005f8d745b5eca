#!/bin/sh
# A lesson's check against a knob typed in the input box: the status line reads the result
# on screen, not the one before the value was applied (lesson 4's last step said "not yet"
# for 1474 H100s, the exact minimum, until the next key), and a value that both sides read
# as "100.0 days" says on which side of the bound it is.
. "$(dirname "$0")/lib.sh"

tm set-option -g remain-on-exit on \; set-option -g history-limit 2000 \; \
	new-session -d -s app -x 140 -y 45 "$NAPKIN lesson 4" || fail "tmux did not start"
wait_for 'step 1 of 5' 'lesson 4 did not open'
keys n n n n
wait_for 'step 5 of 5' 'n did not reach step 5'
wait_for 'not yet · goal: ' 'the step does not start unanswered'
# down the knob list until the GPU count has the focus (its help shows under the list)
press_until 'GPUs in the job' Down 'no GPU count knob'
keys Enter
wait_for 'Enter apply' 'Enter did not open the input box'
keys C-u
tm send-keys -t app -l 1474
keys Enter
wait_for '✓ answered: training days below 100.0 days \(now 100.0 days, just below\)' \
	'1474 GPUs (99.988 days) is not shown as answered at once'
wait_for '✓ step 5 answered' 'no message that the step is answered'
keys Enter
wait_for 'Enter apply' 'Enter did not open the input box'
keys C-u
tm send-keys -t app -l 1400
keys Enter
wait_for 'not yet · goal: ' 'fewer GPUs do not undo the answer'
echo "ok: a typed knob answers the step at once, and the words say which side of 100.0 days"
