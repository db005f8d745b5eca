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
wait_for '404.8/79.65 GiB' 'the own layout should not fit (404.8 GiB)'
keys P
wait_for "Plan: ranked by predicted time \\(g\\) · $searched searched, $fitting fit with 10% of the memory free" \
	"the view's search differs from napkin plan ($searched searched, $fitting fit)"
# napkin plan's text rows: the first is the fastest; the view's row 1 must be the same layout
# (napkin plan at a wide terminal's width shows every column, in the view's order)
first=$(COLUMNS=200 "$NAPKIN" plan --top 1 $ARGS | grep -E '^ +1 ' | awk '{print $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $13}')
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
wait_for '404.8/79.65 GiB' 'u did not undo the plan row'
keys P
wait_for 'Plan: ranked by predicted time' 'P did not reopen'
keys g
wait_for 'Plan: ranked by gpu-hours' 'g did not switch the goal'
# fewest GPUs under a deadline typed in days: the same search as napkin plan --deadline
keys g g
wait_for 'Plan: ranked by gpus' 'g did not reach the fewest-GPUs goal'
read -r within band <<EOF2
$("$NAPKIN" plan --format json --goal gpus --deadline 90 $ARGS | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["within_deadline"], d["within_band"])')
EOF2
keys D
wait_for 'deadline in days: _' 'D did not start typing the deadline'
keys 9 0 Enter
# the rows within it as predicted, beside those at the step band's slow end (napkin plan --sure's)
wait_for "deadline \(D, - \+\): 90 days · rows: the $within within it \(b: the $band at the band's slow end" \
	"the view's deadline search differs from napkin plan --deadline 90 ($within within, $band at the slow end)"
first=$(COLUMNS=200 "$NAPKIN" plan --top 1 --goal gpus --deadline 90 $ARGS | grep -E '^ +1 ' | awk '{print $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $13}')
vrow=$(line_of '^ +1 +[0-9]+ ' | awk '{print $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $13}')
[ -n "$first" ] && [ "$first" = "$vrow" ] || fail "deadline row 1: view '$vrow', napkin plan '$first'"
# b holds the deadline at the slow end, as napkin plan --sure: its counts (the search of the
# fewest GPUs goes further) and its row 1
read -r within2 band2 <<EOF2
$("$NAPKIN" plan --format json --goal gpus --deadline 90 --sure $ARGS | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(d["within_deadline"], d["within_band"])')
EOF2
keys b
wait_for "rows: the $band2 at the band's slow end, ±[0-9]+% \\(b: the $within2 as predicted\\)" \
	'b did not hold the deadline at the slow end as napkin plan --sure does'
sure=$(COLUMNS=200 "$NAPKIN" plan --top 1 --goal gpus --deadline 90 --sure $ARGS | grep -E '^ +1 ' | awk '{print $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $13}')
vrow=$(line_of '^ +1 +[0-9]+ ' | awk '{print $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $13}')
[ -n "$sure" ] && [ "$sure" = "$vrow" ] || fail "slow-end row 1: view '$vrow', napkin plan --sure '$sure'"
keys b
wait_for "rows: the $within within it" 'b did not switch back to the prediction'
keys +
wait_for 'deadline \(D, - \+\): 180 days' '+ did not step the deadline'
keys Enter
wait_for 'applied plan row 1' 'Enter did not apply the deadline row'
keys u
wait_for 'undid plan row 1' 'u did not undo the deadline row'
keys Home
wait_gone 'undid plan row 1' 'the undo message stayed'
tm resize-window -t app -x 80 -y 24
wait_for 'Plan: ranked by gpus' 'lost the plan at 80x24'
wait_for 'deadline \(D, - \+\): 180 days' 'lost the deadline at 80x24'
wait_for 'Row 1, one optimizer step' 'no breakdown at 80x24'
wait_for 'Esc close' 'no footer at 80x24'
keys Escape
wait_for 'micro-batch' 'Esc did not return to the main screen'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: plan ($searched searched, $fitting fit; row 3 applied and undone)"
