#!/bin/sh
# A typed bad value is refused with the engine's message, and the old value stays. The box
# stays open on what was typed, with the whole message under it (the footer's one line cut
# it at 120 columns in Chinese: "…（micro-batch 保…"), so the keys typed next fix the value
# instead of going to the main screen (the class trial, section 3).
. "$(dirname "$0")/lib.sh"
start 120 40
wait_for 'micro-batch +1 ' 'never drew'
keys Enter
wait_for '^│ *> ' 'no prompt'
keys C-u
keys -l 'lots'
keys Enter
wait_for 'batch: .*(allowed|accepted|a count)' 'no refusal message'
wait_for '^│ *> lots' 'the box did not stay open on what was typed'
screen | grep -Eq 'micro-batch +1 ' || fail 'the old value was not kept'
# the keys typed next edit the value: C-u, 8, Enter
keys C-u
keys -l '8'
keys Enter
wait_for 'micro-batch +8 ' 'a good value was not taken'
screen | grep -q '^│ *> ' && fail 'the box stayed open after a good value'
keys q
wait_for 'unsaved changes.*quit anyway' 'q asked nothing after a change'
keys y
[ "$(wait_exit)" = 0 ] || fail "exit status"
stop

# Chinese at 120 columns: the message whole, in the box
start 120 40 --lang zh
wait_for 'micro-batch +1 ' 'never drew (zh)'
keys Enter
wait_for '^│ *> ' 'no prompt (zh)'
keys C-u
keys -l 'abc'
keys Enter
wait_for '^│ *> abc' 'the box did not stay open (zh)'
# the message's end is on screen, whichever line it wraps to
screen | tr -d '\n│ ' | grep -q 'T=10^12）' || fail "the message is cut: $(screen | grep -A2 '> abc')"
keys Escape
wait_gone '^│ *> abc' 'Esc did not close the box'
screen | grep -Eq 'micro-batch +1 ' || fail 'the old value was not kept (zh)'
echo "ok: bad value refused, the box kept open on it with the whole message"
