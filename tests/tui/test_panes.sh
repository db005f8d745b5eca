#!/bin/sh
# The panes are there at 120×40, in words a student reads: the roofline's axes have units,
# the verdict is whole, the techniques say what they change (mixed precision: the model
# states stay, the activations halve), and what the report's table says (no change where it
# changes nothing); q exits with status 0.
. "$(dirname "$0")/lib.sh"
start 120 40
wait_for 'Memory per GPU' 'the memory pane never drew'
for p in 'napkin' 'Knobs' 'Model' 'Batch & sequence' 'Precision' 'GPU & cluster' \
	'Compute and time' 'Roofline' 'Techniques' 'Data types' 'per param .* = 16 B' 'largest micro-batch' \
	'fewest GPUs' 'MFU / HFU' 'ridge' 'training step is compute-bound' 'bf16' '\? help' \
	'FLOP/s' 'FLOP/B' 'intensity [0-9.,e+]+ FLOP/B, ridge [0-9]+' 'forward .* \+ backward' \
	'▸ states stay 16 B/param, activations ~½' 'dtype +bytes +bits'; do
	screen | grep -Eq -- "$p" || fail "no '$p' on the screen"
done
# the techniques table says the same as napkin report: selective recompute changes no time here
screen | grep -Eq 'selective recompute .*no change' || fail "the pane's selective recompute row: $(screen | grep 'selective recompute')"
"$NAPKIN" report | grep -Eq '^ +selective recompute .*no change$' || fail "the report's selective recompute row: $("$NAPKIN" report | grep 'selective recompute')"
keys q
st=$(wait_exit)
[ "$st" = 0 ] || fail "exit status $st"
echo "ok: panes"
