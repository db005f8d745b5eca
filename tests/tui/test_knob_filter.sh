#!/bin/sh
# `/` filters the knob pane by name, as htop's filter does: typing narrows the list to the
# knobs whose key or label holds the text, in English or Chinese whatever the language on
# screen; the title counts the matches; Enter keeps the filter and focuses the first match;
# Esc gives the whole list back. The knob table (src/engine/knob_table.c) has one knob with
# "zero" in its key or label (zero, "ZeRO"), one labelled 精度 in Chinese (precision), and
# seven dtype knobs by key (weight_, grad_, optimizer_, activation_, kv_, matmul_, token_dtype),
# of which training shows six (kv_dtype is inference's). Inside the tensor inspector `/`
# still opens its operation line.
. "$(dirname "$0")/lib.sh"

# the knob list's rows: the text between the pane's borders, under its title, above the
# rule over the focused knob's sentence
knob_rows() { screen | sed -n '2,$p' | sed '/┄┄/,$d' | sed -n 's/^│\([^│]*\)│.*/\1/p'; }
# rows_have REGEX WHAT / rows_lack REGEX WHAT: poll the knob rows until they hold (lack) a
# match; the title can be drawn before the rows under it when the explorer is slow (valgrind)
rows_have() {
	end=$(($(date +%s) + DEADLINE))
	until knob_rows | grep -Eq -- "$1"; do
		[ "$(date +%s)" -ge "$end" ] && fail "$2"
		sleep 0.05
	done
}
rows_lack() {
	end=$(($(date +%s) + DEADLINE))
	while knob_rows | grep -Eq -- "$1"; do
		[ "$(date +%s)" -ge "$end" ] && fail "$2"
		sleep 0.05
	done
}

start 80 24
wait_for '┌ Knobs ─' 'never drew'
screen | grep -q 'micro-batch' || fail 'the full list does not show micro-batch'
keys /
wait_for '/_' '/ did not open the filter line'
wait_for 'filter the knobs' 'the footer does not say what the line does'
keys -l zero
wait_for 'Knobs \(filter: 1 of [0-9]+\)' 'zero: the title does not count one match'
rows_have 'ZeRO  *1' 'zero: the ZeRO knob is not listed'
rows_lack 'micro-batch|heads|precision' 'zero: knobs that do not match are still listed'
keys Enter
wait_for 'Esc: all' 'Enter did not keep the filter'
# the focus is on ZeRO: its sentence shows, and → steps it
wait_for 'ZeRO stage: 1 shards' 'Enter did not focus the match'
keys Right
wait_for 'ZeRO  *2' '→ did not step the focused match'
keys Escape
wait_gone 'Knobs \(filter' 'Esc did not clear the filter'
end=$(($(date +%s) + DEADLINE))
until [ "$(knob_rows | grep -cv '^ *$')" -ge 10 ]; do
	[ "$(date +%s)" -ge "$end" ] && fail "Esc: only $(knob_rows | grep -cv '^ *$') knob rows back"
	sleep 0.05
done
# the arrows move in the filtered list: End is the last dtype knob of training, the token
# id dtype of the dataset file; Up from it is matmuls
keys /
keys -l dtype
wait_for 'Knobs \(filter: 6 of [0-9]+\)' 'dtype: not the six dtype knobs of training'
keys Enter
wait_for "weights' dtype" 'dtype: Enter did not focus the first match, weights'
keys Down
wait_for "gradients' dtype" 'Down did not move to the next match'
keys End
wait_for 'how the dataset file' 'End did not move to the last match'
keys Up
wait_for 'the dtype matmuls run in' 'Up did not move to the previous match'
# nothing matches: the pane says so, Enter keeps the line open
keys / C-u
keys -l qqq
wait_for 'no knob matches' 'no match: the pane does not say so'
keys Enter
wait_for "no knob matches 'qqq'" 'no match: Enter did not say why'
keys Escape
wait_gone 'Knobs \(filter'
# Chinese typed on the English screen: 精度 is the precision knob's Chinese label
keys /
keys -l 精度
wait_for 'Knobs \(filter: 1 of [0-9]+\)' '精度 on the English screen: not one match'
rows_have 'precision  *mixed-bf16' '精度 on the English screen: precision is not listed'
keys Escape
wait_gone 'Knobs \(filter'
# the tensor inspector keeps its own /
keys T
wait_for 'tensor' 'T did not open the tensor inspector'
keys /
wait_for 'op> ' '/ in the tensor inspector did not open its operation line'
keys Escape Escape
keys Q
[ "$(wait_exit)" = 0 ] || fail 'exit status'
stop

# in Chinese at 120×40
start 120 40 --lang zh
wait_for '┌ 设置 ─' 'zh: never drew'
keys /
keys -l 精度
wait_for '设置（筛选：1/[0-9]+）' 'zh: 精度 does not count one match'
rows_have '精度  *mixed-bf16' 'zh: 精度 is not listed'
rows_lack '权重|micro-batch|层 ' 'zh: knobs that do not match are still listed'
keys Enter
wait_for 'Esc：全部' 'zh: Enter did not keep the filter'
keys Escape
wait_gone '设置（筛选' 'zh: Esc did not clear the filter'
# English typed on the Chinese screen
keys /
keys -l zero
wait_for '设置（筛选：1/' 'zh: zero does not count one match'
rows_have 'ZeRO  *1' 'zh: zero does not list ZeRO'
keys Escape
keys q
[ "$(wait_exit)" = 0 ] || fail 'zh: exit status'
echo "ok: the knob filter"
