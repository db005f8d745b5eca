#!/bin/sh
# Inference shows what inference has: no training-step point on the roofline (nor its
# legend row), no master, gradient or optimizer rows in the memory legend, and the memory
# solve named for what it is, the most sequences served at once (the same number the
# compute pane gives as its capacity). t back to training brings them all back.
. "$(dirname "$0")/lib.sh"
for size in "160 48" "120 40" "80 24"; do
	w=${size% *} h=${size#* }
	stop
	start "$w" "$h" --mode infer
	wait_for 'Memory per GPU' "$size: never drew"
	# the roofline shares its slot with the compute pane at 80×24
	[ "$w" -ge 120 ] && wait_for 'P prefill ' "$size: no prefill point in the legend"
	screen | grep -Eq 'T training step|T train' && fail "$size: inference shows a training-step point"
	screen | grep -Eq '░ optimizer|▒ gradients|▓ master' && fail "$size: inference lists training-only memory"
	screen | grep -Eq '(largest|max) micro-batch' && fail "$size: inference calls its solve a micro-batch"
	if screen | grep -q 'most concurrent sequences'; then
		most=$(line_of 'most concurrent sequences' | sed 's/.*most concurrent sequences \([0-9,]*\).*/\1/')
		cap=$(line_of 'capacity +[0-9,]+ sequences' | sed 's/.*capacity \{1,\}\([0-9,]*\) sequences.*/\1/')
		[ -n "$most" ] && [ "$most" = "$cap" ] || fail "$size: most concurrent sequences '$most', capacity '$cap'"
	else
		wait_for 'max sequences +[0-9]' "$size: no max sequences"
	fi
	keys t
	wait_for '· train' "$size: t did not switch to training"
	[ "$w" -ge 120 ] && wait_for 'T training step' "$size: training lost its point"
	screen | grep -q '░ optimizer' || fail "$size: training lost its optimizer row"
	screen | grep -Eq '(largest|max) micro-batch' || fail "$size: training lost its micro-batch"
	keys t
	wait_gone 'T training step|░ optimizer' "$size: training's rows stayed in inference"
done
echo "ok: inference rows"
