#!/bin/sh
# q exits 0 and leaves the terminal usable (cooked mode, echo on); Ctrl-C exits 130 (as
# shells expect of an interrupt) with the terminal restored; SIGTERM too, with 143.
. "$(dirname "$0")/lib.sh"
st="$TUI_TMP/stty"
tm set-option -g remain-on-exit on \; new-session -d -s app -x 100 -y 30 \
	"sh -c '$NAPKIN explore; echo \"rc=\$?\" > $st.rc; stty -a > $st'"
wait_for 'Memory per GPU' 'never drew'
keys q
[ "$(wait_exit)" = 0 ] || fail 'the wrapper did not exit 0'
grep -q 'rc=0' "$st.rc" || fail "q: $(cat "$st.rc")"
grep -Eq '(^| )icanon' "$st" || fail 'terminal left in raw mode'
grep -Eq '(^| )echo( |$)' "$st" || fail 'terminal left without echo'
stop
rm -f "$st" "$st.rc"

# Ctrl-C: read as a key in raw mode, it leaves like q but with status 130
tm set-option -g remain-on-exit on \; new-session -d -s app -x 100 -y 30 \
	"sh -c '$NAPKIN explore; echo \"rc=\$?\" > $st.rc; stty -a > $st'"
wait_for 'Memory per GPU' 'never drew'
keys C-c
wait_exit >/dev/null
grep -q 'rc=130' "$st.rc" || fail "Ctrl-C: $(cat "$st.rc" 2>/dev/null)"
grep -Eq '(^| )icanon' "$st" || fail 'Ctrl-C left the terminal in raw mode'
grep -Eq '(^| )echo( |$)' "$st" || fail 'Ctrl-C left the terminal without echo'
stop
rm -f "$st" "$st.rc"

# SIGTERM: the terminal is restored and the status tells of the signal
tm set-option -g remain-on-exit on \; new-session -d -s app -x 100 -y 30 \
	"sh -c 'echo \$\$ > $st.pid; $NAPKIN explore; echo \"rc=\$?\" > $st.rc; stty -a > $st'"
wait_for 'Memory per GPU' 'never drew'
kill -TERM "$(pgrep -P "$(cat "$st.pid")")" || fail 'no explorer process to signal'
wait_exit >/dev/null
grep -q 'rc=143' "$st.rc" || fail "SIGTERM: $(cat "$st.rc" 2>/dev/null)"
grep -Eq '(^| )icanon' "$st" || fail 'SIGTERM left the terminal in raw mode'
echo "ok: quit"
