#!/bin/sh
# Nothing is lost: starting a lesson and leaving it (Esc) gives the user's own scenario
# back (Llama-3-8B on 16 GPUs stays that, not the lesson's Llama-2-7B on 8), and u undoes
# the last changes one by one: a knob step, a model pick, a lesson start; ? and the footer
# list u.
. "$(dirname "$0")/lib.sh"
start 120 40 --model llama-3-8b --gpus 16
wait_for 'Llama-3-8B on 16 × H100' 'never drew'
screen | grep -q 'u undo' || fail 'the footer does not list u'
keys '?'
wait_for 'undo the last change' '? does not list u'
keys Escape
# a lesson from L: its knobs replace the scenario while it runs
keys L
wait_for 'Lessons: the chapter' 'L did not list the lessons'
keys Enter
wait_for 'Lesson 1:' 'lesson 1 did not start'
wait_for 'Llama-2-7B on 8 × H100' 'the lesson did not set its knobs'
keys Escape
wait_for 'left the lesson: your scenario is back' 'Esc did not say the scenario is back'
wait_for 'Llama-3-8B on 16 × H100' 'leaving the lesson lost the scenario'
# u: back into the lesson's scenario, then u again: the scenario before the lesson
keys u
wait_for 'undid leaving the lesson' 'u did not undo leaving the lesson'
wait_for 'Llama-2-7B on 8 × H100'
keys u
wait_for 'undid starting lesson 1' 'u did not undo the lesson start'
wait_for 'Llama-3-8B on 16 × H100'
# a knob step and a pick, undone in turn
wait_for 'micro-batch +1 '
keys Right
wait_for 'micro-batch +2 '
keys m
wait_for 'Pick a model' 'no model picker'
keys -l mistral-7b
keys Enter
wait_for 'Mistral-7B-v0.1 on 16' 'the pick did not take'
keys u
wait_for 'undid model' 'u did not undo the pick'
wait_for 'Llama-3-8B on 16 × H100'
keys u
wait_for 'undid batch 2' 'u did not undo the knob step'
wait_for 'micro-batch +1 '
keys u
wait_for 'nothing to undo' 'the history did not end'
keys q
[ "$(wait_exit)" = 0 ] || fail 'exit status'
echo "ok: undo and leaving a lesson"
