#!/bin/sh
# Time in class (docs/lessons.md): the list gives each lesson's minutes and their sum; a
# lecture plan (napkin lesson --plan MINUTES) fits its length, starts each lesson on the
# clock the lessons before it leave, takes the chapter's main line (*) first, never a lesson
# beyond the chapter, and says what it leaves; a length it cannot read is refused; the
# teacher's copy gives each step's minutes, the student's does not.
. "$(dirname "$0")/../scripts/cli_lib.sh"
export COLUMNS=200
unset LANGUAGE LC_ALL LC_MESSAGES LANG

what="the list"
run lesson
ok
out_has "(why-count, 3 steps, 11 min; en, zh)"
out_has "* the chapter's main line"
# the total is the sum of the lessons' minutes
sum=$(sed -n 's/.*steps, \([0-9]*\) min;.*/\1/p' "$tmp/out" | awk '{s += $1} END {print s}')
n=$(grep -c 'steps, [0-9]* min;' "$tmp/out")
[ "$n" -ge 12 ] || fail "$what: $n lessons with minutes"
h=$((sum / 60)); m=$((sum % 60))
out_has "All of them take $h h $m min in class"

for budget in 30 45 90 120 600; do
	what="--plan $budget"
	run lesson --plan "$budget"
	ok
	# the lessons chosen, their clock and minutes: "  0:11    2* Title (14 min)"
	awk -v budget="$budget" '
		/^  [0-9]+:[0-9][0-9] +[0-9]+[* ] / {
			split($1, c, ":"); start = c[1] * 60 + c[2]
			if (start != clock) { print "clock " $1 " after " clock " min"; bad = 1 }
			match($0, /\(([0-9]+) min\)$/); m = substr($0, RSTART + 1, RLENGTH - 6) + 0
			clock += m
			if ($2 ~ /\*$/) core++
			if ($2 + 0 == 10) { print "lesson 10 is beyond the chapter"; bad = 1 }
		}
		/ end \(/ { split($1, c, ":"); if (c[1] * 60 + c[2] != clock) { print "end " $1 " but " clock; bad = 1 } }
		END { if (clock > budget) { print clock " min in " budget; bad = 1 } if (clock == 0) { print "nothing chosen"; bad = 1 } exit bad }
	' "$tmp/out" >"$tmp/awk" || fail "$what: $(cat "$tmp/awk")"
done
what="--plan 90: the main line, then what fits"
run lesson --plan 90
out_has "  0:00    1* Why count resources"
out_has "Left for another lecture or for homework: 3 Data types"
out_has "Beyond the chapter: 10 Fine-tuning on one GPU"
what="--plan 600: every lesson of the chapter"
run lesson --plan 10h
ok
grep -q "Left for another lecture" "$tmp/out" && fail "$what: leaves one out"
out_has "Beyond the chapter: 10 "
what="--plan 1.5 h reads as 90"
run lesson --plan "1.5 h"
ok
out_has "A lecture of 90 minutes: "
what="--plan 5: none fits"
run lesson --plan 5
[ "$rc" -eq 1 ] || fail "$what: status $rc"
out_has "No lesson fits in 5 min: the shortest, 1 Why count resources"
for bad in 90x 0 abc -5 "25 h" ""; do
	what="--plan '$bad' refused"
	run lesson --plan "$bad"
	refused
	err_has "give the lecture's length in minutes (90, 90 min, 1.5 h)"
done
what="--plan with a lesson"
run lesson 3 --plan 90
refused
err_has "--plan chooses among all the lessons"

what="--plan in Chinese"
run lesson --plan 90 --lang zh
ok
out_has "一次 90 分钟的课：6 课，先讲本章主线（*）"
out_has "  0:00    1* 为什么需要资源核算：放不放得下，要训多久（11 分钟）"
grep -q '^  [0-9]:[0-9][0-9]  结束' "$tmp/out" || fail "$what: no end in Chinese"
grep -q " min\b" "$tmp/out" && fail "$what: English minutes: $(grep ' min' "$tmp/out" | head -1)"
run lesson --lang zh
out_has "（why-count，3 步，11 分钟；en, zh）"
out_has "全部讲完需要 $h 小时 $m 分钟"

what="the teacher's copy gives each step's minutes"
run lesson 4 --text --solutions
out_has "  Time in class: about 5 minutes (napkin lesson --plan)"
run lesson 4 --markdown --solutions --lang zh
out_has "课堂用时：约 5 分钟（napkin lesson --plan）"
what="the student's copy does not"
run lesson 4 --markdown --lang zh
grep -q "课堂用时" "$tmp/out" && fail "$what: a student copy shows the minutes"

finish "lesson_plan: the list's minutes, lecture plans at 30 min to 10 h, refusals, Chinese, the teacher's copy"
