#!/bin/sh
# Lesson 12's quiz steps hide what they ask for until the student answers or asks to see it
# (v): step 4 a token's training FLOPs (4.608e10: 46.08 G), with its forward + backward and
# the run's total, which give it away; step 5 the bytes a GPU loads a step (1 MiB).
. "$(dirname "$0")/lib.sh"


start_lesson 120 40 12 --step 4
wait_for 'FLOPs/token \? exact' 'step 4: the FLOPs a token takes (the answer) is not hidden'
wait_for 'forward +\? \+ backward \?' 'step 4: forward + backward give the answer away'
wait_for 'total FLOPs \? ' "step 4: the run's total gives the answer away"
screen | grep -q '46.08 G' && fail 'step 4: 46.08 G shows before it is asked for'
keys v
wait_for 'FLOPs/token 46.08 G exact' 'step 4: v did not show the answer'
wait_for 'forward +15.36 G \+ backward 30.72 G' 'step 4: v did not show forward and backward'
stop

start_lesson 120 40 12 --step 5
wait_for 'data load +\?/GPU a step' 'step 5: the bytes a step loads (the answer) are not hidden'
keys v
wait_for 'data load +1.00 MiB/GPU a step' 'step 5: v did not show the answer'
stop

start_lesson 80 24 12 --step 4 --lang zh
wait_for 'FLOPs/token \? 精确值' 'zh step 4: the answer is not hidden'
screen | grep -q '46.08 G' && fail 'zh step 4: 46.08 G shows before it is asked for'
keys v
wait_for 'FLOPs/token 46.08 G 精确值' 'zh step 4: v did not show the answer'
stop
exit 0
