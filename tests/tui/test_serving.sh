#!/bin/sh
# Serving in the explorer, as a person asks it: Llama-3-70B on 2 × H100 at 32k context in
# fp8 weights and KV cache, chunked prefill: the compute pane says how many sequences fit,
# the time to first token (in chunks) and per output token (with the TP all-reduces); the
# header and the memory pane name the weight format.
. "$(dirname "$0")/lib.sh"
start 120 40 --mode infer --model llama-3-70b --gpus 2 --tp 2 --prompt 31744 --generate 1024 --prefill-chunk 2048 \
	--weight-format fp8 --kv-dtype fp8
wait_for 'Memory per GPU' 'the memory pane never drew'
wait_for 'infer · fp8 weights' 'the header does not name the weight format'
wait_for 'capacity +1[78] sequences' 'no capacity (about 18 sequences at 32k)'
wait_for 'at 32,768 tokens, per replica' 'the capacity does not say at what context, for whom'
wait_for 'first token [0-9.]+ s \(16 chunks of 2048\)' 'no time to first token in chunks'
wait_for 'per token +[0-9.]+ ms' 'no time per output token'
wait_for 'per token +[0-9.]+ ms \(all-reduces [0-9.]+ ms\)' 'the time per token does not show the TP all-reduces'
wait_for 'B/param \(fp8 weights' 'the memory pane does not say the weights are fp8 with their scales'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: serving"
