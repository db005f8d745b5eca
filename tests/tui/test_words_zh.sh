#!/bin/sh
# The explorer in Chinese says what a teacher's trial of the course found it misstated:
#   the peak beside the total is the peak in time (时间上的峰值: the fit is judged on the total);
#   the extra FLOPs under recompute none are FlashAttention's backward recompute, named so;
#   with a fixed MFU the step model's bar says it is what the model would predict;
#   the roofline's x axis keeps the decade a training step (976 FLOP/B) is read against, 1k;
#   ? help's legend gives ▞ both its meanings (KV Cache in inference, scratch in training);
#   the "step answered" message goes when the step changes;
#   a short lesson box at the top takes in the pane it covers (no stray second border).
. "$(dirname "$0")/lib.sh"

start 120 40 --lang zh
wait_for '每张 GPU 的显存' 'never drew'
screen | grep -q '时间上的峰值 ' || fail 'the peak beside the total is not called 时间上的峰值'
screen | grep -q '+ FlashAttention 反向重算 ' || fail 'recompute none still reads "+ 重计算"'
screen | grep -q '+ 重计算 ' && fail '"+ 重计算" under recompute none'
line_of '└0\.1' | grep -q '1k' || fail "the roofline's x axis lost its 1k tick: $(line_of '└0\.1')"
keys '?'
wait_for '怎么看屏幕|帮助' 'no help'
keys End
wait_for '临时缓冲（训练）' 'the help legend gives ▞ one meaning only'
stop

# a fixed MFU: the step model's bar is labelled a prediction
start 200 60 --lang zh --mfu 0.4
wait_for '步时模型' 'no step model row'
screen | grep -q '（若按步时模型预测）' || fail 'the step model bar under a fixed MFU is not labelled'
stop

# the step-met message and a short box at the top
cat >"$TUI_TMP/two.yaml" <<'YAML'
lesson: two
title: {en: "Two", zh: "两步"}
steps:
  - title: {en: "One", zh: "一"}
    pane: techniques
    text: {en: "A short text.", zh: "一段短文字。"}
    question: {en: "Two sequences.", zh: "两条序列。"}
    check: "batch >= 2"
  - title: {en: "Two", zh: "二"}
    knobs: {batch: 1}
    pane: techniques
    text: {en: "Again.", zh: "再来。"}
    question: {en: "Eight.", zh: "八条。"}
    check: "batch >= 8"
YAML
tm set-option -g remain-on-exit on \; new-session -d -s app -x 120 -y 40 "$NAPKIN lesson $TUI_TMP/two.yaml --lang zh" ||
	fail 'tmux did not start'
wait_for '第 1 步（共 2 步）' 'the lesson did not start'
screen | grep -q '最大 micro-batch' && fail 'the memory pane shows under the short lesson box (a stray border)'
keys Right
wait_for '第 1 步已答出' 'the check was not met'
keys n
wait_for '第 2 步（共 2 步）' 'n did not go on'
sleep 0.3
screen | grep -q '第 1 步已答出' && fail 'step 2 still says step 1 was answered'
echo "ok: the Chinese screens say what they show"
