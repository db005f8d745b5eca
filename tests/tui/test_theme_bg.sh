#!/bin/sh
# The default theme suits the terminal's background: a terminal that says its background
# is white (OSC 11; tmux does when the pane's style sets it) gets the light theme, with a
# one-line note; one that says nothing gets the dark theme, whose colours read on both; an
# explicit --theme is kept; and a terminal that answers no query at all never hangs the
# explorer (it draws within the deadline and q still quits with 0).
. "$(dirname "$0")/lib.sh"
header() { tm capture-pane -p -e -t app | head -1; }

# white background, said: the light theme (white on blue header)
tm set-option -g remain-on-exit on \; set-option -wg window-style 'bg=#ffffff,fg=#000000' \; \
	new-session -d -s app -x 120 -y 40 "$NAPKIN explore" || fail "tmux did not start"
wait_for 'Memory per GPU' 'never drew on a white terminal'
wait_for 'a light terminal background: the light theme' 'no note that the light theme was picked'
header | grep -q '44m' || fail "not the light theme's header: $(header | od -c | head -2)"
keys q
wait_exit >/dev/null
stop
# white background, --theme dark: kept
tm set-option -g remain-on-exit on \; set-option -wg window-style 'bg=#ffffff,fg=#000000' \; \
	new-session -d -s app -x 120 -y 40 "$NAPKIN explore --theme dark" || fail "tmux did not start"
wait_for 'Memory per GPU'
header | grep -q '46m' || fail '--theme dark was not kept on a white terminal'
screen | grep -q 'light theme' && fail 'an explicit --theme was overridden'
keys q
wait_exit >/dev/null
stop
# a background not said (tmux answers the DA1 query only): the dark theme, no note
tm set-option -g remain-on-exit on \; new-session -d -s app -x 120 -y 40 "$NAPKIN explore" || fail "tmux did not start"
wait_for 'Memory per GPU'
header | grep -q '46m' || fail 'not the dark theme when the background is not said'
screen | grep -q 'light theme' && fail 'a note without an answer'
keys q
[ "$(wait_exit)" = 0 ] || fail 'exit status'
stop
# a terminal that answers nothing at all
if command -v python3 >/dev/null 2>&1; then
	python3 "$(dirname "$0")/silent_term.py" "$NAPKIN" explore || exit 1
else
	echo "(python3 not found: the silent terminal is not tried)"
fi
echo "ok: theme by background"
