#!/bin/sh
# First tries on the command line (issue 10): what a new user types first either works, with a
# note where a default adapted, or is refused with a message that names the fix. Each check
# runs the real binary and reads its stdout, stderr and exit status.
#   sh tests/cli/first_tries.sh PATH/TO/napkin
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
# the lines these checks read, whole, as a wide terminal shows them (tests/cli/width.sh checks
# the reports at 80 and 60 columns)
COLUMNS=200
export COLUMNS
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
fails=0

fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# run ARGS...: napkin ARGS with stdout in $tmp/out, stderr in $tmp/err, status in $rc
run() {
	"$NAPKIN" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
ok() { [ "$rc" -eq 0 ] || fail "$what: status $rc: $(head -c 400 "$tmp/err")"; }
refused() { [ "$rc" -eq 2 ] || fail "$what: status $rc, not 2 (refused): $(head -c 300 "$tmp/out")"; }
out_has() { grep -qF -- "$1" "$tmp/out" || fail "$what: stdout lacks '$1': $(head -c 600 "$tmp/out")"; }
out_lacks() { grep -qF -- "$1" "$tmp/out" && fail "$what: stdout has '$1': $(grep -F -m2 -- "$1" "$tmp/out")"; }
err_has() { grep -qF -- "$1" "$tmp/err" || fail "$what: stderr lacks '$1': $(head -c 600 "$tmp/err")"; }
err_lacks() { grep -qF -- "$1" "$tmp/err" && fail "$what: stderr has '$1': $(head -c 300 "$tmp/err")"; }
# json PYTHON-EXPR: evaluates EXPR with j = the JSON report on stdout; fails unless true
json() {
	command -v python3 >/dev/null 2>&1 || return 0
	python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
		"$tmp/out" "$1" || fail "$what: JSON: not $1"
}

# ---- 1. defaults adapt to the model and the GPU, explicit choices are refused with the fix
for m in gpt2 gpt2-medium gpt2-large gpt2-xl; do
	what="report --model $m"
	run report --model $m
	ok
	err_has 'note: sequence 4,096 → 1,024, the context of GPT-2'
done
what="report --model gpt2 --format json"
run report --model gpt2 --format json
ok
json 'j["scenario"]["seq"] == 1024'
what="--seq 4096 --model gpt2 (explicit)"
run report --seq 4096 --model gpt2
refused
err_has 'seq (4096) exceeds the model'"'"'s 1024 learned positions'
err_has 'set seq to 1024 or less, or leave it unset'
what="--seq 512 --model gpt2 (explicit, fits)"
run report --seq 512 --model gpt2
ok
err_lacks 'note:'
what="--model gpt2 --mode infer --prompt 1000 (generate follows)"
run report --model gpt2 --mode infer --prompt 1000 --format json
ok
err_has 'prompt + generate 1000 + 512 → 1000 + 24, the context of GPT-2'
json 'j["scenario"]["generate"] == 24'
what="--model gpt2 --mode infer --prompt 1000 --generate 512 (both explicit)"
run report --model gpt2 --mode infer --prompt 1000 --generate 512
refused
err_has 'make them add up to 1024 or less'
for g in t4 v100-sxm2-32gb; do
	what="report --gpu $g"
	run report --gpu $g
	ok
	err_has 'note: precision mixed-bf16 → mixed-fp16:'
	err_has 'has no bf16 peak'
	out_has 'mixed-fp16'
done
what="a GPU profile with only an fp32 peak"
printf 'name: Old GPU\nmemory: 16 GB\nmemory_bandwidth: 900 GB/s\npeak_flops: {fp32: 15 TFLOP/s}\n' >"$tmp/old.yaml"
run report --gpu "$tmp/old.yaml"
ok
err_has 'note: precision mixed-bf16 → fp32: Old GPU has no bf16 or fp16 peak'
what="--gpu t4 --precision bf16 (explicit)"
run report --gpu t4 --precision bf16
refused
err_has 'T4 has no bf16 matmul peak (precision bf16): use precision mixed-fp16'
what="--gpu t4 --precision mixed-bf16 (explicit)"
run report --gpu t4 --precision mixed-bf16
refused
err_has 'use precision mixed-fp16'
what="--gpu t4 --matmul-dtype bf16 (explicit)"
run report --gpu t4 --matmul-dtype bf16
refused
what="a scenario file that picks GPT-2 and no sequence"
printf 'model: gpt2\ngpus: 1\n' >"$tmp/gpt2.yaml"
run report --scenario "$tmp/gpt2.yaml" --format json
ok
err_has 'note: sequence 4,096 → 1,024'
json 'j["scenario"]["seq"] == 1024'
what="a scenario file that sets seq 4096 with GPT-2"
printf 'model: gpt2\nseq: 4096\n' >"$tmp/gpt2seq.yaml"
run report --scenario "$tmp/gpt2seq.yaml"
refused
err_has 'gpt2seq.yaml:2:6:'
what="napkin --model gpt2 (no command, not a terminal: the report)"
run --model gpt2
ok
out_has 'GPT-2 (124M) on 8'

# ---- 2. sizes and rates need their unit: a bare number is refused with the unit it lacked
for case in "gpu-memory 80|80 GB" "gpu-memory 0.768|0.768 GB" "overhead 768|768 MB" "peak-flops 989|989 TFLOP/s" \
	"gpu-bandwidth 3.35|3.35 TB/s" "gpu-bandwidth 900|900 GB/s" "achieved-flops 400|400 TFLOP/s"; do
	flag=${case%%|*}
	want=${case#*|}
	what="--$flag"
	# shellcheck disable=SC2086
	run report --$flag
	refused
	err_has "has no unit: did you mean $want?"
done
for flag in "gpu-memory 80GB" "gpu-memory 8e10" "overhead 0" "peak-flops 989.5T" "gpu-bandwidth 3.35TB/s"; do
	what="--$flag"
	# shellcheck disable=SC2086
	run report --$flag
	ok
done
what="a scenario file with a bare gpu_memory"
printf 'gpu_memory: 80\n' >"$tmp/bare.yaml"
run report --scenario "$tmp/bare.yaml"
refused
err_has 'bare.yaml:1:13: '"'"'80'"'"' has no unit: did you mean 80 GB?'
what="a GPU profile with a bare memory"
printf 'name: G\nmemory: 80\nmemory_bandwidth: 3.35 TB/s\npeak_flops: {bf16: 989.5 TFLOP/s}\n' >"$tmp/g.yaml"
run report --gpu "$tmp/g.yaml"
refused
err_has 'g.yaml:2:9: '"'"'80'"'"' has no unit: did you mean 80 GB?'
what="a saved scenario writes sizes with their unit and loads back"
run report --gpu-memory 80GB --overhead 1GiB --format yaml
ok
out_has 'gpu_memory: 80000000000'

# ---- 3. names as people type them: case folded, by prefix and by parts, several when several fit
what="--gpu h100"
run report --gpu h100
refused
err_has "unknown GPU 'h100' (did you mean 'h100-nvl', 'h100-sxm' or 'h100-pcie'?)"
what="--gpu H100"
run report --gpu H100
refused
err_has "did you mean 'h100-nvl', 'h100-sxm' or 'h100-pcie'?"
what="--gpu A100"
run report --gpu A100
refused
err_has "did you mean 'a100-40gb-sxm', 'a100-80gb-sxm' or 'a100-80gb-pcie'?"
err_lacks "'a10'"
what="--gpu 4090 (one fits: taken, with a note)"
run report --gpu 4090
ok
err_has "note: GPU '4090' is rtx-4090 (GeForce RTX 4090)"
out_has 'on 8 × GeForce RTX 4090'
what="--gpu H100-SXM (the same name in capitals)"
run report --gpu H100-SXM
ok
err_lacks 'note:'
what="a scenario file naming the GPU 4090 and the model GPT2-XL"
printf 'gpu: 4090\nmodel: GPT2-XL\n' >"$tmp/short.yaml"
run report --scenario "$tmp/short.yaml" --format json
ok
err_has "note: GPU '4090' is rtx-4090 (GeForce RTX 4090)"
json 'j["scenario"]["gpu"] == "rtx-4090" and j["scenario"]["model"] == "gpt2-xl"'
what="--gpu t5 (a slip)"
run report --gpu t5
refused
err_has "did you mean 't4'?"
what="--model llama-2-7"
run report --model llama-2-7
refused
err_has "did you mean 'llama-2-7b' or 'llama-2-70b'?"
what="--scenario course-largest (one fits)"
run report --scenario course-largest --format json
ok
err_has "note: scenario 'course-largest' is course-largest-model-8-h100"
json 'j["scenario"]["precision"] == "fp32"'
what="--lora (a knob's value typed as a flag)"
run report --lora 1
refused
err_has 'unknown option --lora (did you mean --finetune lora?)'
what="--zzyq (nothing close: no suggestion)"
run report --zzyq 1
refused
err_has 'unknown option --zzyq (napkin report --help'
err_lacks 'did you mean'
what="--btach (a swap)"
run report --btach 2
refused
err_has 'did you mean --batch?'
what="--kv (a prefix of several)"
run report --kv 2
refused
err_has 'did you mean --kv-heads, --kv-dtype, --kv-block or --kv-transfer-bw?'
what="--precision mixd-bf16 (a slip in a choice)"
run report --precision mixd-bf16
refused
err_has "'mixd-bf16' is not a choice (did you mean mixed-bf16?)"
what="--optimizer 8bit (a part of a choice, aliases said once)"
run report --optimizer 8bit
refused
err_has "(did you mean adam-8bit?)"

# ---- 4. a knob given twice on the command line is refused, never silently the last
what="--gpu twice"
run report --gpu a100-80gb-sxm --gpu h100-sxm
refused
err_has "--gpu is given twice ('a100-80gb-sxm', then 'h100-sxm'): give it once"
what="--batch twice, = and space forms"
run report --batch=2 --batch 4
refused
err_has '--batch is given twice'
what="--format twice (a command's option, like a knob)"
run report --format json --format text
refused
err_has "--format is given twice ('json', then 'text'): give it once"
what="--scenario twice"
run report --scenario course-largest-model-8-h100 --scenario course-decode-7b-batch1
refused
err_has '--scenario is given twice'
what="a scenario file and a flag: the flag overrides the file (not a repeat)"
printf 'batch: 2\n' >"$tmp/b.yaml"
run report --scenario "$tmp/b.yaml" --batch 4 --format json
ok
json 'j["scenario"]["batch"] == 4'

# ---- 5. the range a message shows is the one enforced
what="--ttft-slo -2 (a negative time said as given, not as 0 s)"
run report --mode infer --engine vllm --ttft-slo -2
refused
err_has 'ttft_slo: -2.00 s is out of range; allowed: 0 s to 60.0 min (0: not given)'
what="--power-limit -5W"
run report --power-limit -5W
refused
err_has 'power_limit: -5 W is out of range'
what="--mfu 0"
run report --mfu 0
refused
err_has 'mfu: 0 is not allowed (auto predicts it); allowed: more than 0%, up to 100%, or auto'
what="--mfu 1e-9 (just above the open bound)"
run report --mfu 1e-9
ok
what="--mfu 100%"
run report --mfu 100%
ok
what="--help shows the same range"
run report --help
ok
out_has 'allowed more than 0%, up to 100%'

# ---- 6. tokens_per_s is the whole job's: said in the report and the help, and a figure that
# implies an MFU under 5% is taken for what it probably is (one GPU's)
what="--tokens-per-s 3100 on 8 GPUs"
run report --tokens-per-s 3100
ok
out_has '3,100 tokens/s for the whole job (388 per GPU)'
out_has 'tokens_per_s 3,100 implies MFU 1.8% on 8 GPUs: it is the whole job'"'"'s figure; if 3,100 is per GPU, give 24,800'
what="--tokens-per-s 3100 as JSON: the warning too"
run report --tokens-per-s 3100 --format json
ok
json 'any("whole job" in w for w in j["warnings"])'
what="--tokens-per-s 30000 (MFU 17%: no warning)"
run report --tokens-per-s 30000
ok
out_lacks 'implies MFU'
what="--tokens-per-s 1e7 (above the peak)"
run report --tokens-per-s 1e7
refused
err_has 'tokens_per_s is the whole job'"'"'s throughput (all GPUs together)'
what="--help on tokens_per_s"
run report --help
ok
out_has 'measured throughput of the whole job, all GPUs together, not per GPU'

# ---- 7. no placeholder is shown as a result: "no limit from memory", "none fits"
what="course-largest-model-8-h100 (activations off: nothing grows with the batch)"
run report --scenario course-largest-model-8-h100
ok
out_has 'largest micro-batch no limit from memory'
out_lacks '10000000'
out_lacks '10,000,000 ·'
run report --scenario course-largest-model-8-h100 --format markdown
ok
out_has 'Largest micro-batch: no limit from memory'
run report --scenario course-largest-model-8-h100 --format json
ok
json 'j["memory"]["max_batch"] == -1'
run report --scenario course-largest-model-8-h100 --explain
ok
out_has 'result   no limit from memory (at 1 now)'
what="Llama-2-70B on one H100 (not even one sequence fits)"
run report --model llama-2-70b --gpus 1
ok
out_has 'largest micro-batch none fits'
out_lacks 'largest micro-batch 0'
run report --model llama-2-70b --gpus 1 --format markdown
ok
out_has 'Largest micro-batch: none fits'
run report --model llama-2-70b --gpus 1 --format json
ok
json 'j["memory"]["max_batch"] == 0'
what="nothing of this shape fits in 1 GB at batch 64"
run report --gpu-memory 1GB --batch 64 --explain
ok
out_has 'largest model of this shape none fits'
out_has 'result   none fits: not even the smallest model of this shape'
out_lacks 'largest model of this shape 0'
what="the schema documents both"
grep -q '`-1` when memory sets no limit' docs/report-schema.md || fail "$what: docs/report-schema.md says nothing of -1"

# ---- 10. grammar: one plural rule; no "1 GPUs", "over 1 ranks", "shrink the cache by 1×",
# "each of 1 sequences", nor "matrix × vector at batch 1" said of batch 256
bad_grammar='(^|[^0-9.,])1 (GPUs|ranks|sequences|layers|heads|micro-batches|tokens|steps|replicas|stages)([^/a-z]|$)|by 1×|shrinks? the cache 1×|each of (the )?1 '
for args in "--gpus 1" "--gpus 1 --mode infer" "--gpus 1 --batch 1 --grad-accum 1 --layers 1 --zero 0" \
	"--mode infer --prompt 1 --generate 1 --gpus 1" "--gpus 2 --tp 2 --mode infer" "--mode infer --batch 256"; do
	for fmt in text markdown; do
		what="report $args --explain ($fmt)"
		# shellcheck disable=SC2086
		run report $args --explain --format $fmt
		ok
		grep -En "$bad_grammar" "$tmp/out" >"$tmp/g" && fail "$what: $(head -3 "$tmp/g")"
	done
done
what="decode at batch 256 is not explained as batch 1"
run report --mode infer --batch 256 --explain
ok
out_has 'one new token for each of the 256 sequences'
out_lacks 'each of 256 sequences: every weight is read for only 256 tokens (matrix × vector at batch 1)'
what="multi-head attention: no 'shrink by 1×'"
run report --mode infer --explain
ok
out_has 'multi-head attention, no GQA saving'
what="Llama-2-70B (GQA 64/8)"
run report --mode infer --model llama-2-70b --explain
ok
out_has 'GQA shrinks the cache 8×'

# ---- 9. every inference figure says whose: per sequence, per replica, for the job
what="--mode infer --gpus 8 --batch 1"
run report --mode infer --gpus 8 --batch 1
ok
out_has 'each of the 8 replicas, 1 GPU each, serves 1 sequence'
out_has 'tokens/s 246 per sequence · 246 per replica (batch 1) · 246 per GPU · 1,968 for the job (8 replicas)'
what="--mode infer --gpus 2 --tp 2 --batch 4 (one replica)"
run report --mode infer --gpus 2 --tp 2 --batch 4
ok
out_has 'one replica, 2 GPUs, serves 4 sequences'
out_has 'for the job (1 replica)'
what="the JSON's tokens/s per sequence, replica and job agree"
run report --mode infer --gpus 8 --batch 4 --format json
ok
json 'abs(j["inference"]["decode_tokens_per_s_replica"] * j["inference"]["replicas"] - j["inference"]["decode_tokens_per_s"]) < 1e-6 * j["inference"]["decode_tokens_per_s"]'
json 'abs(j["inference"]["decode_tokens_per_s_sequence"] * 4 - j["inference"]["decode_tokens_per_s_replica"]) < 1e-6 * j["inference"]["decode_tokens_per_s_replica"]'
json 'j["inference"]["replicas"] == 8'

# ---- 11. inference shows what applies to inference: the weights' and KV cache's dtypes, no ZeRO
what="--mode infer --weight-dtype fp8"
run report --mode infer --weight-dtype fp8
ok
out_has 'infer · fp8-e4m3 weights · bf16 KV'
out_lacks 'infer · mixed-bf16'
out_has 'fp32 -> fp8-e4m3 weights, bf16 KV'
grep -E '^  \* ZeRO' "$tmp/out" && fail "$what: ZeRO is marked in use in inference"
run report --mode infer --weight-dtype fp8 --format json
ok
json 'not any(t["enabled"] for t in j["techniques"] if t["name"] in ("zero1", "zero2", "zero3", "selective_recompute", "full_recompute"))'
json '"fp8-e4m3 weights" in j["summary"]'
what="training keeps its recipe in the header"
run report
ok
out_has 'train · mixed-bf16 · adamw'

# ---- 8. amp-bf16: autocast's bf16 copies are their own line, and the bytes per parameter add up
# Llama-2-7B has 6,738,415,616 parameters (Hugging Face); autocast casts the matmul weights:
# all but the embedding (32000 × 4096) and the 65 RMSNorm weights of 4096.
what="--precision amp-bf16"
run report --precision amp-bf16
ok
out_has 'amp-bf16, adamw: 17.96 bytes per parameter before sharding'
grep -Eq '^  W weights +fp32 +25\.10 GiB' "$tmp/out" || fail "$what: the weights row is not fp32 25.10 GiB (4 B/param)"
grep -Eq '^  w autocast copies +bf16 +12\.31 GiB' "$tmp/out" || fail "$what: no autocast copies row of bf16 12.31 GiB"
run report --precision amp-bf16 --zero 0 --gpus 1 --format json
ok
json 'j["memory"]["weights"] == 4 * 6738415616'
json 'j["memory"]["autocast_copies"] == 2 * (6738415616 - 32000 * 4096 - 65 * 4096)'
json 'j["memory"]["dtypes"]["autocast_copies"] == "bf16"'
json 'abs((j["memory"]["weights"] + j["memory"]["autocast_copies"] + j["memory"]["gradients"] + j["memory"]["master_weights"] + j["memory"]["optimizer"]) / 6738415616 - j["memory"]["bytes_per_param"]) < 1e-9'
what="mixed-bf16 keeps its 16 bytes and no copies"
run report --format json
ok
json 'j["memory"]["bytes_per_param"] == 16 and j["memory"]["autocast_copies"] == 0'

# ---- serving: a quantised checkpoint is served in its format; an explicit choice stays
what="a GPTQ config.json served"
run report --model tests/data/hf/llama-2-7b-gptq.json --mode infer --gpus 1
ok
err_has "weight_format dtype → gptq-int4, the checkpoint's quantization_config"
out_has 'infer · gptq-int4 weights'
out_has 'weights in GPTQ int4, group 128: 4.156 bits a weight'
what="a GPTQ config.json with --weight-format dtype"
run report --model tests/data/hf/llama-2-7b-gptq.json --mode infer --gpus 1 --weight-format dtype
ok
out_has 'infer · bf16 weights'
what="the JSON's serving figures say whose"
run report --mode infer --gpus 8 --tp 2 --batch 8 --prefill-chunk 256 --format json
ok
json 'j["inference"]["max_concurrent"] >= 8'
json 'j["inference"]["prefill_chunks"] == 2'
json 'abs(j["inference"]["decode_tokens_per_s_gpu"] * 8 - j["inference"]["decode_tokens_per_s"]) < 1e-6 * j["inference"]["decode_tokens_per_s"]'
json 'j["inference"]["tpot_seconds"] > j["inference"]["decode_seconds_per_token"]'
json 'j["inference"]["prefill_flops_causal"] < j["inference"]["prefill_flops_palm"]'

# ---- end

# ---- fine-tuning on one GPU (issue 14): does QLoRA Llama-3-8B fit a 24 GB card, how long
# does an epoch of 10M tokens take; full fine-tuning does not fit
what="QLoRA Llama-3-8B on one RTX 4090"
run report --model llama-3-8b --gpu rtx-4090 --gpus 1 --finetune qlora --seq 1024 --tokens 10M --format json
ok
json 'j["memory"]["fits"] and j["model"]["params_trainable"] == 3407872 and j["memory"]["dtypes"]["weights"] == "nf4"'
json '600 < j["compute"]["train_seconds"] < 86400 and j["compute"]["step_breakdown"]["matmul"] > 0'
what="QLoRA Llama-3-8B on one RTX 4090 (text)"
run report --model llama-3-8b --gpu rtx-4090 --gpus 1 --finetune qlora --seq 1024 --tokens 10M
ok
out_has 'fits,'
out_has 'QLoRA r 8 on q,v: 3,407,872 trainable'
what="full fine-tuning of Llama-3-8B on one RTX 4090 does not fit"
run report --model llama-3-8b --gpu rtx-4090 --gpus 1 --seq 1024 --format json
ok
json 'not j["memory"]["fits"]'

if [ "$fails" -gt 0 ]; then
	echo "$fails check(s) failed"
	exit 1
fi
echo "ok: first tries on the command line"
