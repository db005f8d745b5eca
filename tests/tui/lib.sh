# Helpers for the explorer's end-to-end tests: the real binary in a private tmux server at a
# fixed size (a unique socket, LC_ALL=C.UTF-8, remain-on-exit set with new-session), screens
# polled every 50 ms against generous deadlines, the screen printed on failure, the server
# and its socket removed on the way out. Sourced by test_*.sh with the napkin binary as $1.

NAPKIN=${1:?usage: $0 PATH/TO/napkin}
case $NAPKIN in /*) ;; *) NAPKIN=$(pwd)/$NAPKIN ;; esac
SOCK=napkin-tui-$$-$(date +%s)
DEADLINE=${NAPKIN_TUI_DEADLINE:-20}
export LC_ALL=C.UTF-8 LANG=C.UTF-8
unset NO_COLOR TMUX

# tm ARGS: tmux on this test's server. kill-server also waits for the server to be gone: a
# client that came while it was dying would meet "server exited unexpectedly".
tm() {
	if [ "${1:-}" = kill-server ]; then
		_pid=$(tmux -L "$SOCK" -f /dev/null display-message -p '#{pid}' 2>/dev/null)
		tmux -L "$SOCK" -f /dev/null kill-server
		_rc=$?
		_n=0
		while [ -n "$_pid" ] && [ -d "/proc/$_pid" ] && ! grep -q '^State:.*Z' "/proc/$_pid/status" 2>/dev/null &&
			[ $_n -lt 200 ]; do
			sleep 0.05
			_n=$((_n + 1))
		done
		return $_rc
	fi
	tmux -L "$SOCK" -f /dev/null "$@"
}

cleanup() {
	tm kill-server 2>/dev/null
	rm -f "/tmp/tmux-$(id -u)/$SOCK"
	[ -n "${TUI_TMP:-}" ] && rm -rf "$TUI_TMP"
}
trap cleanup EXIT INT TERM

TUI_TMP=$(mktemp -d)

# stop: kills the server and waits until it is gone, so that the next session does not
# meet a server still shutting down on the same socket ("server exited unexpectedly")
stop() {
	tm kill-server 2>/dev/null
	_end=$(($(date +%s) + DEADLINE))
	while tm list-sessions >/dev/null 2>&1 || [ -S "/tmp/tmux-$(id -u)/$SOCK" ]; do
		[ "$(date +%s)" -ge "$_end" ] && break
		rm -f "/tmp/tmux-$(id -u)/$SOCK" 2>/dev/null
		sleep 0.05
	done
}

# start W H ARGS...: the explorer in a new session
start() {
	w=$1 h=$2
	shift 2
	tm set-option -g remain-on-exit on \; set-option -g history-limit 2000 \; \
		new-session -d -s app -x "$w" -y "$h" "$NAPKIN explore $*" || fail "tmux did not start"
}

# start_lesson W H ARGS...: `napkin lesson ARGS` in a new session
start_lesson() {
	w=$1 h=$2
	shift 2
	tm set-option -g remain-on-exit on \; set-option -g history-limit 2000 \; \
		new-session -d -s app -x "$w" -y "$h" "$NAPKIN lesson $*" || fail "tmux did not start"
}

screen() { tm capture-pane -p -t app 2>/dev/null; }

# the pane's whole history: what napkin printed after the explorer left the screen
hist() { tm capture-pane -p -S - -t app 2>/dev/null; }

# hist_has FIXED: polls the history until it holds FIXED (a pane can be marked dead before
# tmux has read the last lines its program wrote); false when the deadline passes
hist_has() {
	_end=$(($(date +%s) + DEADLINE))
	until hist | grep -qF -- "$1"; do
		[ "$(date +%s)" -ge "$_end" ] && return 1
		sleep 0.05
	done
}

fail() {
	echo "FAIL: $*"
	echo "----- screen -----"
	tm capture-pane -p -S - -t app 2>/dev/null
	echo "------------------"
	exit 1
}

# wait_for REGEX [WHAT]: polls the screen until it matches, then until the frame is whole
# (two captures 50 ms apart agree: a slow program, under valgrind say, draws in pieces)
wait_for() {
	end=$(($(date +%s) + DEADLINE))
	while :; do
		screen | grep -Eq -- "$1" && break
		[ "$(date +%s)" -ge "$end" ] && fail "${2:-never saw /$1/}"
		sleep 0.05
	done
	_prev=$(screen)
	while :; do
		sleep 0.05
		_cur=$(screen)
		[ "$_cur" = "$_prev" ] && return 0
		[ "$(date +%s)" -ge "$end" ] && return 0
		_prev=$_cur
	done
}

# wait_gone REGEX: polls until the screen no longer matches
wait_gone() {
	end=$(($(date +%s) + DEADLINE))
	while :; do
		screen | grep -Eq -- "$1" || return 0
		[ "$(date +%s)" -ge "$end" ] && fail "${2:-/$1/ never went away}"
		sleep 0.05
	done
}

keys() { tm send-keys -t app "$@"; }

# wait_exit: until the pane is dead; prints its exit status
wait_exit() {
	end=$(($(date +%s) + DEADLINE))
	while :; do
		_st=$(tm display-message -p -t app '#{pane_dead} #{pane_dead_status}' 2>/dev/null)
		case $_st in
		"1 "[0-9]*) echo "${_st#1 }"; return 0 ;;
		"1"*) kill -CHLD "$(tm display-message -p '#{pid}')" 2>/dev/null ;; # tmux 3.3a may miss SIGCHLD
		esac
		[ "$(date +%s)" -ge "$end" ] && fail "the explorer did not exit"
		sleep 0.05
	done
}

# the text of the screen line that holds REGEX
line_of() { screen | grep -E -m1 -- "$1"; }

# press_until PATTERN KEY WHY: presses KEY until the screen has PATTERN (a fixed string), at
# most 60 times, and fails with WHY if it never does
press_until() {
	_n=0
	while ! screen | grep -qF -- "$1"; do
		_n=$((_n + 1))
		[ "$_n" -le 60 ] || { fail "$3"; return 1; }
		keys "$2"
		sleep 0.1
	done
}
