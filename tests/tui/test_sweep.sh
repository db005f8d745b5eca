#!/bin/sh
# The sweep view (S): memory along the micro-batch, the first point that does not fit is
# `napkin report`'s memory.max_batch + 1, → moves the scenario's own batch (u undoes it),
# - steps another knob (the sequence) and the curve follows, y changes the result, and the
# view holds at 80x24.
. "$(dirname "$0")/lib.sh"

ARGS="--model llama-2-7b --gpu h100-sxm --gpus 8 --zero 3"
max_batch() {
	"$NAPKIN" report --format json $ARGS "$@" |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["memory"]["max_batch"])'
}

start 100 30 $ARGS
wait_for 'micro-batch' 'no main screen'
keys S
wait_for 'Sweep: memory per GPU along micro-batch' 'the sweep did not open'
want=$(($(max_batch) + 1))
wait_for "first point that does not fit: batch $want;" "first non-fitting point is not max_batch+1 = $want"
wait_for 'capacity 79.65 GiB' 'no capacity line label'
wait_for '─┬─' 'no x axis with ticks'
wait_for 'now \(dotted\): batch 1:' 'the current x is not batch 1'
keys Right
wait_for 'now \(dotted\): batch 2:' '→ did not move the batch to 2'
keys u
wait_for 'now \(dotted\): batch 1:' 'u did not undo the batch'
keys -
wait_for 'other knob \(j k, - \+\): seq = 2,048' '- did not step the sequence down'
want2=$(($(max_batch --seq 2048) + 1))
[ "$want2" != "$want" ] || fail "the test needs a sequence that changes max_batch"
wait_for "first point that does not fit: batch $want2;" "after seq 2048 the curve did not follow (want $want2)"
keys y
wait_for 'Sweep: step time' 'y did not change the result'
keys Y
wait_for 'Sweep: memory per GPU' 'Y did not go back'
# s stacks memory's parts: the legend's figures are napkin report's parts at the scenario's x
keys s
wait_for 'stack \(s\): on' 's did not turn stacking on'
gib() {
	"$NAPKIN" report --format json $ARGS --seq 2048 | python3 -c '
import json, sys
b = json.load(sys.stdin)["memory"][sys.argv[1]]
v = abs(b); u = ["B", "KiB", "MiB", "GiB", "TiB"]; i = 0
while v >= 1024 and i < 4: v /= 1024; i += 1
print("%.*f %s" % (1 if v >= 100 else 2, v, u[i]))' "$1"
}
act=$(gib activations)
opt=$(gib optimizer)
wait_for "activations $act" "the stacked legend's activations is not napkin report's ($act)"
wait_for "optimizer $opt" "the stacked legend's optimizer is not napkin report's ($opt)"
wait_for '▚▚▚' 'no activation band drawn'
# a adds a second result (step time) in its own panel, stacked by the step's parts
keys a
wait_for 'Sweep: memory per GPU \+ step time' 'a did not add a result'
wait_for 'matmul ' 'the step panel has no parts legend'
tm resize-window -t app -x 80 -y 24
wait_for 'results \(y, a d\): 2 of 3' 'lost the two results at 80x24'
wait_for '└▲' 'the current x is not marked on the axis at 80x24'
tm resize-window -t app -x 100 -y 30
keys d s
wait_for 'stack \(s\): off' 's did not turn stacking off'
wait_for 'results \(y, a d\): 1 of 3' 'd did not drop the result'
keys x
wait_for 'Sweep: memory per GPU along ' 'x broke the view'
wait_gone 'along micro-batch' 'x did not change the knob'
keys X
wait_for 'along micro-batch' 'X did not come back'
tm resize-window -t app -x 80 -y 24
wait_for 'Sweep: memory per GPU' 'lost the sweep at 80x24'
wait_for '─┬─' 'no axis at 80x24'
wait_for 'first point that does not fit' 'no fit line at 80x24'
wait_for 'Esc close' 'no footer at 80x24'
keys Escape
wait_for 'micro-batch +1 ' 'Esc did not return to the main screen'
keys Q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: sweep (first non-fitting batch $want, then $want2 at seq 2048)"
