#!/bin/sh
# A lesson step puts the knob cursor on the knob its question is about, the knob list
# scrolled to it: lesson 4 step 5 asks how many H100s finish in under 100 days (the GPUs
# knob), step 4 what throughput 50% MFU needs (tokens/s), lesson 3 step 3 to let fp32
# matmuls use Tensor Cores (the matmul dtype), lesson 6 step 1 whether the copy changes
# with the batch (its focus: batch), step 2 to overlap the copy (pinned memory). The focused knob's sentence from the knob table shows
# under the list, and → steps that knob. A knob filter that hides the knob is dropped.
# Where the lesson's panel covers the bottom of the knob pane, the knob is in the rows
# above it.
. "$(dirname "$0")/lib.sh"


start_lesson 80 24 4 --step 5
wait_for 'step 5( of |/)5' 'lesson 4 --step 5 did not open'
wait_for 'GPUs in the job' 'step 5: the cursor is not on GPUs'
screen | grep -q '1024 × H100' || fail 'step 5: not on 1024 GPUs'
keys Right
wait_gone '1024 × H100' '→ did not step the GPUs'
keys p
wait_for 'step 4( of |/)5' 'p did not go back'
wait_for 'measured throughput of' 'step 4: the cursor is not on tokens/s'
# a filter that hides the step's knob gives way when the step starts
keys /
keys -l zero
keys Enter
wait_for 'Knobs \(filter: 1 of' 'the filter did not take'
keys n
wait_for 'step 5( of |/)5' 'n did not move on'
wait_gone 'Knobs \(filter' 'the filter still hides the step'"'"'s knob'
wait_for 'GPUs in the job' 'step 5 again: the cursor is not on GPUs'
keys Escape
wait_gone 'Lesson 4:'
keys Q
[ "$(wait_exit)" = 0 ] || fail 'exit status'
stop

start_lesson 120 40 3 --step 3 --lang zh
wait_for '第 3(/4 步| 步（共 4 步）)' 'lesson 3 --step 3 --lang zh did not open'
wait_for '矩阵乘法使用的 dtype' 'zh step 3: the cursor is not on the matmul dtype'
keys Q
[ "$(wait_exit)" = 0 ] || fail 'zh: exit status'
stop

# where the lesson's panel covers the bottom of the knob pane (a step about the tensor
# inspector), the list scrolls the knob into the rows above it: lesson 2 step 2 asks to
# change the bytes per element, the activations' dtype
start_lesson 80 24 2 --step 2
wait_for 'step 2( of |/)4' 'lesson 2 --step 2 did not open'
top=$(screen | sed -n '1,/┌ Lesson 2/p')
echo "$top" | grep -q '│ activations  *auto' || fail 'lesson 2 step 2: the activations dtype is not in sight'
keys Right
wait_for '│ activations  *fp32' '→ did not step the activations dtype'
keys Q
[ "$(wait_exit)" = 0 ] || fail 'lesson 2: exit status'
stop

# a step without a solution, whose question is about a knob: its focus
start_lesson 80 24 6 --step 2
wait_for 'step 2( of |/)3' 'lesson 6 --step 2 did not open'
wait_for 'load batches from pinned' 'lesson 6 step 2: the cursor is not on pinned memory'
keys p
wait_for 'step 1( of |/)3' 'p did not go back to step 1'
wait_for 'sequences per GPU per' 'lesson 6 step 1: the cursor is not on the micro-batch'
keys Q
[ "$(wait_exit)" = 0 ] || fail 'lesson 6: exit status'
echo "ok: a lesson step focuses its knob"
