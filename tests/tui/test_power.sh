#!/bin/sh
# A power limit (power.c) says the same thing in the explorer and the report: the watts and the
# share of the clock they leave, in English and Chinese; the H100 NVL at its TDP says it
# without a knob set (it runs the SXM's figures at fewer watts an SM);
# the report's step is longer than at the TDP.
. "$(dirname "$0")/lib.sh"
ARGS="--model llama-2-7b --gpu h100-sxm --gpus 8 --power-limit 450"
pct=$("$NAPKIN" report $ARGS | tr -s ' \n' ' ' | sed -n 's/.*Power 450 W a GPU (power_limit; TDP 700 W): compute at \([0-9]*\)% of the clock at its TDP.*/\1/p')
[ -n "$pct" ] || fail "the report has no Power line for 450 W"
full=$("$NAPKIN" report --format json --model llama-2-7b --gpu h100-sxm --gpus 8 | python3 -c 'import json,sys; print(json.load(sys.stdin)["compute"]["step_seconds"])')
capped=$("$NAPKIN" report --format json $ARGS | python3 -c 'import json,sys; j=json.load(sys.stdin)["compute"]; print(j["step_seconds"], j["power_w"], j["power_clock"])')
python3 -c "
import sys
full = float('$full'); capped, w, clock = map(float, '$capped'.split())
assert w == 450 and abs(100 * clock - $pct) <= 0.5, (w, clock)
assert capped > 1.1 * full, (capped, full)" || fail "the JSON's power figures or step disagree ($full, $capped)"
start 160 48 $ARGS
wait_for "450 W: compute at $pct% clock" "the explorer's compute pane does not say 450 W at $pct%"
stop
start 160 48 --lang zh $ARGS
wait_for "450 W：算力为时钟的 $pct%" "the Chinese compute pane does not say 450 W at $pct%"
stop
# the H100 NVL at its TDP: no knob, the same words
nvl=$("$NAPKIN" report --model llama-2-7b --gpu h100-nvl --gpus 8 | tr -s ' \n' ' ' | sed -n 's/.*Power 400 W a GPU, its TDP: compute at \([0-9]*\)% of its datasheet clock.*/\1/p')
[ -n "$nvl" ] || fail "the H100 NVL's report has no Power line"
start 160 48 --model llama-2-7b --gpu h100-nvl --gpus 8
wait_for "400 W: compute at $nvl% clock" "the H100 NVL's compute pane does not say 400 W at $nvl%"
stop
echo "ok: power limits"
