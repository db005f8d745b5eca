#!/bin/sh
# A Chinese lesson in the explorer (napkin lesson 1 --lang zh, LC_ALL=C.UTF-8): the panel
# shows the Chinese text, not the English one; each wide character takes two columns, so
# every screen line is exactly as wide as the terminal and the panel's right border stays
# in place; n moves on, a resize to 80x24 keeps it whole, Esc and q leave with status 0.
. "$(dirname "$0")/lib.sh"

# whole_lines W: every line of the screen is W columns wide (wc -L counts display width)
whole_lines() {
	screen >"$TUI_TMP/screen"
	n=0
	while IFS= read -r l; do
		n=$((n + 1))
		w=$(printf '%s' "$l" | wc -L)
		# capture-pane drops trailing blanks: a line may be shorter, never wider
		[ "$w" -le "$1" ] || fail "line $n is $w columns wide, not $1: $l"
	done <"$TUI_TMP/screen"
}

tm set-option -g remain-on-exit on \; set-option -g history-limit 2000 \; \
	new-session -d -s app -x 120 -y 40 "$NAPKIN lesson 1 --lang zh" || fail "tmux did not start"
wait_for '第 1 课：为什么需要资源核算' 'the Chinese title is not on screen'
wait_for '决定一次训练的两个数字' 'the step title is not in Chinese'
wait_for '主副本|显存|训练' 'the step text is not in Chinese'
screen | grep -q 'shows in English' && fail 'the lesson fell back to English'
screen | grep -q 'Why count resources' && fail 'the English title is on screen'
whole_lines 120
# the panel's right border ends the step title's line, at the last column
line=$(line_of '决定一次训练的两个数字')
case $line in *│) ;; *) fail "the panel's border is not at the end of the line: $line" ;; esac
[ "$(printf '%s' "$line" | wc -L)" = 120 ] || fail "the step title's line is not 120 columns: $line"
keys n
wait_for '第 2 步（共 3 步）' 'n did not move to step 2'
wait_for '只有一张 GPU' 'step 2 is not in Chinese'
whole_lines 120
tm resize-window -t app -x 80 -y 24
wait_for '第 2 步（共 3 步）|第 2/3 步' 'the lesson did not survive the resize'
wait_for '只有一张' 'the Chinese text is gone at 80x24'
whole_lines 80
keys Escape
wait_for '已离开课程' 'Esc did not leave the lesson (said in Chinese)'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: a Chinese lesson in the explorer"
