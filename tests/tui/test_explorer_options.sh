#!/bin/sh
# Every command that opens the explorer takes its options (one table): napkin lesson 7
# --theme projector opens the lesson in the projector theme, napkin (no command) and
# napkin explore take --lang and --probe-timeout, and a bad value is refused by each with
# the same message.
. "$(dirname "$0")/lib.sh"

# refused alike by each command (no terminal needed: the check comes first)
for cmd in explore lesson; do
	arg=; [ $cmd = lesson ] && arg=7
	out=$("$NAPKIN" $cmd $arg --theme neon </dev/null 2>&1) && fail "$cmd --theme neon was accepted"
	echo "$out" | grep -q "napkin $cmd: --theme: 'neon' is not a theme; allowed: dark, light, projector" ||
		fail "$cmd --theme neon: $out"
	out=$("$NAPKIN" $cmd $arg --probe-timeout 0 </dev/null 2>&1) && fail "$cmd --probe-timeout 0 was accepted"
	echo "$out" | grep -q -- "--probe-timeout: '0' is not a number of seconds from 1 to 3600" ||
		fail "$cmd --probe-timeout 0: $out"
	out=$("$NAPKIN" $cmd $arg --lang 'x!' </dev/null 2>&1) && fail "$cmd --lang x! was accepted"
	echo "$out" | grep -q -- "--lang: 'x!' is not a language code" || fail "$cmd --lang: $out"
	"$NAPKIN" $cmd --help | grep -q -- '--probe-timeout SECONDS' || fail "$cmd --help lacks --probe-timeout"
	"$NAPKIN" $cmd --help | grep -q -- '--theme dark|light|projector' || fail "$cmd --help lacks --theme"
done
# without a terminal, napkin (no command) with an explorer option prints the report, as
# napkin explore does; the lesson as text still takes them
"$NAPKIN" lesson 7 --theme projector --no-color --probe-timeout 5 --text </dev/null | grep -q 'Lesson 7' ||
	fail 'lesson --text refused the explorer options'
"$NAPKIN" --theme projector --lang zh </dev/null | grep -q '^napkin · Llama-2-7B' ||
	fail 'napkin --theme off a terminal did not print the report'

# napkin lesson 7 --theme projector: the lesson opens, in the projector theme (its one-row
# header shows the big bar layout; the check is that it opens at all and quits with 0)
tm set-option -g remain-on-exit on \; new-session -d -s app -x 120 -y 40 \
	"$NAPKIN lesson 7 --theme projector --probe-timeout 5 --no-mouse" || fail "tmux did not start"
wait_for 'Lesson 7: Arithmetic intensity' 'lesson 7 --theme projector did not open'
# the projector theme paints white on black: the header's first cell has a background
tm capture-pane -p -e -t app | head -3 | grep -q '\[' || fail 'no colours on screen'
keys Escape
wait_gone 'Lesson 7:'
keys q
[ "$(wait_exit)" = 0 ] || fail 'lesson --theme projector: exit status'
stop

# napkin with no command and napkin explore: --lang zh reaches the lessons opened with L
tm set-option -g remain-on-exit on \; new-session -d -s app -x 120 -y 40 \
	"$NAPKIN --lang zh --theme light" || fail "tmux did not start"
wait_for '每张 GPU 的显存' 'napkin --lang zh --theme light did not open the explorer in Chinese'
keys L
wait_for '课程：一步一步学这一章' 'L did not list the lessons'
keys Enter
wait_for '第 1 课：为什么需要资源核算' 'lesson 1 opened from L is not in Chinese with --lang zh'
keys Escape q
[ "$(wait_exit)" = 0 ] || fail 'napkin --lang zh: exit status'
echo "ok: explorer options"
