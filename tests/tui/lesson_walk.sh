#!/bin/sh
# A lesson in the explorer, end to end: napkin lesson 7 opens on its first step, n/p move,
# turning a knob until the step's check holds shows it answered, moving back restores the
# step's own knobs, L lists the lessons, T and D open the tensor inspector and the dtype
# lab, q quits with status 0.
. "$(dirname "$0")/lib.sh"

tm set-option -g remain-on-exit on \; set-option -g history-limit 2000 \; \
	new-session -d -s app -x 120 -y 40 "$NAPKIN lesson 7" || fail "tmux did not start"
wait_for 'Lesson 7: Arithmetic intensity' 'the lesson panel did not open'
wait_for 'step 1 of 4' 'not on step 1'
wait_for 'The ridge point' 'no step title'
keys n
wait_for 'step 2 of 4' 'n did not move to step 2'
keys n
wait_for 'step 3 of 4' 'n did not move to step 3'
wait_for 'not yet · goal: ' 'the check is not shown as open (with its goal)'
screen | grep -q 'training step is memory-bound' && fail 'the open check gives its condition away'
# the step puts the cursor on the knob it asks about, the sequence: 4096 -> 128
wait_for '▸? *sequence' 'no sequence knob'
keys Left Left Left Left Left
wait_for 'sequence +128 ' 'the sequence did not step down to 128'
wait_for '✓ answered: the training step is memory-bound \(now memory-bound\)' 'the check did not confirm'
# back and forth: the step starts again from its own knobs
keys p
wait_for 'step 2 of 4' 'p did not move back'
keys n
wait_for 'step 3 of 4'
wait_for 'not yet · goal: ' 'the step did not restore its knobs'
# the list of lessons, then lesson 1
keys L
wait_for 'Lessons: the chapter, step by step' 'L did not list the lessons'
wait_for '9  The techniques' 'the list is incomplete'
keys Enter
wait_for 'Lesson 1: Why count resources' 'Enter did not start lesson 1'
wait_for 'step 1 of 3'
# the tensor inspector and the dtype lab, from inside the lesson
keys T
wait_for 'tensor inspector' 'T did not open the inspector'
wait_for 'q_proj.weight +\[q_dim=4096, hidden=4096\] +bf16' 'no weight matrices listed'
keys : 't' 'r' 'a' 'n' 's' 'p' 'o' 's' 'e' '(' 's' 'e' 'q' ',' Space 'h' 'e' 'a' 'd' 's' ')' Enter
wait_for 'NOT contiguous' 'transpose did not make it non-contiguous'
keys c
wait_for 'copied into new contiguous storage, reading 32.00 MiB' 'contiguous() did not copy'
keys Escape
wait_for 'step 1 of 3' 'Esc did not return to the lesson'
keys D
wait_for 'dtype lab' 'D did not open the dtype lab'
wait_for 'fp16 +0 11111 0000000000 +\+inf' 'fp16 does not overflow on 70000'
wait_for 'bf16 +0 10001111 0001001 +70144' 'bf16 does not store 70144'
keys Escape
wait_for 'step 1 of 3'
keys Escape
wait_for 'left the lesson' 'Esc did not leave the lesson'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: lesson walk (steps, check confirmed, list, inspector, dtype lab)"
