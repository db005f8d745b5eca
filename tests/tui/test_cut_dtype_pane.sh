#!/bin/sh
# The data types pane's note on the focused dtype wraps over the lines it takes at 120×40
# (bf16: "fp32's range in half the bytes, less precision: the usual LLM training type"),
# in English and Chinese, instead of being cut with …; the table scrolls to make room.
. "$(dirname "$0")/lib.sh"

start 120 40
wait_for 'Data types' 'never drew the data types pane'
wait_for 'training type +│' "en: the bf16 note is cut before its end"
screen | grep -q 'fp32.s range in half the bytes,.*…' && fail 'en: the note is cut with …'
keys q
[ "$(wait_exit)" = 0 ] || fail 'exit status'
stop

start 120 40 --lang zh
wait_for '数据类型' 'zh: never drew the data types pane'
wait_for 'LLM 训练常用的类型 +│' 'zh: the bf16 note is cut before its end'
screen | grep -q '精度更…' && fail 'zh: the note is cut with …'
keys q
[ "$(wait_exit)" = 0 ] || fail 'zh: exit status'
stop
exit 0
