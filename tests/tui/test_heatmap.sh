#!/bin/sh
# The heatmap (H): batch × seq, a cell's figure equals `napkin report` for those two knobs,
# the cells that do not fit are marked ✗, the arrows move the cursor, Enter applies the cell
# (the main screen then shows it), u undoes it, y and p switch, and it holds at 80x24.
. "$(dirname "$0")/lib.sh"

ARGS="--model llama-2-7b --gpu h100-sxm --gpus 8 --zero 3"
headroom() {
	"$NAPKIN" report --format json $ARGS "$@" | python3 -c '
import json, sys
b = json.load(sys.stdin)["memory"]["headroom"]
v = abs(b); u = ["B", "KiB", "MiB", "GiB", "TiB"]; i = 0
while v >= 1024 and i < 4: v /= 1024; i += 1
print(("-" if b < 0 else "") + ("%.*f %s" % (1 if v >= 100 else 2, v, u[i])))'
}

start 100 30 $ARGS
wait_for 'micro-batch' 'no main screen'
keys H
wait_for 'Heatmap: headroom per GPU, batch × seq' 'the heatmap did not open'
wait_for '✗' 'no cell marked as not fitting'
wait_for 'batch 1 × seq 4k: ' 'the cursor does not start on the own cell (batch 1, seq 4k)'
want=$(headroom --batch 1 --seq 4096)
wait_for "batch 1 × seq 4k: $want, fits" "own cell differs from napkin report ($want)"
keys Right Down
want=$(headroom --batch 2 --seq 8192)
wait_for "batch 2 × seq 8k: $want, does not fit" "cell batch 2 × seq 8k differs from napkin report ($want)"
keys Up Up
want=$(headroom --batch 2 --seq 2048)
wait_for "batch 2 × seq 2k: $want, fits" "cell batch 2 × seq 2k differs from napkin report ($want)"
keys Enter
wait_for 'applied batch 2, seq 2,048' 'Enter did not apply the cell'
keys Escape
wait_for 'micro-batch +2 ' 'the main screen does not show batch 2'
keys u
wait_for 'micro-batch +1 ' 'u did not undo the cell'
keys H
wait_for 'Heatmap: headroom' 'H did not reopen'
keys y
wait_for 'Heatmap: step time' 'y did not switch the result'
keys p
wait_for 'Heatmap: step time, tp × pp' 'p did not switch the knobs'
tm resize-window -t app -x 80 -y 24
wait_for 'Heatmap: step time, tp × pp' 'lost the heatmap at 80x24'
wait_for 'Esc close' 'no footer at 80x24'
keys Escape
wait_for 'micro-batch' 'Esc did not return'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: heatmap (cells agree with napkin report; applied and undone)"
