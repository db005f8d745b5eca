#!/bin/sh
# LANG=zh_CN.UTF-8 on a machine where that locale was never generated (containers, WSL,
# minimal Debian images): setlocale() fails for it, yet the explorer keeps the language it
# asks for (Chinese) and, since the charset it names is UTF-8, draws with UTF-8 (C.UTF-8):
# Chinese text, box-drawing borders and block characters, not '?' and '+---'. The same under
# LC_ALL=zh_CN.UTF-8 and for napkin lesson. A charset that is not UTF-8 keeps ASCII.
. "$(dirname "$0")/lib.sh"

if locale -a 2>/dev/null | grep -qiE '^zh_CN\.utf-?8$'; then
	echo "note: zh_CN.UTF-8 is generated here; the fallback itself is not exercised"
fi

# start_env W H ENV... -- ARGS: napkin with exactly these locale variables (the tmux server
# runs under C.UTF-8, as a UTF-8 terminal would)
start_env() {
	w=$1 h=$2
	shift 2
	envs=
	while [ "$1" != -- ]; do
		envs="$envs $1"
		shift
	done
	shift
	tm set-option -g remain-on-exit on \; set-option -g history-limit 2000 \; \
		new-session -d -s app -x "$w" -y "$h" \
		"env -u LC_ALL -u LC_CTYPE -u LC_MESSAGES -u LANGUAGE -u LANG $envs $NAPKIN $*" ||
		fail "tmux did not start"
}

check_drawn() {
	wait_for '每张 GPU 的显存' "$1: the explorer is not in Chinese"
	screen | grep -q '[┌─│└]' || fail "$1: no box-drawing borders"
	screen | grep -q '+--' && fail "$1: ASCII borders"
	screen | grep -q '?  ' && fail "$1: characters drawn as '?'"
	keys q
	[ "$(wait_exit)" = 0 ] || fail "$1: exit status"
	stop
}

start_env 120 40 LANG=zh_CN.UTF-8 -- explore
check_drawn 'LANG=zh_CN.UTF-8'
start_env 120 40 LC_ALL=zh_CN.UTF-8 -- explore
check_drawn 'LC_ALL=zh_CN.UTF-8'
start_env 120 40 LANG=zh_CN.utf8 -- explore
check_drawn 'LANG=zh_CN.utf8'

# napkin lesson: the lesson panel too
start_env 120 40 LANG=zh_CN.UTF-8 -- lesson 1
wait_for '第 1 课：为什么需要资源核算' 'LANG=zh_CN.UTF-8 napkin lesson 1 is not in Chinese'
screen | grep -q '[┌─│└]' || fail 'lesson: no box-drawing borders'
keys q
stop

# a charset that is not UTF-8 (and not generated): ASCII, as before, in English words
start_env 120 40 LANG=en_US.ISO-8859-1 -- explore
wait_for 'Memory per GPU' 'LANG=en_US.ISO-8859-1: the explorer did not draw'
screen | grep -q '[┌─│└]' && fail 'LANG=en_US.ISO-8859-1: UTF-8 borders on a Latin-1 terminal'
keys q
stop
echo "ok: LANG=zh_CN.UTF-8 without that locale draws Chinese with UTF-8 borders"
