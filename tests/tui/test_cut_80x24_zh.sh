#!/bin/sh
# At 80×24, the projector's size, the lines a class reads first end whole, not in "…"
# (class trial L7): the header keeps the model, the GPUs and the mode and leaves out its last
# parts (precision, optimizer) whole, and so does the title bar of the dtype lab; a lesson's title is whole beside a shorter step counter
# ("第 1/5 步"); where not one sequence fits, the memory pane's last row is the fewest GPUs
# with their whole layout, TP × PP × DP multiplying out to the count.
. "$(dirname "$0")/lib.sh"
head_line() { screen | head -1; }
stop
start 80 24 --lang zh
wait_for '每张 GPU 的显存' 'zh: never drew'
head_line | grep -q '…' && fail "zh: the header is cut: $(head_line)"
head_line | grep -q 'Llama-2-7B 在 8 × H100 SXM 上 · 训练 ' || fail "zh: the header lost the mode: $(head_line)"
keys D
wait_for 'Dtype 实验室' 'zh: D did not open the dtype lab'
head_line | grep -q '…' && fail "zh: the dtype lab's title bar is cut: $(head_line)"
head_line | grep -q 'Dtype 实验室 · Llama-2-7B 在 8 × H100 SXM 上 · 训练' || fail "zh: the dtype lab's title bar lost the mode: $(head_line)"
stop
start 80 24
wait_for 'Memory per GPU' 'en: never drew'
head_line | grep -q '…' && fail "en: the header is cut: $(head_line)"
head_line | grep -q 'Llama-2-7B on 8 × H100 SXM · train ' || fail "en: the header lost the mode: $(head_line)"

stop
tm set-option -g remain-on-exit on \; new-session -d -s app -x 80 -y 24 "$NAPKIN lesson 4 --lang zh" ||
	fail "tmux did not start"
wait_for '第 4 课' 'lesson 4 did not open'
line_of '第 4 课' | grep -q '第 4 课：FLOPs 与 MFU：训练要多久 ' || fail "the lesson's title is cut: $(line_of '第 4 课')"
line_of '第 4 课' | grep -q '第 1/5 步' || fail "no step counter beside the title: $(line_of '第 4 课')"

stop
start 80 24 --lang zh --params 70B --gpus 1024
wait_for '最少 GPU 数' 'zh 70B: no fewest GPUs'
row=$(line_of '最少 GPU 数')
echo "$row" | grep -q '…' && fail "zh 70B: the fewest GPUs row is cut: $row"
echo "$row" | grep -Eq '最少 GPU 数 [0-9]+（TP [0-9]+×PP [0-9]+×DP [0-9]+）' || fail "zh 70B: the layout is not whole: $row"
set -- $(echo "$row" | sed -E 's/.*最少 GPU 数 ([0-9]+)（TP ([0-9]+)×PP ([0-9]+)×DP ([0-9]+)）.*/\1 \2 \3 \4/')
[ "$1" -eq $(($2 * $3 * $4)) ] || fail "zh 70B: $2 × $3 × $4 is not $1"
exit 0
