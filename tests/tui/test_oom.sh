#!/bin/sh
# An out-of-memory scenario says so: OVER in the header, by how much in the memory pane,
# and the engine's warning line.
. "$(dirname "$0")/lib.sh"
start 120 40 --batch 64
wait_for 'Memory per GPU' 'never drew'
wait_for 'OVER capacity by [0-9.]+ [KMGT]iB' 'no "over capacity by" in the memory pane'
screen | grep -q 'does not fit' || fail 'no warning line'
screen | head -1 | grep -q 'OVER' || fail 'the header does not say OVER'
keys q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: out of memory"
