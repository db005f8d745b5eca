#!/bin/sh
# Text pasted into a value field: 10,000 characters on one line, UTF-8, control characters,
# several lines (each line ends in Enter, as a terminal sends it). The field takes what it
# can, the value is refused with a message, the old value stays, nothing crashes.
# (napkin does not ask for bracketed paste, so a pasted newline is an Enter.)
. "$(dirname "$0")/../tui/lib.sh"
start 120 40
wait_for '│ micro-batch +[0-9,]+ ' 'never drew'
before=$(screen | grep -Eo '│ micro-batch +[0-9,]+ ' | head -n1)
# one long line
keys Enter
wait_for '^│ *> ' 'no prompt'
long=$(printf '%10000s' '' | tr ' ' '7')
tm set-buffer -b paste "$long"
tm paste-buffer -b paste -t app
sleep 0.3
[ "$(tm display-message -p -t app '#{pane_dead}')" = 0 ] || fail "died on a 10,000-character paste"
keys Enter
wait_for 'batch: ' 'no refusal after a 10,000-character paste'
screen | grep -Fq "$before" || fail 'the old value was not kept'
# UTF-8, tabs, escapes and control characters in the field
keys Enter
wait_for '^│ *> ' 'no prompt'
tm set-buffer -b paste "$(printf '8\tΩ∞\033[2J\001\002 日本語 é')"
tm paste-buffer -b paste -t app
sleep 0.3
keys Enter
sleep 0.3
keys Escape Escape
sleep 0.3
screen | grep -Fq "$before" || fail 'the old value was not kept after a pasted control sequence'
# several lines: without bracketed paste a newline is Enter, so the first line is a value
# (refused) and the rest are keys on the main screen (here: m opens the model picker)
keys Enter
wait_for '^│ *> ' 'no prompt'
tm set-buffer -b paste "$(printf 'lots\nmore\n16\n')"
tm paste-buffer -b paste -t app
sleep 0.5
[ "$(tm display-message -p -t app '#{pane_dead}')" = 0 ] || fail "died on a pasted text of several lines"
keys Escape Escape Escape
wait_for 'Memory per GPU' 'no main screen after a pasted text of several lines'
# a good value pasted goes in
keys Enter
wait_for '^│ *> ' 'no prompt'
keys C-u
tm set-buffer -b paste "16"
tm paste-buffer -b paste -t app
keys Enter
wait_for '│ micro-batch +16 ' 'a pasted good value was not taken'
[ "$(tm display-message -p -t app '#{pane_dead}')" = 0 ] || fail "died on a pasted text"
keys Escape Q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: pasted text"
