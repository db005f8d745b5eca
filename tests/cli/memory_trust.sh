#!/bin/sh
# The memory findings as a person meets them on the command line: Mixtral QLoRA under
# expert parallelism (weights were negative, then every part 0 B, and plan ranked such a
# layout first), the fewest GPUs with cp (counted as GPUs, and said), LoRA that adapts
# nothing (refused with the way out), offload's peak within the total.
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
fail() { echo "FAIL: $*"; exit 1; }
command -v jq >/dev/null 2>&1 || { echo "SKIP: no jq"; exit 0; }

for ep in 1 2 4 8; do
	j=$("$NAPKIN" report --model mixtral-8x7b --gpus 8 --ep "$ep" --finetune qlora --format json) ||
		fail "report --ep $ep exits $?"
	echo "$j" | jq -e '.memory | .weights > 0 and .overhead > 0 and .total > .weights and .peak <= .total' >/dev/null ||
		fail "ep $ep: $(echo "$j" | jq -c '.memory | [.weights, .overhead, .total, .peak]')"
done
# plan: every candidate's parts are positive and its fits is its total against the card
"$NAPKIN" plan --model mixtral-8x7b --finetune qlora --gpus 8 --top 5 --format json |
	jq -e '[.candidates[] | .memory | .weights > 0 and (.fits == (.total <= .capacity))] | length > 0 and all' >/dev/null ||
	fail "plan ranks a layout with a negative or zero part"

# cp 8 alone needs 8 GPUs: the fewest are a multiple of 8, and the line says cp
out=$("$NAPKIN" report --gpus 8 --cp 8 --seq 32k --max-positions 32k) || fail "report --cp 8 exits $?"
echo "$out" | grep -q 'fewest GPUs 16 (tp 2 × pp 1 × cp 8 × dp 1)' || fail "cp 8: $(echo "$out" | grep fewest)"
out=$("$NAPKIN" report --gpus 16 --tp 2 --cp 8 --seq 32k --max-positions 32k) || fail "the layout found exits $?"
echo "$out" | grep -q ': fits,' || fail "the layout of the fewest GPUs does not fit: $(echo "$out" | grep total)"

# LoRA on a gate a plain MLP does not have
if "$NAPKIN" report --finetune lora --lora-targets gate --mlp plain >/dev/null 2>err; then
	fail "LoRA adapting nothing is accepted"
fi
grep -q 'lora_targets gate: a plain MLP has no gate projection' err || fail "unclear refusal: $(cat err)"
grep -q 'q,k,v,o,up,down' err || fail "the refusal gives no way out: $(cat err)"
rm -f err

# offload params at a capacity between the old total and the peak: the total is not below the peak
j=$("$NAPKIN" report --model llama-2-7b --gpu a10 --gpus 1 --batch 1 --seq 128 --grad-accum 1 --offload params \
	--gpu-memory 2.86GB --format json) || fail "offload report exits $?"
echo "$j" | jq -e '.memory | .peak <= .total and (.fits == (.total <= .capacity)) and (.fits | not)' >/dev/null ||
	fail "offload params: $(echo "$j" | jq -c '.memory | [.total, .peak, .capacity, .fits]')"

# an inference weight format: the weights' explanation says the linears' bytes and format
# (FP8: 1 byte, 33.8 GiB on each of 2 GPUs), not the 16-bit dtype's 2 bytes
out=$(COLUMNS=200 "$NAPKIN" report --model llama-3-70b --gpus 2 --tp 2 --mode infer --weight-format fp8 --explain) ||
	fail "explain fp8 exits $?"
w=$(echo "$out" | sed -n '/^memory.weights:/,/^$/p')
echo "$w" | grep -q "linears at 1 bytes a weight (fp8 e4m3" || fail "fp8 weights explained as: $w"
echo "$w" | grep -q "× 2 bytes (bf16)" && fail "fp8 weights explained at bf16: $w"
echo ok
