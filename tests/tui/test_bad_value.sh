#!/bin/sh
# A typed bad value is refused with the engine's message, and the old value stays.
. "$(dirname "$0")/lib.sh"
start 120 40
wait_for 'micro-batch +1 ' 'never drew'
keys Enter
wait_for '^│ *> ' 'no prompt'
keys C-u
keys -l 'lots'
keys Enter
wait_for 'batch: .*(allowed|accepted|a count)' 'no refusal message in the footer'
screen | grep -Eq 'micro-batch +1 ' || fail 'the old value was not kept'
# a good value with a suffix goes in
keys Enter
wait_for '^│ *> '
keys C-u
keys -l '8'
keys Enter
wait_for 'micro-batch +8 ' 'a good value was not taken'
keys q
wait_for 'unsaved changes.*quit anyway' 'q asked nothing after a change'
keys y
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: bad value refused"
