#!/bin/sh
# The lesson handouts (docs/lessons.md, "Handouts"). For every shipped lesson, in English
# and Chinese:
# - the student copy (--markdown and --html without --solutions) shows none of the values
#   that answer a step's question, as napkin formats them: the teacher copy's reference
#   answer of that step (engine-checked), each value searched in the student's same step;
# - the teacher copy (--solutions) gives every question a reference answer (a table of
#   engine-checked numbers) and a working;
# - the HTML is one printable UTF-8 document with a page break between steps;
# - napkin lesson all prints the whole course.
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
export LC_ALL=C.UTF-8
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=$("$NAPKIN" lesson </dev/null | grep -c '^ *[0-9][0-9]*[* ] ')
[ "$n" -ge 10 ] || fail "the list has $n lessons"

# the step sections of a handout, one file per step: $3.1, $3.2, ... (split at $2)
split_steps() {
	awk -v pat="$2" -v out="$3" 'index($0, pat) == 1 { k++ } k > 0 { print > (out "." k) }' "$1"
}

i=1
while [ "$i" -le "$n" ]; do
	for lang in en zh; do
		t="$tmp/t$i$lang"
		"$NAPKIN" lesson "$i" --markdown --solutions --lang "$lang" >"$t.md" || fail "lesson $i --solutions: status $?"
		grep -q '^> \*\*' "$t.md" || fail "lesson $i --markdown --solutions: no question"
		"$NAPKIN" lesson "$i" --markdown --lang "$lang" >"$t.smd" || fail "lesson $i --markdown: status $?"
		"$NAPKIN" lesson "$i" --html --lang "$lang" >"$t.shtml" || fail "lesson $i --html: status $?"
		"$NAPKIN" lesson "$i" --html --solutions --lang "$lang" >"$t.thtml" || fail "lesson $i --html --solutions: status $?"
		# a student copy's goal is never the answer itself: a knob's value ("precision is one of
		# amp-bf16, …", "matmul dtype is tf32") or a technique switched on ("FlashAttention is
		# on"); a goal on a result ("training days below 100.0 days") it keeps, its Chinese
		# without a space between two Chinese words (训练天数低于, 且显存)
		for f in "$t.smd" "$t.shtml"; do
			g=$(grep 'Answered when: \|回答条件：' "$f" || true)
			printf '%s\n' "$g" | grep -q ' is one of \|之一\|precision is\|精度为\|精度 为\|matmul dtype\|矩阵乘法\| is on\b\|开启' &&
				fail "lesson $i ($lang): the student copy's goal gives the answer: $(printf '%s\n' "$g" | grep ' is one of\|之一\|precision\|精度\|matmul\|矩阵乘法\| is on\|开启' | head -1)"
			printf '%s\n' "$g" | grep -qP '[\x{4e00}-\x{9fff}] [\x{4e00}-\x{9fff}]' &&
				fail "lesson $i ($lang): a space between two Chinese words in a goal: $(printf '%s\n' "$g" | grep -P '[\x{4e00}-\x{9fff}] [\x{4e00}-\x{9fff}]' | head -1)"
		done
		split_steps "$t.smd" "## " "$t.sstep"
		split_steps "$t.shtml" '<section class="step">' "$t.hstep"
		split_steps "$t.thtml" '<section class="step">' "$t.thstep"
		k=1
		while [ -f "$t.thstep.$k" ]; do
			[ -f "$t.sstep.$k" ] && [ -f "$t.hstep.$k" ] || fail "lesson $i ($lang): the student copy lacks step $k"
			if grep -q 'class="question"' "$t.thstep.$k"; then
				# every question: a reference answer and a working (lesson 2 step 3 asks about the
				# tensor inspector's copy, which is no engine result: its working gives the bytes;
				# lesson 11 step 6 asks for the initialisation's σ², which the inspector's :init
				# gives and no engine result holds: its working gives 1/4096)
				if [ "$i.$k" != 2.3 ] && [ "$i.$k" != 11.6 ]; then
					grep -q 'class="numbers reference"' "$t.thstep.$k" ||
						fail "lesson $i step $k ($lang): the teacher copy has no reference answer"
				fi
				grep -q 'class="working"' "$t.thstep.$k" || fail "lesson $i step $k ($lang): no working"
				grep -q 'class="numbers' "$t.hstep.$k" && fail "lesson $i step $k ($lang): a table of numbers in the student copy"
				grep -q 'class="explain"' "$t.hstep.$k" && fail "lesson $i step $k ($lang): how napkin computes it, in the student copy"
				# the values of the step's reference answer, as the teacher's HTML copy shows them:
				# the references, and the answers in the step's own scenario where the question asks
				# for no change of knobs (a step with a solution states its starting point there)
				rows='<tr class="reference">'
				grep -q 'class="solution"' "$t.thstep.$k" || rows='<tr class="\(reference\|answer\)">'
				awk '/class="numbers reference"/ { on = 1 } on { print } /<\/table>/ { on = 0 }' "$t.thstep.$k" |
					sed -n "s/.*$rows.*<td class=\"value\">\([^<]*\)<\/td>.*/\1/p" | grep '[0-9]' >"$t.values" || true
				# the question and its goal state their own bounds ("a micro-batch of 3", "at most
				# 4.00 GiB"), the scenario and knobs lines the starting point ("Llama-3-8B"): not
				# answers
				skip='^\(Answered when: \|回答条件：\|> \*\*\|Scenario: \|场景：\|Knobs: \|设置: \)'
				grep -v "$skip" "$t.sstep.$k" >"$t.s" || true
				grep -v 'class="goal"\|class="question"' "$t.hstep.$k" | grep -v "$skip" >"$t.h" || true
				while IFS= read -r v; do
					w=-F # a bare number ("512") as a word, one with its unit as it is
					case "$v" in
					*[!0-9.,]*) ;;
					?) continue ;; # a one-digit count ("3") is in any text: no table below covers it
					*) w=-wF ;;
					esac
					grep -q $w -- "$v" "$t.s" && fail "lesson $i step $k ($lang): the student copy shows '$v': $(grep $w -- "$v" "$t.s")"
					grep -q $w -- "$v" "$t.h" && fail "lesson $i step $k ($lang): the HTML student copy shows '$v'"
				done <"$t.values"
			fi
			k=$((k + 1))
		done
		[ "$k" -gt 1 ] || fail "lesson $i ($lang): no steps in the teacher copy"
	done
	i=$((i + 1))
done

# the chapter's worked answer is in the teacher copy, not in the student's
grep -qF '143.9 days' "$tmp/t4en.md" || fail "lesson 4's teacher copy lacks 143.9 days"
grep -qF '143.9 天' "$tmp/t4zh.md" || fail "lesson 4's Chinese teacher copy lacks 143.9 天"
grep -qF '143.9' "$tmp/t4zh.sstep.1" && fail "lesson 4 step 1's student copy shows 143.9"
# the panes and the checks in Chinese (A22)
grep -q '^请看：计算量' "$tmp/t4zh.smd" || fail "the pane is not in Chinese: $(grep '请看' "$tmp/t4zh.smd" | head -1)"
grep -q '请看：compute\|memory.fits ==' "$tmp/t4zh.smd" && fail "keys where words belong"
# a printable document
h="$tmp/t4zh.shtml"
head -1 "$h" | grep -q '^<!DOCTYPE html>' || fail "HTML: no doctype"
grep -q '<meta charset="utf-8">' "$h" || fail "HTML: no charset"
grep -q '<html lang="zh-CN">' "$h" || fail "HTML: no language"
grep -q 'break-before: page' "$h" || fail "HTML: no page breaks"
grep -q 'Noto Serif CJK SC' "$h" || fail "HTML: no CJK fonts"
grep -q 'class="answer-space"' "$h" || fail "HTML: no room for the answers"
[ "$(grep -c '<section class="step">' "$h")" = 5 ] || fail "HTML: lesson 4 has not 5 steps"
# the whole course
"$NAPKIN" lesson all --html --lang zh >"$tmp/all.html" || fail "lesson all --html: status $?"
[ "$(grep -c '<article class="lesson">' "$tmp/all.html")" = "$n" ] || fail "lesson all: not $n lessons"
[ "$(grep -c '<!DOCTYPE html>' "$tmp/all.html")" = 1 ] || fail "lesson all: not one document"
"$NAPKIN" lesson all --markdown | grep -c '^# Lesson ' | grep -qx "$n" || fail "lesson all --markdown: not $n lessons"
"$NAPKIN" lesson all 2>"$tmp/err"; [ $? = 2 ] || fail "lesson all without a handout form: status"
echo "ok: $n lessons' student copies hide their answers, teacher copies answer every question"
