#!/bin/sh
# Screens of a teacher's trial of the Chinese course whose fixes had no test:
#   M20 the lesson footer's r resets the step: 重置本步 (重做 is Redo in every Chinese UI, and
#       it sat next to u 撤销); English: "r reset step";
#   A10 the dtype lab's title names the rounding as 就近舍入，偶数优先, not 平局取偶;
#   A26 the data types pane's header reads ε, not the English "epsilon", and the dtype lab's
#       column 机器精度 ε;
#   A19 the dtype lab's rule names the dtype as Chinese prose does: BF16 的溢出规则.
# Each assertion failed on a88649d, the commit the trial used.
. "$(dirname "$0")/lib.sh"

start_lesson 120 40 3 --lang zh
wait_for '第 1 步（共 4 步）' 'lesson 3 did not open'
wait_for 'r 重置本步' "M20: the lesson footer does not say r 重置本步: $(screen | tail -1)"
screen | grep -q '重做' && fail "M20: the lesson footer still says 重做: $(line_of '重做')"
stop

start_lesson 120 40 3
wait_for 'step 1 of 4' 'lesson 3 did not open (English)'
wait_for 'r reset step' "M20 (en): the lesson footer does not say r reset step: $(screen | tail -1)"
stop

start 120 40 --lang zh
wait_for '每张 GPU 的显存' 'never drew'
wait_for '字节 位数 +最大值 ε' "A26: the data types pane's header: $(line_of '字节 位数')"
screen | grep -q '最大值 epsilon' && fail "A26: the data types pane's header says epsilon: $(line_of '最大值')"
keys D
wait_for '每种数据类型如何存储 .*（就近舍入，偶数优先）' "A10: the dtype lab's title: $(line_of '每种数据类型')"
screen | grep -q '平局取偶' && fail "A10: the dtype lab still says 平局取偶"
wait_for '尾数 +最大值 +最小正规数 +机器精度 ε' "A26: the dtype lab's columns: $(line_of '尾数')"
wait_for 'BF16 的溢出规则：' "A19: the dtype lab's rule: $(line_of '溢出规则')"
screen | grep -q 'bf16 的溢出规则' && fail "A19: the rule's dtype in lower case"
stop
echo "ok: the class trial's screens (M20, A10, A19, A26)"
