#!/bin/sh
# Resizing re-lays out at once: 60×20 asks for a bigger terminal, 200×60 draws every pane,
# 80×24 is complete (panes take turns in one slot).
. "$(dirname "$0")/lib.sh"
start 120 40
wait_for 'Memory per GPU' 'never drew'
tm resize-window -t app -x 60 -y 20
wait_for 'make the terminal at least 80×24' 'no "too small" message at 60×20'
screen | grep -q '(now 60×20)' || fail 'the message does not give the size'
tm resize-window -t app -x 200 -y 60
wait_for 'Memory per GPU' 'nothing at 200×60'
for p in 'Compute and time' 'Roofline' 'Techniques' 'Data types' 'Knobs'; do
	screen | grep -q "$p" || fail "no $p at 200×60"
done
[ "$(screen | wc -l)" -eq 60 ] || fail 'not 60 lines'
tm resize-window -t app -x 80 -y 24
wait_for 'Tab: more panes' 'no shared slot at 80×24'
screen | grep -q 'Memory per GPU' || fail 'no memory pane at 80×24'
# complete at 80×24: the memory pane's lines say it all in fewer words, none cut short
for p in 'total +[0-9.]+ GiB \([0-9]+%\) ✓ fits, [0-9.]+ GiB free' '16 B/param: 2 weights\+2 grads\+4 master\+8 adamw' \
	'max micro-batch [0-9]+ · fewest GPUs [0-9]+' '\? help +q quit'; do
	screen | grep -Eq -- "$p" || fail "no '$p' at 80×24"
done
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: resize"
