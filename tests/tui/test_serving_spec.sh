#!/bin/sh
# Speculative decoding and a shared prefix in the explorer: the compute pane's serving item
# says the report's TTFT, ITL, output tokens/s per GPU (each with its band) and tokens a step, the cached
# prefix, and the capacity the engine admits, for Llama-3-70B FP8 on 2 x H100 with vLLM,
# an EAGLE head (k 3, α 0.7) and half of each 5000-token prompt cached.
. "$(dirname "$0")/lib.sh"
ARGS="--model llama-3-70b --gpus 2 --tp 2 --mode infer --engine vllm --weight-format fp8 --prompt 5000 --generate 500 --batch 50 --speculative eagle --spec-tokens 3 --spec-accept 0.7 --prefix-hit 0.5"
json=$(LC_ALL=C "$NAPKIN" report $ARGS --format json) || fail "the report exits $?"
want=$(printf '%s' "$json" | python3 -c '
import json, sys
j = json.load(sys.stdin)
s, i = j["serving"], j["inference"]
def ms(v): return "%.2f ms" % (v * 1e3) if v < 1 else "%.2f s" % v
def pm(k): return "%.0f" % (100 * s[k + "_band"]["relative"])  # the validated band of each figure (serve_band.c)
print("%s|%s|%s|%.2f|%d|%d|%s|%s|%s|%s" % (ms(s["ttft_seconds"]), ms(s["itl_seconds"]), format(round(s["tokens_per_s_gpu"]), ","),
                               s["spec_tokens_per_step"], s["prefix_tokens"], i["max_concurrent"],
                               pm("ttft"), pm("itl"), pm("tokens_per_s"), pm("capacity")))') || fail "reading the report"
IFS='|' read -r ttft itl gpu tps prefix cap bt bi bp bc <<EOF2
$want
EOF2
start 160 48 $ARGS
wait_for 'Compute and time' 'the compute pane never drew'
# each with the band the report and JSON give it; the item wraps after the ITL at this width
wait_for "serving +TTFT $ttft ±$bt%, ITL $itl ±$bi%," "the serving item is not the report's (TTFT $ttft ±$bt%, ITL $itl ±$bi%)"
wait_for " $gpu ±$bp% tok/s/GPU" "the serving item's tokens/s is not the report's ($gpu ±$bp% tok/s/GPU)"
wait_for "$tps tokens a step \\(k 3\\), prefix $prefix cached" "no tokens a step $tps and prefix $prefix beside it"
wait_for "capacity +$cap ±$bc% sequences" "the capacity is not the report's $cap ±$bc%"
wait_for 'per token +≥ [0-9.]+ ms \(a step, no drafter\)' 'the per-token bound is not said as a step without the drafter'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: serving with a drafter and a prefix"
