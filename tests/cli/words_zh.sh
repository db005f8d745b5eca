#!/bin/sh
# The Chinese texts say what a teacher's trial of the course found them misstating or
# wording awkwardly (each line names the finding's subject):
#   the chapter's MFU example typed in (1000 and 500 TFLOP/s) is napkin's HFU 50.0%, said so;
#   inference has no loss (logits alone); the peak beside the total is the peak in time;
#   the communication warning under an assumed MFU says the time does not count it;
#   lesson 1's 16 bytes have the chapter's total, not its parts; GB against GiB;
#   counts in formulas are 6.738e9 and bytes 字节, not "6.738 B × 2 B";
#   a Chinese label pasted beside Chinese words takes no space ("训练步是 Compute-Bound");
#   one word for one idea: 估算, 完整重计算, 使用 − 不使用, 小时; the lesson help's wording;
#   lesson 6 names the row it points at; lesson 9's ZeRO compute is against plain DP, and its
#   KV-cache step asks for a change (no step is answered before the student acts).
set -eu
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
COLUMNS=200
export COLUMNS
fail() {
	echo "FAIL: $*"
	exit 1
}
has() { # has TEXT WHAT FIXED-STRING
	printf '%s\n' "$1" | grep -qF -- "$3" || fail "$2: no '$3'"
}
hasnt() {
	printf '%s\n' "$1" | grep -qF -- "$3" && fail "$2: '$3' is still there: $(printf '%s\n' "$1" | grep -F -- "$3" | head -1)"
	return 0
}
r=$("$NAPKIN" report --peak-flops 1000T --achieved-flops 500T --lang zh)
has "$r" "the chapter's MFU example" 'HFU 50.0% = 本章的 MFU'
has "$r" "the chapter's MFU example" 'MFU 48.9% 不含 FlashAttention 反向重算的 FLOPs'
has "$r" "the peak in time" '时间上的峰值'
"$NAPKIN" report --peak-flops 1000T --achieved-flops 500T | grep -qF "HFU 50.0% = the chapter's MFU" || fail "English lost the MFU line"
r=$("$NAPKIN" report --mode infer --batch 1 --lang zh)
hasnt "$r" "inference" 'logits 与 loss'
printf '%s\n' "$r" | grep -Eq '^  L logits +[0-9]' || fail "inference: no logits row"
"$NAPKIN" report --lang zh | grep -qF 'L logits 与 loss' || fail "training lost its loss"
r=$("$NAPKIN" report --lang zh --gpu h100-sxm --flops-formula 6n --params 70B --gpus 1024 --mfu 0.5 --tokens 15T --zero 3 --recompute full)
has "$r" "the warning under an assumed MFU" '（当前 MFU 为假定值，训练时间未计入）'
r=$("$NAPKIN" lesson 1 --text --lang zh)
has "$r" "lesson 1's 16 bytes" '构成不同'
has "$r" "lesson 1's 16 bytes (explain)" '总数与本章的每个参数 16 字节相同，构成不同'
has "$r" "GB against GiB" '79.65 GiB = 85.52 GB'
r=$("$NAPKIN" report --lang zh --explain)
has "$r" "a count in a formula" '代入     6.738e9 × 2 字节（BF16）'
hasnt "$r" "a count in a formula" '6.738 B ×'
has "$r" "the roofline verdict" '→ 训练步是 Compute-Bound'
hasnt "$r" "the roofline verdict" '训练步 是'
hasnt "$r" "one word for the estimate" '速记'
has "$r" "one word for the estimate" '6·N 估算：'
has "$r" "the techniques' delta" '（使用 − 不使用；负数表示节省）'
hasnt "$r" "the techniques' delta" '有减去无'
has "$r" "hours in Chinese" ' 小时'
printf '%s\n' "$r" | grep -Eq '[0-9] h$|[0-9] h ' && fail "hours as h: $(printf '%s\n' "$r" | grep -E '[0-9] h$|[0-9] h ' | head -1)"
r=$("$NAPKIN" report --lang zh --recompute full)
has "$r" "one name for full recompute" '完整重计算'
hasnt "$r" "one name for full recompute" '完全重计算'
r=$("$NAPKIN" lesson --help --lang zh)
has "$r" "the lesson help" '每一步设定各项设置'
hasnt "$r" "the lesson help" '设置设置'
r=$("$NAPKIN" lesson 6 --text --lang zh)
has "$r" "lesson 6's pane" '“计算量与时间”面板的“数据加载”一行'
hasnt "$r" "lesson 6's pane" '数据面板'
has "$r" "lesson 6's title" '一个 Batch 有多大'
r=$("$NAPKIN" lesson 9 --text --lang zh)
has "$r" "lesson 9's ZeRO" '与普通数据并行相比，每张 GPU 的计算量'
hasnt "$r" "lesson 9's KV cache step" '（本步开始时已满足）'
for n in 1 2 3 4 5 6 7 8 9 10; do
	"$NAPKIN" lesson "$n" --text --lang zh | grep -qF '（本步开始时已满足）' && fail "lesson $n has a step answered at its start"
done
echo "ok: the Chinese texts say what the trial asked"
