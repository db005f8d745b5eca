#!/bin/sh
# The plan view (P): the planner's rows agree with `napkin plan` (the same search, the
# same first row), ↓ Enter applies a row to the scenario (the header then shows its memory
# and days), u undoes it, g switches the goal, and the view holds at 80x24.
. "$(dirname "$0")/lib.sh"

ARGS="--model llama-2-70b --gpu h100-sxm --gpus 64"
plan() {
	"$NAPKIN" plan --format json --top 3 $ARGS | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["searched"], d["fitting"])'
}
set -- $(plan)
searched=$1 fitting=$2
start 100 30 $ARGS
wait_for 'micro-batch' 'no main screen'
wait_for '404.6/79.65 GiB' 'the own layout should not fit (404.6 GiB)'
keys P
wait_for "Plan: ranked by predicted time \\(g\\) · $searched searched, $fitting fit" \
	"the view's search differs from napkin plan ($searched searched, $fitting fit)"
# napkin plan's text rows: the first is the fastest; the view's row 1 must be the same layout
first=$("$NAPKIN" plan --top 1 $ARGS | grep -E '^ +1 ' | awk '{print $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $13}')
vrow=$(line_of '^ +1 +64 ' | awk '{print $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $13}')
[ -n "$first" ] && [ "$first" = "$vrow" ] || fail "row 1: view '$vrow', napkin plan '$first'"
wait_for '^you✗ ' 'the own layout is not marked as not fitting'
wait_for 'Row 1, one optimizer step' 'no step breakdown'
keys Down Down
wait_for 'Row 3, one optimizer step' 'Down did not move'
mem3=$(line_of '^ +3 +64 ' | awk '{print $13}')
keys Enter
wait_for "applied plan row 3" 'Enter did not apply'
wait_for "^ +3= " 'the applied row is not marked as the own layout'
keys Escape
wait_for "$mem3/79.65 GiB fits" "the main screen does not show row 3's memory ($mem3)"
keys u
wait_for '404.6/79.65 GiB' 'u did not undo the plan row'
keys P
wait_for 'Plan: ranked by predicted time' 'P did not reopen'
keys g
wait_for 'Plan: ranked by gpu-hours' 'g did not switch the goal'
tm resize-window -t app -x 80 -y 24
wait_for 'Plan: ranked by gpu-hours' 'lost the plan at 80x24'
wait_for 'Row 1, one optimizer step' 'no breakdown at 80x24'
wait_for 'Esc close' 'no footer at 80x24'
keys Escape
wait_for 'micro-batch' 'Esc did not return to the main screen'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: plan ($searched searched, $fitting fit; row 3 applied and undone)"
