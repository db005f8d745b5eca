#!/bin/sh
# The compare view in mode infer: its rows are serving's (the most sequences a replica runs at once, TTFT,
# ITL, the request, output tokens/s per GPU, per user and for the job, the cost per million
# tokens), not a training step's; each figure is the report's, the best marked by the result
# table's direction, and a cost without a price says so and is not marked. Llama-3-70B FP8 on
# 2 H100s at TP 2 under vLLM, 50 users of 5000 + 500 tokens, against an H200.
. "$(dirname "$0")/lib.sh"

ARGS="--model llama-3-70b --gpus 2 --tp 2 --mode infer --engine vllm --weight-format fp8 --prompt 5000 --generate 500 --batch 50"
ttft=$("$NAPKIN" report $ARGS | sed -n 's/.*steady   50 users: TTFT \([0-9.]* [a-z]*\) .*/\1/p')
[ -n "$ttft" ] || fail "the report prints no TTFT"
start 120 30 $ARGS
wait_for 'micro-batch' 'no main screen'
keys C
wait_for 'columns \(k K\): gpu' 'the compare view did not open'
keys a
wait_for 'Pick a GPU' 'a did not open the GPU picker'
tm send-keys -t app -l h200-sxm
keys Enter
wait_for 'H200 SXM' 'the H200 column did not come'
for row in 'max seqs per replica' 'TTFT' 'ITL' 'request time' 'out tokens/s per GPU' 'tokens/s per user' \
	'out tokens/s \(job\)' 'cost per M tokens'; do
	line_of "^ *$row " >/dev/null || fail "no '$row' row in mode infer: $(screen)"
done
for row in 'step time' 'MFU' 'training days'; do
	line_of "^ *$row " >/dev/null && fail "a training row '$row' in mode infer: $(screen)"
done
line=$(line_of '^ *TTFT ')
case $line in *"TTFT"*" $ttft "*) ;; *) fail "the TTFT row is not the report's $ttft: '$line'" ;; esac
line=$(line_of '^ *out tokens/s per GPU ')
case $line in *"%"*"✓"*) ;; *) fail "the H200's output tokens/s per GPU is not marked the best: '$line'" ;; esac
line=$(line_of '^ *cost per M tokens ')
case $line in *"no price"*"no price"*) ;; *) fail "a cost without a price: '$line'" ;; esac
case $line in *"✓"*) fail "a cost without a price is marked: '$line'" ;; esac
keys Escape
wait_for 'micro-batch' 'Esc did not leave the compare view'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: compare in mode infer"
