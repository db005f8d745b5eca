#!/bin/sh
# The ops view (O): each op of one layer on one GPU, as napkin report --ops. The figures are
# worked by hand, not read from napkin: a linear layer of a token takes 2 × in × out FLOPs (a
# multiply and an add per weight, Kaplan et al. 2020, "Scaling Laws for Neural Language
# Models", section 2.1), its backward twice that (the data and the weight gradients). Llama-2-7B
# has hidden size 4096 (Touvron et al. 2023, table 1; its config.json), so q_proj (4096 × 4096)
# for the default micro-batch of 1 sequence of 4,096 tokens takes 2·4096·4096·4096 = 137.4 G
# forward and 274.9 G backward; at micro-batch 2, 274.9 G forward. In inference the prefill of
# a 512-token prompt takes 2·512·4096·4096 = 17.18 G, a decode step of 1 sequence
# 2·4096·4096 = 33.55 M. The view holds at 80x24, 120x40 and 200x50, and in Chinese (Z).
. "$(dirname "$0")/lib.sh"

# op_line NAME: the view's row of op NAME (the first on screen)
op_line() { line_of "^ $1 +[0-9]+ "; }

start 80 24
wait_for 'micro-batch' 'no main screen'
keys O
wait_for 'Ops of a layer per GPU \(tp 1\) · forward · 4,096 tokens · Tab: backward' 'O did not open the ops view'
for op in norms q_proj k_proj v_proj attention o_proj gate_proj up_proj down_proj lm_head; do
	wait_for "^ $op +[0-9]+ " "no row for $op"
done
op_line q_proj | grep -Eq '^ q_proj +32 +137\.4 G ' || fail "q_proj forward: '$(op_line q_proj)', want 32 layers, 137.4 G"
wait_for '^ total +[0-9.]+ T ' 'no total row'
wait_for '990T│' 'no roofline chart at 80x24'
wait_for 'ridge 295' 'no ridge on the chart'
wait_for 'Esc close' 'no footer at 80x24'
# the selected op is named beside its point: norms first, then q_proj
wait_for '●.*norms' 'the selected op (norms) is not named on the chart'
keys j
wait_for '●.*q_proj' 'j did not move the selection to q_proj'
keys Tab
wait_for '· backward · 4,096 tokens · Tab: forward' 'Tab did not switch to the backward'
op_line q_proj | grep -Eq '^ q_proj +32 +274\.9 G ' || fail "q_proj backward: '$(op_line q_proj)', want 274.9 G"
keys Tab
wait_for '· forward · 4,096 tokens' 'Tab did not switch back'
# a knob changes: the table follows (micro-batch 2: twice the tokens, twice the FLOPs)
keys +
wait_for '· forward · 8,192 tokens' '+ did not step the micro-batch'
op_line q_proj | grep -Eq '^ q_proj +32 +274\.9 G ' || fail "q_proj at micro-batch 2: '$(op_line q_proj)', want 274.9 G"
keys u
wait_for '· forward · 4,096 tokens' 'u did not undo the micro-batch'
op_line q_proj | grep -Eq '^ q_proj +32 +137\.4 G ' || fail "q_proj after undo: '$(op_line q_proj)'"
keys Home
wait_gone 'undid batch' 'the undo message stayed'
# the chart under the table where the screen is tall enough, beside it where it is short and wide
for size in "120 40" "200 50" "200 24"; do
	set -- $size
	tm resize-window -t app -x "$1" -y "$2"
	if [ "$2" -ge 40 ]; then
		wait_for '^ q_proj +32 +137\.4 G +[0-9.]+ MB +[0-9.]+ compute +[0-9.]+ µs$' "no table at $1x$2"
	else
		wait_for '^ q_proj +32 +137\.4 G .*│' "no table beside the chart at $1x$2"
	fi
	wait_for '^ total ' "no total at $1x$2"
	wait_for '990T│' "no chart at $1x$2"
	wait_for 'Esc close' "no footer at $1x$2"
done
tm resize-window -t app -x 80 -y 24
# inference: prefill and decode, from the main screen's mode switch
keys Escape
wait_for 'micro-batch' 'Esc did not return to the main screen'
keys t
wait_for 'KV cache' 't did not switch to inference'
keys O
wait_for '· prefill · 512 tokens · Tab: decode' 'the ops view does not show the prefill in inference'
op_line q_proj | grep -Eq '^ q_proj +32 +17\.18 G ' || fail "q_proj prefill: '$(op_line q_proj)', want 17.18 G"
keys Tab
wait_for '· decode · 1 token at context 768 · Tab: prefill' 'Tab did not switch to the decode'
op_line q_proj | grep -Eq '^ q_proj +32 +33\.55 M .*memory' || fail "q_proj decode: '$(op_line q_proj)', want 33.55 M, memory-bound"
# in Chinese: the heads and the phase translated, the columns still aligned
keys Escape Z
wait_for '中文|解码|训练|推理' 'Z did not switch to Chinese'
keys O
wait_for '每卡一层的算子（tp 1）· Prefill' 'the ops view header is not in Chinese'
wait_for '^ 算子 +层 +FLOPs +字节 ' 'the column heads are not in Chinese'
op_line q_proj | grep -Eq '^ q_proj +32 +17\.18 G +[0-9.]+ MB +[0-9.]+ 计算 ' || fail "q_proj in Chinese: '$(op_line q_proj)'"
keys Escape Q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: ops view (q_proj 137.4 G forward, 274.9 G backward, 17.18 G prefill, 33.55 M decode)"
