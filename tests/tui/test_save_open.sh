#!/bin/sh
# s saves the scenario (YAML, atomic), o opens one: the knobs come back.
. "$(dirname "$0")/lib.sh"
f="$TUI_TMP/scenario.yaml"
start 120 40 --batch 8
wait_for 'micro-batch +8 ' 'never drew'
keys s
wait_for 'save the scenario' 'no save prompt'
keys C-u
keys -l "$f"
keys Enter
wait_for "saved $f" 'no "saved" message'
grep -q '^batch: 8' "$f" || fail "the file lacks batch: 8: $(cat "$f")"
keys Right
wait_for 'micro-batch +16 '
keys o
wait_for 'open a file' 'no open prompt'
keys C-u
keys -l "$f"
keys Enter
wait_for "opened $f" 'no "opened" message'
wait_for 'micro-batch +8 ' 'the opened scenario did not come back'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: save and open"
