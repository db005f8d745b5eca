#!/bin/sh
# Every lesson in Chinese in the explorer (napkin lesson N --lang zh), every step, at 80x24
# and 120x40: the step's Chinese title is on screen and its English text is not (no fallback),
# no line is wider than the terminal (each wide character takes two columns), and n walks to
# the last step. The titles and the English texts come from napkin lesson N --text.
. "$(dirname "$0")/lib.sh"

# whole_lines W: every line of the screen is at most W columns wide (wc -L counts display width)
whole_lines() {
	screen >"$TUI_TMP/screen"
	_n=0
	while IFS= read -r l; do
		_n=$((_n + 1))
		_w=$(printf '%s' "$l" | wc -L)
		[ "$_w" -le "$1" ] || fail "lesson $2 step $3 at $1 columns: line $_n is $_w columns wide: $l"
	done <"$TUI_TMP/screen"
}

# the longest run of Chinese characters of each step title (a marker no English pane has)
zh_markers() {
	# the step headings, in Chinese scaffolding ("第 k 步（共 n 步）：title") or English
	"$NAPKIN" lesson "$1" --text --lang zh |
		sed -n -e 's/^Step [0-9]* of [0-9]*: \(.*\)  \[.*\]$/\1/p' -e 's/^第 [0-9]* 步（共 [0-9]* 步）\(: \|：\)\(.*\)  \[.*\]$/\2/p' |
		while IFS= read -r t; do
			printf '%s\n' "$t" | grep -oP '[\x{4e00}-\x{9fff}]+' | awk '{ print length($0) " " $0 }' |
				sort -rn | head -1 | cut -d' ' -f2
		done
}

# the first four words of each step's English text
en_openings() {
	"$NAPKIN" lesson "$1" --text --lang en |
		awk '/^Step [0-9]+ of/ { s = 1; next } s == 1 && /^$/ { s = 2; next } s == 2 && NF { print $1 " " $2 " " $3 " " $4; s = 0 }'
}

lessons=0
n=1
while "$NAPKIN" lesson "$n" --text >/dev/null 2>&1; do
	zh_markers "$n" >"$TUI_TMP/zh"
	en_openings "$n" >"$TUI_TMP/en"
	steps=$(wc -l <"$TUI_TMP/zh")
	[ "$steps" -ge 2 ] || fail "lesson $n: $steps Chinese step titles in napkin lesson $n --text --lang zh"
	[ "$(wc -l <"$TUI_TMP/en")" = "$steps" ] || fail "lesson $n: the English and Chinese steps differ in number"
	for size in "80 24" "120 40"; do
		w=${size% *} h=${size#* }
		stop
		tm set-option -g remain-on-exit on \; new-session -d -s app -x "$w" -y "$h" \
			"$NAPKIN lesson $n --lang zh" || fail "tmux did not start"
		s=1
		while [ "$s" -le "$steps" ]; do
			marker=$(sed -n "${s}p" "$TUI_TMP/zh")
			wait_for "第 $s 步（共 $steps 步）|第 $s/$steps 步" "lesson $n at ${w}x$h: step $s is not shown"
			wait_for "$marker" "lesson $n at ${w}x$h: step $s's Chinese title ($marker) is not on screen"
			opening=$(sed -n "${s}p" "$TUI_TMP/en")
			screen | grep -qF -- "$opening" && fail "lesson $n step $s at ${w}x$h: the English text is on screen ($opening)"
			screen | grep -qE 'shows in English|in English\.|以英文显示' && fail "lesson $n step $s: the lesson fell back to English"
			whole_lines "$w" "$n" "$s"
			[ "$s" -lt "$steps" ] && keys n
			s=$((s + 1))
		done
		keys q
		[ "$(wait_exit)" = 0 ] || fail "lesson $n at ${w}x$h: exit status"
	done
	lessons=$((lessons + 1))
	n=$((n + 1))
done
[ "$lessons" -ge 10 ] || fail "only $lessons lessons walked"
echo "ok: $lessons lessons in Chinese, every step, at 80x24 and 120x40"
