#!/bin/sh
# napkin lesson without a terminal: the list, a lesson as text with the engine's numbers
# (the chapter's worked answer), the Chinese text of a bilingual lesson, --check on every
# shipped lesson, and the errors a student can make.
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
export LC_ALL=C.UTF-8
fail() { echo "FAIL: $*"; exit 1; }

out=$("$NAPKIN" lesson </dev/null) || fail "napkin lesson: status $?"
echo "$out" | grep -q '^  4\* FLOPs and MFU' || fail "the list lacks lesson 4: $out"
out=$("$NAPKIN" lesson 4 </dev/null) || fail "napkin lesson 4 (no terminal): status $?"
echo "$out" | grep -Eq '\(compute.train_days\) +143.9 days' || fail "lesson 4 lacks 143.9 days"
echo "$out" | grep -q 'Step 5 of 5: Under 100 days' || fail "lesson 4 lacks its last step"
echo "$out" | grep -q 'A solution' && fail "solutions shown without --solutions"
"$NAPKIN" lesson flops-mfu --text --solutions | grep -q 'A solution: gpus=1536' || fail "--solutions"
md=$("$NAPKIN" lesson 4 --markdown) || fail "--markdown: status $?"
echo "$md" | grep -q '^# Lesson 4: FLOPs and MFU' || fail "--markdown: no title"
echo "$md" | grep -q '143.9 days' && fail "--markdown (the student copy) shows the answer"
"$NAPKIN" lesson 4 --markdown --solutions | grep -q '^| training days <sub>`compute.train_days`</sub> | 143.9 days |$' ||
	fail "--markdown --solutions: no numbers table"
echo "$md" | grep -q '^> \*\*Question.\*\* ' || fail "--markdown: no question"
"$NAPKIN" lesson 3 --text --lang zh | grep -q '为什么 LLM 常用 BF16 训练' || fail "lesson 3 in Chinese"
"$NAPKIN" lesson 2 --text --lang zh | grep -q 'Tensor 与它占的显存' || fail "lesson 2 in Chinese"
"$NAPKIN" lesson --check 1 2 3 4 5 6 7 8 9 >/dev/null || fail "--check of the shipped lessons"
"$NAPKIN" lesson --check presets/lessons/05-training-memory.yaml | grep -q 'ok (training-memory' || fail "--check FILE"
# errors: a status of 2 and a message that says what is wrong
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a lesson without Chinese falls back to English
printf 'lesson: en-only\ntitle: Only English\nsteps:\n  - text: Just English.\n' >"$tmp/en.yaml"
"$NAPKIN" lesson "$tmp/en.yaml" --text --lang zh | grep -q 'Only English' || fail "the English fallback"
printf 'lesson: x\ntitle: T\nsteps:\n  - text: a\n    answer: {key: memory.bytes_per_param, value: 12}\n' >"$tmp/bad.yaml"
"$NAPKIN" lesson --check "$tmp/bad.yaml" 2>"$tmp/err" && fail "a wrong answer passed --check"
grep -q 'bad.yaml:5:13: step 1: memory.bytes_per_param: the engine gives 16' "$tmp/err" || fail "message: $(cat "$tmp/err")"
"$NAPKIN" lesson 99 2>"$tmp/err"; [ $? = 2 ] || fail "lesson 99: status"
grep -q 'no lesson 99' "$tmp/err" || fail "lesson 99: $(cat "$tmp/err")"
"$NAPKIN" lesson 1 --batch 8 2>"$tmp/err"; [ $? = 2 ] || fail "a knob flag was accepted"
"$NAPKIN" lesson 1 --lang ZH 2>"$tmp/err"; [ $? = 2 ] || fail "a bad --lang was accepted"
echo "ok: lesson text, --lang, --solutions, --check and errors"
