#!/bin/sh
# The heatmap in mode infer: its axes are the users and the prompt (a serving replica's context
# is its prompt and output; seq is training's and would leave every row the same), and y offers
# the headroom and serving's TTFT, ITL and output tokens/s per GPU, never a training step's
# time or MFU; a cell's TTFT is the report's at that batch and prompt.
. "$(dirname "$0")/lib.sh"

ARGS="--model llama-3-70b --gpus 2 --tp 2 --mode infer --engine vllm --weight-format fp8 --prompt 5000 --generate 500"
ttft=$("$NAPKIN" report $ARGS --batch 1 | sed -n 's/.*steady   1 user: TTFT \([0-9.]* [a-z]*\).*/\1/p')
[ -n "$ttft" ] || fail "the report prints no TTFT at one user"
start 110 34 $ARGS --batch 50
wait_for 'micro-batch' 'no main screen'
keys H
wait_for 'Heatmap: headroom per GPU, batch × prompt' 'the heatmap in mode infer is not over batch × prompt'
seen=""
for i in 1 2 3 4; do
	keys y
	sleep 0.3
	head=$(line_of 'Heatmap: ')
	case $head in
	*"step time"* | *"MFU"*) fail "y offers a training result in mode infer: '$head'" ;;
	*"Heatmap: TTFT,"*) seen="$seen ttft" ;;
	*"Heatmap: ITL,"*) seen="$seen itl" ;;
	*"Heatmap: out tokens/s per GPU,"*) seen="$seen tps" ;;
	*"Heatmap: headroom per GPU,"*) seen="$seen headroom" ;;
	*) fail "an unexpected heatmap: '$head'" ;;
	esac
done
[ "$seen" = " ttft itl tps headroom" ] || fail "y cycled through '$seen'"
keys y
wait_for 'Heatmap: TTFT, batch × prompt' 'y did not come back to TTFT'
wait_for "batch 1 × prompt 5000: $ttft" "the cursor's cell is not the report's TTFT $ttft at one user"
keys Escape
wait_for 'micro-batch' 'Esc did not leave the heatmap'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: heatmap in mode infer"
