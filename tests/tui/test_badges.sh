#!/bin/sh
# The baseline's badges (c pins the scenario; every result then shows its difference) sit
# right beside the figure they compare and are never cut: at 80x24, 120x40 and 200x60, in
# training (the step time, the memory total) and in inference (decode per token and
# tokens/s, which had none). The loop row, which shows no figure of its own result (the
# optimizer steps), has none.
. "$(dirname "$0")/lib.sh"

# no badge anywhere on screen is cut with '…' (a sign, digits, '…')
uncut() {
	screen | grep -Eq -- '(^|[ (])[+-][0-9][0-9.,]*…' && fail "$1: a badge is cut"
	return 0
}

for size in "80 24" "120 40" "200 60"; do
	set -- $size
	# training: batch 1 -> 4 against the pinned baseline
	start "$1" "$2"
	wait_for 'Memory per GPU' "$size: never drew"
	keys c
	wait_for 'baseline pinned|\[base' "$size: c did not pin"
	keys Right Right
	wait_for 'micro-batch +4 ' "$size: batch did not step to 4"
	wait_for 'total +[0-9.]+ GiB \+[0-9.]+ GiB' "$size: the total's badge is not beside the total"
	# (batch 4 runs each GEMM 4× larger: the predicted step grows a little less than 4×)
	wait_for 'step +[0-9.]+ s \+2[0-9][0-9](\.[0-9])?%' "$size: the step time's badge is not beside the step time"
	line_of 'loop ' | grep -q '%' && fail "$size: the loop row has a badge: $(line_of 'loop ')"
	uncut "$size train"
	keys Q
	wait_exit >/dev/null
	stop

	# inference: batch 1 -> 4
	start "$1" "$2" --mode infer
	wait_for 'Memory per GPU' "$size: never drew (infer)"
	keys c Right Right
	wait_for 'micro-batch +4 |prefill +[0-9.]+ ms \+300' "$size: batch did not step to 4 (infer)"
	wait_for 'decode +[0-9.]+ ms \+[0-9.]+% per (token|step)' "$size: decode per step has no badge beside it"
	wait_for 'tokens/s +[0-9,]+ \+[0-9.]+%' "$size: tokens/s has no badge beside it"
	uncut "$size infer"
	keys Q
	wait_exit >/dev/null
	stop
done
echo "ok: badges"
