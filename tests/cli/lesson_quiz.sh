#!/bin/sh
# napkin lesson 4 --quiz --lang zh takes typed answers on stdin (issue: "a quiz that checks
# numbers"). Lesson 4 step 1 asks how many days 6.3e24 FLOPs take at 5.07e17 FLOP/s: 143.93
# days (CS336 lecture 2). A right answer is 对, with or without its unit and in other units
# (3454 小时, 1.2436e7 s); a wrong one says which way and how far (161.2 天 is 12% too high:
# 偏大 12%), and the hint comes after it; ? or an empty line shows the answer; hours typed as
# days are named as a factor of 24; the input's end ends the quiz cleanly. --step out of the
# lesson's range names the range.
#   sh tests/cli/lesson_quiz.sh PATH/TO/napkin
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
unset LANGUAGE LC_ALL LC_MESSAGES LANG
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}
# quiz INPUT ARGS...: runs the quiz on lesson 4 with INPUT on stdin; status in $st
quiz() {
	_in=$1
	shift
	printf "$_in" | "$NAPKIN" lesson 4 --quiz --lang zh "$@" >"$tmp/out" 2>"$tmp/err"
	st=$?
}
has() { grep -qF -- "$1" "$tmp/out" || fail "$2: no '$1' in: $(cat "$tmp/out")"; }
lacks() { ! grep -qF -- "$1" "$tmp/out" || fail "$2: '$1' should not be there"; }

# right at the first try; the working follows; the knob steps are named for the explorer
quiz '143.9\n'
[ "$st" = 0 ] || fail "right answer: status $st, not 0"
has '问题：先手算：以 5.07e17 FLOP/s 完成 6.3e24 FLOPs 需要多少天？' 'the question'
has '你的答案（天；? 查看答案）>' 'the prompt names the unit'
has '✓ 对：143.9 天（napkin：143.9 天）' 'right'
has 'napkin 如何计算' 'the working after a right answer'
has 'napkin lesson 4 --step 2' 'a knob step names the explorer'
has '测验：1/1 题答对（1 题一次答对），0 题看了答案' 'the summary'
[ -s "$tmp/err" ] && fail "right answer: stderr: $(cat "$tmp/err")"
# the student copy's rule: nothing of the answer before it is typed
head -n 8 "$tmp/out" | grep -q '143\.9' && fail 'the answer shows before the prompt'

# wrong, then the hint, then right with a Chinese unit
quiz '161.2\n143.9 天\n' --step 1
[ "$st" = 0 ] || fail "wrong then right: status $st, not 0"
has '✗ 还不对：161.2 天，偏大 12%' 'how far off and which way'
has '提示：FLOPs ÷ FLOP/s 得到的是秒数' 'the hint after a wrong try'
has '✓ 对：143.9 天' 'right after the hint'
has '测验：1/1 题答对（0 题一次答对）' 'not at the first try'

# too low, and hours typed as days
quiz '100\n3454\n?\n' --step 1
has '偏小 31%' 'too low'
has '差了 24 倍' 'hours typed as days'
has '答案：143.9 天' '? shows the answer'
[ "$st" = 1 ] || fail "shown: status $st, not 1"

# units: hours, seconds, English days; an empty line shows it
for a in '3454 小时' '3454 h' '1.2436e7 s' '144 days' '0.394 years'; do
	quiz "$a\n" --step 1
	has '✓ 对：' "'$a' is 143.93 days"
done
quiz '\n' --step 1
has '答案：143.9 天' 'an empty line shows the answer'
# what is not a number, or not a time, is said so and asked again
quiz 'lots\n80 GB\n143.9\n' --step 1
has '“lots”不是一个数' 'not a number'
has '这里不能用单位“GB”' 'a unit of another kind'
has '✓ 对：143.9 天' 'asked again after a bad line'

# the input's end: a clean end, status 1 (not answered), nothing on stderr
quiz ''
[ "$st" = 1 ] || fail "EOF: status $st, not 1"
has '（输入结束）' 'the end of the input is said'
has '测验：0/1 题答对' 'the summary at the end of the input'
[ -s "$tmp/err" ] && fail "EOF: stderr: $(cat "$tmp/err")"

# --step: in range opens there, out of range names the range
quiz '' --step 5
has '第 5 步（共 5 步）' '--step 5 starts at step 5'
lacks '第 1 步（共 5 步）' '--step 5 skips steps 1 to 4'
[ "$st" = 0 ] || fail "--step 5 (no question to type): status $st, not 0"
"$NAPKIN" lesson 4 --step 6 --text --lang zh >"$tmp/out" 2>"$tmp/err"
st=$?
[ "$st" = 2 ] || fail "--step 6: status $st, not 2"
grep -qF '只有第 1 到第 5 步' "$tmp/err" || fail "--step 6: $(cat "$tmp/err")"
"$NAPKIN" lesson 4 --step 3 --text >"$tmp/out" 2>&1
grep -q '^Step 1 of 5' "$tmp/out" && fail '--step 3 --text prints step 1'
grep -q '^Step 3 of 5' "$tmp/out" || fail '--step 3 --text does not start at step 3'
"$NAPKIN" lesson 4 --quiz --text </dev/null >/dev/null 2>"$tmp/err"
[ $? = 2 ] || fail '--quiz --text is not refused'

[ "$fails" = 0 ] || exit 1
echo "ok: napkin lesson 4 --quiz takes typed answers (right, wrong with the hint, shown, units, the input's end)"
