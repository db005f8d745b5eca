#!/bin/sh
# Renders PNG screenshots of real runs of the explorer into screenshots/: the program in a
# private tmux server, shown by an xterm under Xvfb, captured with ImageMagick's import.
#
#   scripts/screenshots.sh [PATH/TO/napkin]      (default: build/napkin)
#
# Needs (Debian): apt-get install -y --no-install-recommends xvfb xterm imagemagick \
#   x11-utils xdotool tmux fonts-dejavu-core
# Not part of CI. Look at every picture before committing it.
set -eu

NAPKIN=${1:-build/napkin}
case $NAPKIN in /*) ;; *) NAPKIN=$(pwd)/$NAPKIN ;; esac
OUT=$(pwd)/screenshots
for tool in Xvfb xterm xdotool tmux /usr/bin/import; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "screenshots.sh: $tool is missing; apt-get install xvfb xterm imagemagick x11-utils xdotool tmux" >&2
		exit 1
	}
done
[ -x "$NAPKIN" ] || { echo "screenshots.sh: no napkin binary at $NAPKIN" >&2; exit 1; }
mkdir -p "$OUT"

SOCK=napkin-shots-$$
DISP=:$((90 + $$ % 9))
export LC_ALL=C.UTF-8 LANG=C.UTF-8
unset NO_COLOR TMUX
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
XPID= XTPID=
cleanup() {
	[ -n "$XTPID" ] && kill "$XTPID" 2>/dev/null || true
	tm kill-server 2>/dev/null || true
	rm -f "/tmp/tmux-$(id -u)/$SOCK"
	[ -n "$XPID" ] && kill "$XPID" 2>/dev/null || true
}
trap cleanup EXIT INT TERM

Xvfb "$DISP" -screen 0 1920x1200x24 -nolisten tcp >/dev/null 2>&1 &
XPID=$!
sleep 1

wait_for() {
	i=0
	until tm capture-pane -p -t app 2>/dev/null | grep -Eq -- "$1"; do
		i=$((i + 1))
		[ $i -gt 200 ] && { echo "screenshots.sh: never saw '$1'" >&2; tm capture-pane -p -t app >&2; exit 1; }
		sleep 0.05
	done
}

# shot NAME COLS ROWS READY KEYS ARGS: run napkin explore ARGS, press KEYS, capture
shot() {
	name=$1 cols=$2 rows=$3 ready=$4 keys=$5
	shift 5
	SOCK=napkin-shots-$$-$name
	tm set-option -g status off \; set-option -g remain-on-exit on \; \
		new-session -d -s app -x "$cols" -y "$rows" "$NAPKIN explore $*"
	wait_for "$ready"
	DISPLAY=$DISP xterm -geometry "${cols}x${rows}+0+0" -fa 'DejaVu Sans Mono' -fs 11 \
		-xrm 'XTerm*forceBoxChars: false' -bg black -fg grey90 +sb -b 4 -T napkin-shot \
		-e tmux -L "$SOCK" -f /dev/null attach -t app &
	XTPID=$!
	i=0
	until DISPLAY=$DISP xdotool search --name '^napkin-shot$' >/dev/null 2>&1; do
		i=$((i + 1)); [ $i -gt 100 ] && { echo "no xterm window" >&2; exit 1; }
		sleep 0.1
	done
	sleep 0.8
	for k in $keys; do
		tm send-keys -t app "$k"
		sleep 0.15
	done
	sleep 2 # past the change highlight, unless the keys are the point
	win=$(DISPLAY=$DISP xdotool search --name '^napkin-shot$' | head -1)
	DISPLAY=$DISP /usr/bin/import -window "$win" "$OUT/$name.png"
	kill "$XTPID" 2>/dev/null || true
	XTPID=
	tm kill-server 2>/dev/null || true
	rm -f "/tmp/tmux-$(id -u)/$SOCK"
	echo "screenshots/$name.png"
}

# the default screen: Llama-2-7B on 8 × H100, training
shot explorer 120 40 'Memory per GPU' ''
# out of memory: a 70B model on 8 GPUs without sharding
shot out-of-memory 120 40 'OVER' '' --params 70B --zero 0 --batch 2
# the roofline of a decode: inference at batch 1, the decode point focused
shot roofline-decode 120 40 'Roofline' 'Tab Tab Tab Tab Tab Tab Tab' --mode infer --batch 1
# the explain view: activations, formula with today's values
shot explain 120 40 'Memory per GPU' 'Tab Tab Tab Tab Down Down Down Down e'
# the projector theme, for a class
shot projector 120 40 'Memory per GPU' '' --theme projector
