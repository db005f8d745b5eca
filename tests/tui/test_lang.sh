#!/bin/sh
# The language in the explorer (docs/i18n.md): napkin explore --lang zh starts in Chinese
# under LC_ALL=C.UTF-8 (no zh_CN locale needed), Z switches live between English and
# Chinese (the footer says which, in that language), also over an open explanation, which is
# written again in the new language; a lesson opened after the switch is in
# the new language, and ? lists the key.
. "$(dirname "$0")/lib.sh"

start 120 40 --lang zh
wait_for 'napkin' 'napkin explore --lang zh did not draw'
stop
# a knob's label is its label, not the counted word of the same English ("GPUs" the knob is
# GPU 数; "8 GPUs" in a sentence is 8 张 GPU): the knob pane's row, at a height that shows it
start 200 60 --lang zh
wait_for '^│ GPU 数 +8 │' 'the gpus knob is not labelled GPU 数'
screen | grep -q '^│ 张 GPU' && fail 'a knob labelled 张 GPU (the counted word)'
stop
start 120 40 --lang zh
wait_for 'napkin' 'napkin explore --lang zh did not draw'
# Z over an open explanation: the explanation is written again in the new language, both ways
keys e
wait_for '命令行：--' 'e did not open the explanation in Chinese'
keys Z
wait_for 'On the command line: --' 'Z over the explanation left it in Chinese'
screen | grep -q '命令行' && fail 'Chinese left in the explanation after Z'
keys Z
wait_for '命令行：--' 'Z back did not write the explanation in Chinese'
keys Escape
wait_gone '命令行：--'
keys Z
wait_for 'Language: English' 'Z from Chinese did not switch to English'
keys Z
wait_for '语言：中文' 'Z did not switch back to Chinese'
keys q
[ "$(wait_exit)" = 0 ] || fail 'explore --lang zh: exit status'
stop

# from English: Z, then a lesson opened from L is in Chinese
start 120 40
wait_for 'Memory per GPU' 'napkin explore did not draw'
keys Z
wait_for '语言：中文' 'Z from English did not switch to Chinese'
keys L
wait_for '课程：一步一步学这一章' 'L did not list the lessons in Chinese'
keys Enter
wait_for '第 1 课：为什么需要资源核算' 'the lesson opened after Z is not in Chinese'
keys Escape
wait_gone '第 1 课：'
keys '?'
wait_for '即时切换' '? does not list the language key (in Chinese, after Z)'
keys Escape q
[ "$(wait_exit)" = 0 ] || fail 'explore: exit status'
stop
echo "ok: the language in the explorer"
