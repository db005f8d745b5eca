#!/bin/sh
# What a teacher's trial of the Chinese course found in napkin's words (A18, A19, A24, M11)
# and the dataset it could not answer for (X5), as the command line prints them:
#   A18 Chinese text takes full-width punctuation (设置：, 数值：, 合计（memory.total）, GPU（31）),
#       and an error about a knob names its label as the knob pane does: GPU 数：“abc”不是数字;
#       English keeps the key as typed (gpus: 'abc' is not a number);
#   A19 a dtype in Chinese prose in capitals (各 4 B（FP32）, BF16 峰值算力), a typed value as typed;
#   A24 --explain's sources in Chinese, paper names kept, no repository path (tests/torch,
#       docs/step-time.md, serve_batch.c) in either language;
#   M11 a parameter count in Chinese beside bytes is 6.738e9 个参数, never "6.738 B"; English
#       keeps 6.738 B for the count and says bytes beside it (6.738 B × 2 bytes);
#   X5  the dataset file: nanoGPT's OpenWebText train.bin, 9,035,582,198 GPT-2 tokens stored
#       as np.uint16, "~17GB" (nanoGPT's README: 18,071,164,396 bytes); ids above 65535
#       (Llama 3's 128,256) take uint32; np.memmap keeps the pages a step touches (a window
#       of 4097 uint16 ids, 8194 bytes, spans at most 4 pages of 4 KiB); lesson 6 step 3
#       asks for the bytes and takes "30 TB" for 15T tokens.
set -eu
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
COLUMNS=200
export COLUMNS
unset LANGUAGE LC_ALL LC_MESSAGES LANG
fail() {
	echo "FAIL: $*"
	exit 1
}
has() { # has TEXT WHAT FIXED-STRING
	printf '%s\n' "$1" | grep -qF -- "$3" || fail "$2: no '$3' in: $(printf '%s\n' "$1" | head -5)"
}
hasnt() {
	printf '%s\n' "$1" | grep -qF -- "$3" && fail "$2: '$3' is still there: $(printf '%s\n' "$1" | grep -F -- "$3" | head -1)"
	return 0
}

# A18: punctuation and the knob's label in errors
r=$("$NAPKIN" report --gpus abc --lang zh 2>&1 || true)
has "$r" "an error names the knob's label" 'GPU 数：“abc”不是数字'
r=$("$NAPKIN" report --gpus abc 2>&1 || true)
has "$r" "English names the key" "gpus: 'abc' is not a number"
r=$("$NAPKIN" report --precision bf32 --lang zh 2>&1 || true)
has "$r" "a choice refused" '精度：“bf32”不是可选值'
r=$("$NAPKIN" lesson 1 --text --lang zh)
has "$r" "the lesson's knobs" '设置：gpus=8 precision=mixed-bf16'
hasnt "$r" "the lesson's knobs" '设置: '
has "$r" "the lesson's numbers" '数值：'
has "$r" "a label and its key" '合计（memory.total）'
hasnt "$r" "a label and its key" '合计 (memory.total)'
r=$("$NAPKIN" lesson 1 --text)
has "$r" "English keeps its colon" '  knobs: gpus=8 precision=mixed-bf16'
has "$r" "English keeps its parentheses" 'total (memory.total)'
r=$("$NAPKIN" presets list --lang zh)
printf '%s\n' "$r" | grep -Eq '^GPU（[0-9]+）$' || fail "the presets list's heading: $(printf '%s\n' "$r" | head -1)"

# A19: dtypes in Chinese prose
r=$("$NAPKIN" lesson 1 --text --lang zh)
has "$r" "a dtype in prose" '各 4 B（FP32）'
hasnt "$r" "a dtype in prose" '（fp32）'
r=$("$NAPKIN" report --lang zh)
has "$r" "the peak's dtype" '989.5 TFLOP/s BF16 峰值算力'
has "$r" "the roofline's dtype" 'Roofline  （BF16 峰值算力'
printf '%s\n' "$r" | grep -Eq '^  W 权重 +bf16 ' || fail "the memory table's dtype column is a value: keeps bf16"
has "$r" "a recipe is a typed value" 'mixed-bf16'
r=$("$NAPKIN" report)
has "$r" "English keeps bf16" 'bf16 peak'
r=$("$NAPKIN" report --lang zh --explain)
has "$r" "a count and bytes in a formula" '代入     6.738e9 × 2 字节（BF16）'

# A24: sources in Chinese, no repository paths
for lang in zh en; do
	r=$("$NAPKIN" report --lang $lang --explain; "$NAPKIN" report --lang $lang --explain --mode infer --engine vllm)
	for p in tests/torch docs/step-time.md docs/step-validation.md docs/serving-validation.md serve_batch.c; do
		hasnt "$r" "--explain ($lang) shows a repository path" "$p"
	done
done
r=$("$NAPKIN" report --lang zh --explain)
has "$r" "a source in Chinese" '来源     ZeRO（Rajbhandari et al. 2019）：2Ψ 字节（16 位参数）'
has "$r" "a source in Chinese" '来源     log_softmax 保留它的输出'
has "$r" "a source in Chinese" '实测的 PyTorch 训练步'
has "$r" "a source in Chinese" 'MSMF 实测 H200 SXM 71.6%，FP8 65.1%（持续速率，H100 同此）；8×H200 NCCL 82%（未用 NVLS）'
hasnt "$r" "a source in English" "log_softmax keeps its output"
hasnt "$r" "a source in English" "2Ψ bytes for 16-bit"

# M11: counts beside bytes
r=$("$NAPKIN" report --lang zh)
has "$r" "the model's count" '模型     6.738e9 个参数（非 embedding 6.476e9）'
hasnt "$r" "the model's count" '6.738 B'
r=$("$NAPKIN" report)
has "$r" "English keeps B for billion" 'Model    6.738 B parameters'
r=$("$NAPKIN" lesson 5 --text --lang zh)
has "$r" "lesson 5's count beside bytes" '6.74e9 个参数 × 16 字节 = 108 GB'
r=$("$NAPKIN" lesson 3 --text --lang zh)
has "$r" "lesson 3's count beside bytes" '6,738,415,616 个参数 × 4 字节 = 26.95 GB'
r=$("$NAPKIN" report --explain)
has "$r" "English: a count beside bytes says bytes" 'values   6.738 B × 2 bytes (bf16)'
hasnt "$r" "English: a count beside bytes says bytes" '6.738 B × 2 B'

# X5: the dataset file
json() { "$NAPKIN" report --format json "$@" | python3 -c 'import json, sys; d = json.load(sys.stdin)["data_loading"]; print(d[sys.argv[1]])' "$KEY"; }
KEY=dataset_bytes
v=$(json --model gpt2 --dataset-tokens 9035582198)
[ "$v" = 18071164396 ] || fail "OpenWebText's train.bin is 18,071,164,396 bytes as uint16 (nanoGPT), napkin: $v"
v=$(json --model gpt2 --dataset-tokens 9035582198 --token-dtype uint32)
[ "$v" = 36142328792 ] || fail "the same ids as uint32 are 4 bytes each, napkin: $v"
v=$(json --model llama-3-8b --dataset-tokens 1000)
[ "$v" = 4000 ] || fail "Llama 3's 128,256 ids do not fit 16 bits: uint32, napkin: $v"
KEY=memmap_resident_bytes
v=$(json --batch 1 --grad-accum 16 --seq 4096)
[ "$v" = 262144 ] || fail "16 windows of 8194 bytes touch at most 16 × 4 pages of 4 KiB, napkin: $v"
KEY=file_bytes_per_step
v=$(json --batch 1 --grad-accum 16 --seq 4096)
[ "$v" = 131104 ] || fail "16 windows of 4097 uint16 ids are 131,104 bytes, napkin: $v"
r=$("$NAPKIN" report --dataset-tokens 15T)
has "$r" "the report's data loading" 'dataset file 15 T tokens × 2 bytes = 30.00 TB; np.memmap keeps 256.0 KiB of it in RAM a step'
r=$("$NAPKIN" report --dataset-tokens 15T --lang zh)
has "$r" "the report's data loading (zh)" '数据集文件 15e12 个 Token × 2 字节 = 30.00 TB'
r=$("$NAPKIN" report --dataset-tokens 15T --explain)
has "$r" "the explanation's source" 'numpy.memmap'
r=$(printf '30 TB\n' | "$NAPKIN" lesson 6 --quiz --step 3 --lang zh 2>&1)
has "$r" "lesson 6 step 3 takes the dataset's bytes" '测验：1/1 题答对'
has "$r" "lesson 6 step 3 sets the dataset" '15T 个 Token'
echo "ok: the class trial's words and the dataset file"
