#!/bin/sh
# The explorer in Chinese says what a teacher's trial of the course found it saying in
# English or ambiguously (A18, A19, A25, M11, X5):
#   knob labels the chapter has no word for are Chinese with the key (隐藏维度 hidden, 每头维度
#   head_dim, 激活专家数 top_k, 随机失活 dropout), and the mode is 训练 as in the header;
#   the parameter count is 6.738e9 (B would read as bytes); dtypes in prose are BF16, FP32
#   (the memory pane, the dtype lab's selected row and notes);
#   the data-loading row shows the dataset file (15T uint16 ids: 30.00 TB on disk) and the
#   RAM np.memmap takes for a step (16 windows × 4 pages × 4 KiB = 256.0 KiB);
#   the input box and an error about a knob use its label, full-width: GPU 数（1 到 …）,
#   GPU 数：“abc”不是数字（GPU 数保持不变）; English keeps the key: gpus: 'abc' (kept gpus).
. "$(dirname "$0")/lib.sh"

start 200 60 --lang zh --dataset-tokens 15T
wait_for '每张 GPU 的显存' 'never drew'
for l in '隐藏维度 hidden' '每头维度 head_dim' '激活专家数 top_k' '随机失活 dropout'; do
	screen | grep -q "│ $l " || fail "no knob label '$l'"
done
screen | grep -Eq '│ 模式 +训练 ?↓?│' || fail "the mode is not 训练: $(line_of '│ 模式')"
screen | grep -Eq '│ 参数 +6\.738e9 │' || fail "the parameter count: $(line_of '│ 参数 ')"
screen | grep -q '2 BF16 权重 + 2 BF16 梯度 + 4 FP32 主副本' || fail "dtypes in prose: $(line_of '每个参数')"
screen | grep -q '数据集文件 30.00 TB' || fail "no dataset file in the data-loading row: $(line_of '数据加载' 2)"
screen | grep -q 'memmap 每步占 RAM 256.0 KiB' || fail "no memmap RAM in the data-loading row"
# micro-batch is selected at the start; GPU 数 is 15 knobs down (the group rows are skipped)
n=0
while [ $n -lt 15 ]; do
	keys Down
	n=$((n + 1))
done
keys Enter
wait_for 'GPU 数（1 到 1,048,576）' 'the input box does not name GPU 数 with full-width parentheses'
keys C-u
keys -l 'abc'
keys Enter
wait_for 'GPU 数：“abc”不是数字（GPU 数保持不变）' 'the error does not use the label'
# the box stays open on the refused value (test_bad_value): Esc closes it
keys Escape
wait_gone '^│ *> abc' 'Esc did not close the input box'
# the dtype lab: the selected row and the notes name dtypes in capitals, full-width colon
keys D
wait_for '▸ BF16：一半的字节' "the dtype lab's selected row: $(line_of '▸')"
wait_for 'BF16 把 70000 舍入为 70144' "the dtype lab's note names bf16 in lower case"
stop

start 120 40
wait_for 'micro-batch +1 ' 'never drew (English)'
n=0
while [ $n -lt 15 ]; do
	keys Down
	n=$((n + 1))
done
keys Enter
wait_for '^│ *> ' 'no prompt (English)'
keys C-u
keys -l 'abc'
keys Enter
wait_for "gpus: 'abc' is not a number.*\(kept gpus\)" 'English lost the key in the error'
stop
echo "ok: the explorer's words from the class trial"
