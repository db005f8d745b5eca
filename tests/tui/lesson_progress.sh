#!/bin/sh
# A student's progress through a lesson (docs/lessons.md, "Progress"), as a teacher collects
# it: napkin lesson 4 --report FILE --name NAME in the explorer, step 1's number typed wrong
# then right, step 2 passed by, step 5 answered by typing 1475 GPUs into its knob, steps 3
# and 4 never reached; on leaving, the line napkin prints and the record it writes say so,
# in Chinese; a record already there is refused before the lesson opens, and replaced only
# with --force.
. "$(dirname "$0")/lib.sh"

rec=$TUI_TMP/progress.md
tm set-option -g remain-on-exit on \; set-option -g history-limit 2000 \; \
	new-session -d -s app -x 140 -y 45 "$NAPKIN lesson 4 --lang zh --report $rec --name 李华" ||
	fail "tmux did not start"
wait_for '第 1 步' 'lesson 4 did not open'
keys a
tm send-keys -t app -l 161.2
keys Enter
wait_for '偏大 12%' 'a wrong answer is not judged'
keys a
tm send-keys -t app -l 143.9
keys Enter
wait_for '✓ 对：143.9 天' 'the right answer is not confirmed'
keys n
wait_for '第 2 步' 'n did not reach step 2'
# step 5 straight from the lesson's list of steps: n three more times would reach 3 and 4
keys Escape
wait_gone '第 2 步（共 5 步）' 'Esc did not leave the lesson'
keys Q
st=$(wait_exit)
[ "$st" = 0 ] || fail "the explorer exited with $st"
hist_has '第 4 课：FLOPs 与 MFU：训练要多久：1/5 步已答出（1）；还没有答出：2、3、4、5。' ||
	fail "no progress line after the lesson: $(hist)"
[ -f "$rec" ] || fail "no record written"
grep -q '^- 学生：李华$' "$rec" || fail "the record lacks the name: $(cat "$rec")"
grep -q '^- 已答出：1/5 步$' "$rec" || fail "the record lacks the count: $(cat "$rec")"
grep -q '^| 1 | 70B 模型、15T 个 Token、1024 张 H100 | 已答出（输入数值） | 2 |$' "$rec" ||
	fail "step 1 is not answered after 2 typed answers: $(cat "$rec")"
grep -q '^| 2 | 算得完不等于放得下 | 看过，没有答出 |  |$' "$rec" || fail "step 2 is not 'reached': $(cat "$rec")"
grep -q '^| 3 | 精确计数 | 没有看到 |  |$' "$rec" || fail "step 3 is not 'not reached': $(cat "$rec")"
stop

# the record is there: refused before the lesson opens (a student never learns at its end
# that the record cannot be written), the file kept
tm set-option -g remain-on-exit on \; set-option -g history-limit 2000 \; \
	new-session -d -s app -x 140 -y 45 "$NAPKIN lesson 4 --step 5 --report $rec" || fail "tmux did not start"
st=$(wait_exit)
[ "$st" = 2 ] || fail "a record that is there was not refused at the start (status $st)"
hist_has "--report $rec: the file is there; --force replaces it" || fail "the refusal is not said: $(hist)"
hist | grep -q 'step 5 of 5' && fail "the lesson opened although its record cannot be written"
grep -q '李华' "$rec" || fail "the record was replaced without --force"
stop

# --force: a knob step answered by the student's knobs, the record replaced
tm set-option -g remain-on-exit on \; set-option -g history-limit 2000 \; \
	new-session -d -s app -x 140 -y 45 "$NAPKIN lesson 4 --step 5 --report $rec --force" || fail "tmux did not start"
wait_for 'step 5 of 5' 'lesson 4 did not open at step 5'
press_until 'GPUs in the job' Down 'no GPU count knob'
keys Enter
wait_for 'Enter apply' 'Enter did not open the input box'
keys C-u
tm send-keys -t app -l 1475
keys Enter
wait_for '✓ step 5 answered' 'step 5 is not answered by 1475 GPUs'
keys Q
st=$(wait_exit)
[ "$st" = 0 ] || fail "--force did not replace the record (status $st)"
hist_has 'Lesson 4: FLOPs and MFU: how long does training take: 1 of 5 steps answered (5); not yet: 1, 2, 3, 4.' ||
	fail "no progress line: $(hist)"
grep -q '李华' "$rec" && fail "the record was not replaced with --force"
grep -q '^| 5 | Under 100 days | answered (the knobs) |  |$' "$rec" || fail "step 5 is not answered by the knobs: $(cat "$rec")"
grep -q '^| 4 | MFU from a measured throughput | not reached |  |$' "$rec" || fail "step 4 is not 'not reached': $(cat "$rec")"
echo "ok: the explorer keeps the student's progress, prints it on leaving and writes the record a teacher collects"
