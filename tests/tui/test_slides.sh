#!/bin/sh
# The slide: one lesson step full screen for a projector (napkin lesson N --slides, or B in
# a lesson). At 80x24 and 120x40, in English and Chinese: B opens it from the lesson panel
# and --slides (with --step K) straight away; the heading names the lesson and the step;
# → PgDn and ← PgUp move through the steps; the pane the step names is drawn; the longest
# step's text ends on screen (nothing cut); + turns the step's knob and answers it, u undoes;
# a quiz is answered on the slide; Esc goes back
# to the panel, and Esc there leaves the lesson. A lesson file with a step about no pane:
# its text alone.
. "$(dirname "$0")/lib.sh"

# the screen's text without blanks, so that wrapped text reads as its source does
squeezed() { screen | tr -d ' \n'; }

# lesson ARGS W H: the explorer in napkin lesson ARGS
lesson() {
	tm set-option -g remain-on-exit on \; set-option -g history-limit 2000 \; \
		new-session -d -s app -x "$2" -y "$3" "$NAPKIN lesson $1" || fail "tmux did not start"
}

# English, 80x24: into the slide with B, along the steps, back with Esc
lesson 3 80 24
wait_for 'Lesson 3: Data types' 'lesson 3 did not open'
wait_for 'B slide' 'the lesson footer does not name B'
keys B
wait_for 'PgDn next step' 'B did not open the slide'
wait_for '^ Lesson 3: Data types.*step 1 of 4' 'the slide has no heading with the step'
keys Right
wait_for 'step 2 of 4' '→ did not move to step 2'
wait_for 'fp16 and bf16: same bytes, different range' 'step 2 title is not on the slide'
wait_for '┌ Data types' 'the step names the dtypes pane, which is not on the slide'
squeezed | grep -qF 'whenagradientoverflows.' || fail "the long step's text is cut at 80x24"
squeezed | grep -qF 'Switchtoa16-bitrecipethatneedsnolossscaling.' || fail 'the question is cut at 80x24'
# the knob the step asks about, turned on the slide with the main screen's keys; u undoes
wait_for 'precision = mixed-fp16' 'the slide does not show the knob the step asks about'
keys +
wait_for 'precision = bf16' '+ did not step the knob on the slide'
wait_for '✓ answered' 'the step is not answered on the slide'
keys u
wait_for 'precision = mixed-fp16' 'u did not undo on the slide'
wait_for 'not yet answered' 'the undone step still reads answered'
keys PgUp
wait_for 'step 1 of 4' 'PgUp did not move back'
keys PgDn
wait_for 'step 2 of 4' 'PgDn did not move on'
keys Left
wait_for 'step 1 of 4' '← did not move back'
keys Escape
wait_gone 'PgDn next step' 'Esc did not leave the slide'
wait_for 'n next step' 'Esc did not go back to the lesson panel'
wait_for 'step 1 of 4|step 1/4' 'the panel is not at the slide'"'"'s step'
keys Escape
wait_for 'left the lesson' 'Esc on the panel did not leave the lesson'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
stop

# English, 120x40: --slides --step opens on the slide; the roofline step's chart
lesson '7 --step 2 --slides' 120 40
wait_for 'step 2 of 4' '--slides --step 2 did not open on step 2'
wait_for 'PgDn next step' '--slides did not open the slide'
wait_for 'Element-wise ops are memory-bound' 'the step title is not on the slide'
wait_for '┌ Roofline' 'the roofline pane is not on the slide'
wait_for 'element-wise op' "the roofline's legend is not drawn"
squeezed | grep -qF 'howevermanyFLOPstheGPUhas.' || fail 'the text is cut at 120x40'
keys Right
wait_for 'step 3 of 4' '→ did not move on'
keys Escape
wait_for 'n next step' 'Esc did not go back to the panel'
keys B
wait_for 'PgDn next step' 'B did not open the slide again'
wait_for 'step 3 of 4' 'the slide is not at the panel'"'"'s step'
keys B
wait_gone 'PgDn next step' 'B did not close the slide'
keys Q
wait_exit >/dev/null
stop

# a quiz on the slide: lesson 4 step 1 asks for the training days (143.93, CS336 lecture 2)
lesson '4 --slides' 120 40
wait_for 'a: type your answer' 'the quiz step does not say how to answer on the slide'
keys a
wait_for 'answer \(days\) > _' 'a did not open the answer line on the slide'
tm send-keys -t app -l 143.9
wait_for 'answer \(days\) > 143.9_' 'the typed answer is not on the slide'
keys Enter
wait_for '✓ right: 143.9' 'the answer was not judged on the slide'
keys Q
wait_exit >/dev/null
stop

# Chinese, 80x24: the longest step whole, wrapped by display width
lesson '3 --step 2 --slides --lang zh' 80 24
wait_for '第 2 步（共 4 步）|第 2/4 步' 'the Chinese slide did not open at step 2'
wait_for 'FP16 与 BF16：字节数相同，范围不同' 'the step title is not in Chinese'
wait_for '┌ 数据类型' 'the dtypes pane is not on the Chinese slide'
squeezed | grep -qF 'lossscaler就会调小放大倍数。' || fail 'the Chinese text is cut at 80x24'
screen >"$TUI_TMP/screen"
while IFS= read -r l; do
	[ "$(printf '%s' "$l" | wc -L)" -le 80 ] || fail "a line is wider than 80 columns: $l"
done <"$TUI_TMP/screen"
keys Right
wait_for '第 3 步（共 4 步）|第 3/4 步' '→ did not move on in Chinese'
keys Escape
wait_gone '→ PgDn 下一步|PgDn' 'Esc did not leave the Chinese slide'
keys Q
wait_exit >/dev/null
stop

# Chinese, 120x40: B from the panel
lesson '1 --lang zh' 120 40
wait_for '第 1 课：为什么需要资源核算' 'lesson 1 did not open in Chinese'
keys B
wait_for '^ 第 1 课：为什么需要资源核算.*第 1 步（共 3 步）' 'B did not open the Chinese slide'
wait_for '┌ 每张 GPU 的显存' 'the memory pane is not on the Chinese slide'
squeezed | grep -qF '需要多少天？' || fail 'the Chinese question is cut at 120x40'
keys PgDn
wait_for '第 2 步（共 3 步）' 'PgDn did not move on in Chinese'
keys Escape
wait_for '第 2 步（共 3 步）' 'Esc did not go back to the panel'
keys Escape
wait_for '已离开课程' 'Esc on the panel did not leave the lesson'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
stop

# a step about no pane: its text alone, in the middle of the screen
cat >"$TUI_TMP/nopane.yaml" <<'YAML'
lesson: nopane
title: "A lesson without panes"
steps:
  - title: "Only words"
    text: "A slide with no pane shows its text alone, in the middle of the screen."
YAML
lesson "$TUI_TMP/nopane.yaml --slides" 80 24
wait_for 'Only words' 'the step without a pane is not on the slide'
row=$(screen | grep -n 'Only words' | cut -d: -f1)
[ "$row" -ge 8 ] || fail "the text alone is not centred (its title is on row $row)"
screen | grep -q '┌' && fail 'a step without a pane has a pane on the slide'
keys Q
wait_exit >/dev/null
stop

# a tensors step: the tensor inspector's table of the scenario's big tensors, not the knobs
lesson "2 --slides --lang zh" 80 24
wait_for '┌ 大 Tensor' "a tensors step's slide has no table of big tensors"
wait_for 'q_proj.weight +\[q_dim=4096, hidden=4096\] +bf16 +32 +1.00 GiB' "the table's weights: $(line_of 'q_proj')"
screen | grep -q '┌ 设置' && fail "a tensors step's slide shows the knob list"
keys Q
wait_exit >/dev/null
echo "ok: the slide"
