#!/bin/sh
# The compare view (C): a adds GPUs as columns through the picker, each column's figures
# equal `napkin report` with that GPU, the best of a row is marked ✓, the scenario keeps its
# own GPU (the pick is a column, not a change), d drops a column, and it holds at 80x24.
. "$(dirname "$0")/lib.sh"

ARGS="--model llama-2-7b --gpu h100-sxm --gpus 8"
# headroom GPU: napkin report's headroom per GPU with that GPU (a knob is given once)
headroom() {
	"$NAPKIN" report --format json --model llama-2-7b --gpus 8 --gpu "$1" 2>/dev/null | python3 -c '
import json, sys
b = json.load(sys.stdin)["memory"]["headroom"]
v = abs(b); u = ["B", "KiB", "MiB", "GiB", "TiB"]; i = 0
while v >= 1024 and i < 4: v /= 1024; i += 1
print(("-" if b < 0 else "") + ("%.*f %s" % (1 if v >= 100 else 2, v, u[i])))'
}
h100=$(headroom h100-sxm)
h200=$(headroom h200-sxm)
mi=$(headroom mi300x)
[ -n "$h100" ] && [ -n "$h200" ] && [ -n "$mi" ] || fail "napkin report gave no headroom ('$h100', '$h200', '$mi')"

start 100 30 $ARGS
wait_for 'micro-batch' 'no main screen'
keys C
wait_for 'Compare: Llama-2-7B on 8 × H100 SXM' 'the compare view did not open'
wait_for "headroom per GPU +$h100" "the first column's headroom is not napkin report's ($h100)"
keys a
wait_for 'filter:' 'the GPU picker did not open'
keys h200-sxm  # h200 alone picks h200-nvl, first of the two
sleep 0.3
keys Enter
wait_for 'H100 SXM +H200 SXM' 'H200 was not added as a column'
keys a
sleep 0.3
keys mi300x
sleep 0.3
keys Enter
wait_for 'H200 SXM +Instinct MI300X' 'MI300X was not added'
line=$(line_of 'headroom per GPU')
case $line in *"$h100"*"$h200"*"$mi"*) ;; *) fail "headroom row '$line', napkin report: $h100 | $h200 | $mi" ;; esac
case $line in *"$mi +"*"% ✓"*) ;; *) fail "the largest headroom (MI300X, $mi) is not marked best: '$line'" ;; esac
keys d
wait_gone 'H200 SXM +Instinct MI300X' 'd did not drop the last column'
tm resize-window -t app -x 80 -y 24
wait_for 'H100 SXM +H200 SXM' 'lost the columns at 80x24'
wait_for 'decode tokens/s' 'rows cut at 80x24'
keys Escape
wait_for '8 × H100 SXM' 'the pick changed the scenario (it should only add a column)'
# any knob's values as columns: k picks the knob (tp), a adds its next notches; each
# column's headroom is napkin report's with that --tp
hr_tp() {
	"$NAPKIN" report --format json $ARGS --tp "$1" 2>/dev/null | python3 -c '
import json, sys
b = json.load(sys.stdin)["memory"]["headroom"]
v = abs(b); u = ["B", "KiB", "MiB", "GiB", "TiB"]; i = 0
while v >= 1024 and i < 4: v /= 1024; i += 1
print(("-" if b < 0 else "") + ("%.*f %s" % (1 if v >= 100 else 2, v, u[i])))'
}
tp2=$(hr_tp 2)
tp4=$(hr_tp 4)
tm resize-window -t app -x 100 -y 30
keys C
wait_for 'columns \(k K\): gpu' 'the compare view did not reopen on GPUs'
press_until 'columns (k K): tp ' k 'k never reached the tp knob'
keys a
wait_for ' tp 1 +tp 2' 'a did not add tp 2'
keys a
wait_for ' tp 2 +tp 4' 'a did not add tp 4'
line=$(line_of 'headroom per GPU')
case $line in *"$h100"*"$tp2"*"$tp4"*) ;; *) fail "tp headroom row '$line', napkin report: $h100 | $tp2 | $tp4" ;; esac
case $line in *"$tp4 +"*"% ✓"*) ;; *) fail "the largest headroom (tp 4, $tp4) is not marked best: '$line'" ;; esac
tm resize-window -t app -x 80 -y 24
wait_for ' tp 1 +tp 2' 'lost the tp columns at 80x24'
keys Escape
wait_for 'micro-batch' 'Esc did not leave the compare view'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: compare ($h100 | $h200 | $mi)"
