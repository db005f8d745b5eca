#!/bin/sh
# Renders PNG screenshots of real runs of the explorer into screenshots/: the program in a
# private tmux server, shown by an xterm under Xvfb, captured with ImageMagick's import.
#
#   scripts/screenshots.sh [-n PATH/TO/napkin] [-l] [NAME...]
#     -n   the binary (default: build/napkin)
#     -l   list the shots and what each shows, then exit
#     NAME only these shots (default: all of them)
#
# Needs the packages of group `shots` in scripts/packages.txt: ./scripts/deps.sh shots
# (xvfb, xterm, imagemagick, x11-utils, xdotool, DejaVu Sans Mono, Noto Sans Mono CJK SC
# for the Chinese shots). Not part of CI. Look at every picture before committing it.
#
# Deterministic: a fixed terminal size and font, a fixed scenario per shot, an empty HOME and
# working directory (no user presets, no measured GPU profiles), no GPU libraries (the probe
# is never started), and no blind sleeps: after each key the script waits until the screen
# stops changing, before the capture until it has not changed for longer than the explorer's
# change highlight (TUI_HL_MS, 1.5 s), and it captures the window until two captures agree.
set -eu

usage() { echo "usage: scripts/screenshots.sh [-n PATH/TO/napkin] [-l] [NAME...]" >&2; exit 2; }

# The shots, one a line: NAME|COLS|ROWS|READY|KEYS|COMMAND|WHAT
#   READY   an extended regex the screen shows once the program is up
#   KEYS    space-separated: a tmux key name (Tab, Enter, Escape, S, ...), `=TEXT` typed as is,
#           `~REGEX` wait until the screen matches REGEX (no spaces: write `.` for one),
#           `@TITLE` press Tab until the pane whose title starts with TITLE has the focus
#   COMMAND napkin's arguments (each shot names its scenario in full)
SHOTS='explorer|120|40|Memory per GPU||explore|the default screen: Llama-2-7B on 8 × H100 SXM, training
out-of-memory|120|40|OVER||explore --params 70B --zero 0 --batch 2|out of memory: a 70B model on 8 GPUs without sharding
roofline-decode|120|40|Roofline|@Roofline|explore --mode infer --batch 1|the roofline of a decode at batch 1, its point focused
explain|120|40|Memory per GPU|@Memory.per.GPU Down Down Down Down e ~Explain:.memory.activations|explore|the explain view of the activations
projector|120|40|Memory per GPU||explore --theme projector|the projector theme
projector-light|120|40|Memory per GPU||explore --theme projector-light|the projector-light theme: black on white for a bright room
sweep|120|40|Memory per GPU|S ~first.point.that.does.not.fit s ~stack.\(s\):.on|explore|S then s: memory per GPU along the micro-batch, its parts stacked, the capacity line, the first point that does not fit
heatmap|80|24|Memory per GPU|H ~cursor|explore|H: headroom per GPU over micro-batch × sequence
compare|120|24|Memory per GPU|C ~Compare a ~Pick.a.GPU =h200-sxm Enter a ~Pick.a.GPU =mi300x Enter a ~Pick.a.GPU =b200 Enter ~B200|explore --model llama-2-13b|C: Llama-2-13B on H100, H200, MI300X and B200 side by side
plan|120|40|Memory per GPU|P ~searched|explore --model llama-2-70b --gpus 64|P: the layouts of Llama-2-70B on 64 × H100 SXM that fit, ranked by predicted time
ops|120|40|Memory per GPU|O ~Ops.of.a.layer j|explore|O: the ops of one Llama-2-7B layer on one H100 in the training forward, q_proj selected on the roofline
zh-ops|80|24|H100|O ~Prefill Tab ~Tab|explore --lang zh --model mixtral-8x7b --mode infer --tp 2|O in Chinese at 80×24: the decode ops of a Mixtral-8x7B layer at tp 2
zh-explorer|120|40|H100||explore --lang zh|the explorer in Chinese (--lang zh)
zh-lesson|120|40|H100||lesson 7 --lang zh|lesson 7 in Chinese: arithmetic intensity and the roofline
zh-slide|120|40|Roofline||lesson 7 --step 2 --slides --lang zh --theme projector|a lesson step as a slide for the projector (--slides, B in a lesson): lesson 7 step 2 in Chinese with its roofline
zh-roofline|150|46|Roofline|@Roofline|explore --lang zh --mode infer --batch 1|the roofline in Chinese, a decode at batch 1'

NAPKIN=build/napkin
LIST=
while getopts n:lh opt; do
	case $opt in
	n) NAPKIN=$OPTARG ;;
	l) LIST=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))

if [ -n "$LIST" ]; then
	printf '%s\n' "$SHOTS" | while IFS='|' read -r l_name l_cols l_rows _ _ l_cmd l_what; do
		printf '%-16s %sx%s  napkin %s\n%16s %s\n' "$l_name" "$l_cols" "$l_rows" "$l_cmd" '' "$l_what"
	done
	exit 0
fi
for want in "$@"; do
	printf '%s\n' "$SHOTS" | cut -d'|' -f1 | grep -qx -- "$want" ||
		{ echo "screenshots.sh: no shot '$want' (scripts/screenshots.sh -l lists them)" >&2; exit 2; }
done

case $NAPKIN in /*) ;; *) NAPKIN=$(pwd)/$NAPKIN ;; esac
OUT=$(pwd)/screenshots
for tool in Xvfb xterm xdotool xdpyinfo tmux /usr/bin/import /usr/bin/convert /usr/bin/compare fc-list; do
	command -v "$tool" >/dev/null 2>&1 || {
		echo "screenshots.sh: $tool is missing: ./scripts/deps.sh shots" >&2
		exit 1
	}
done
for font in 'DejaVu Sans Mono' 'Noto Sans Mono CJK SC'; do
	fc-list "$font" | grep -q . || { echo "screenshots.sh: no font '$font': ./scripts/deps.sh shots" >&2; exit 1; }
done
[ -x "$NAPKIN" ] || { echo "screenshots.sh: no napkin binary at $NAPKIN" >&2; exit 1; }
mkdir -p "$OUT"

TMP=$(mktemp -d)
SOCK=napkin-shots-$$
DISP=:$((90 + $$ % 9))
export LC_ALL=C.UTF-8 LANG=C.UTF-8 HOME="$TMP/home"
unset NO_COLOR TMUX LANGUAGE LC_MESSAGES XDG_CONFIG_HOME COLORFGBG
# no GPU: the probe is not started, and if it were it would find no driver
export CUDA_VISIBLE_DEVICES='' NAPKIN_LIBCUDA=/nonexistent/libcuda.so.1 NAPKIN_LIBNVML=/nonexistent/libnvidia-ml.so.1
mkdir -p "$HOME"
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
XPID='' XTPID=''
cleanup() {
	if [ -n "$XTPID" ]; then kill "$XTPID" 2>/dev/null || true; fi
	tm kill-server 2>/dev/null || true
	rm -f "/tmp/tmux-$(id -u)/$SOCK"
	if [ -n "$XPID" ]; then kill "$XPID" 2>/dev/null || true; fi
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

Xvfb "$DISP" -screen 0 1920x1200x24 -nolisten tcp >/dev/null 2>&1 &
XPID=$!
i=0
until DISPLAY=$DISP xdpyinfo >/dev/null 2>&1; do
	i=$((i + 1)); [ $i -gt 100 ] && { echo "screenshots.sh: Xvfb did not start on $DISP" >&2; exit 1; }
	sleep 0.1
done

screen() { tm capture-pane -p -e -t app 2>/dev/null; }
fail() {
	echo "screenshots.sh: $name: $1" >&2
	tm capture-pane -p -t app >&2 || true
	exit 1
}
# wait until the screen matches an extended regex (10 s at most)
wait_for() {
	i=0
	until screen | grep -Eq -- "$1"; do
		i=$((i + 1)); [ $i -gt 200 ] && fail "never saw '$1'"
		sleep 0.05
	done
}
# wait until the screen (colours included) has not changed for $1 polls of 50 ms (20 s at most)
settle() {
	prev=$(screen) same=0 i=0
	while [ $same -lt "$1" ]; do
		sleep 0.05
		cur=$(screen)
		if [ "$cur" = "$prev" ]; then same=$((same + 1)); else same=0 prev=$cur; fi
		i=$((i + 1))
		if [ $i -gt 400 ]; then fail "the screen never settled"; fi
	done
}

# press Tab until the pane titled $1 (an extended regex) is focused: its title on cyan (30 at most)
focus() {
	esc=$(printf '\033')
	i=0
	until screen | grep -Eq -- "${esc}\[46m$1"; do
		i=$((i + 1)); [ $i -gt 30 ] && fail "no pane titled '$1' took the focus"
		tm send-keys -t app Tab
		settle 3
	done
}

# shot NAME COLS ROWS READY KEYS COMMAND: run napkin COMMAND, press KEYS, capture
shot() {
	name=$1 cols=$2 rows=$3 ready=$4 keys=$5 cmd=$6
	SOCK=napkin-shots-$$-$name
	# shellcheck disable=SC2086 # the command is a word list
	tm set-option -g status off \; set-option -g remain-on-exit on \; \
		new-session -d -s app -x "$cols" -y "$rows" -c "$TMP" "$NAPKIN $cmd"
	wait_for "$ready"
	# the Latin font for single-width cells, Noto's monospaced CJK for double-width ones
	DISPLAY=$DISP xterm -geometry "${cols}x${rows}+0+0" -fa 'DejaVu Sans Mono' -fd 'Noto Sans Mono CJK SC' \
		-fs 11 -xrm 'XTerm*forceBoxChars: false' -xrm 'XTerm*cursorBlink: false' -bg black -fg grey90 \
		+sb -b 4 -T "napkin-shot-$name" -e tmux -L "$SOCK" -f /dev/null attach -t app &
	XTPID=$!
	i=0
	until tm list-clients -F '#{client_width}x#{client_height}' 2>/dev/null | grep -qx "${cols}x${rows}"; do
		i=$((i + 1)); [ $i -gt 200 ] && fail "the xterm never attached at ${cols}x${rows}"
		sleep 0.05
	done
	settle 4
	for k in $keys; do
		case $k in
		'~'*) wait_for "${k#\~}" ;;
		'@'*) focus "${k#@}" ;;
		'='*) tm send-keys -t app -l "${k#=}"; settle 3 ;;
		*) tm send-keys -t app "$k"; settle 3 ;;
		esac
	done
	settle 34 # unchanged for 1.7 s: past the change highlight
	[ "$(tm display-message -p -t app '#{pane_dead}')" = 0 ] || fail "napkin exited"
	win=$(DISPLAY=$DISP xdotool search --name "^napkin-shot-$name\$" | head -1)
	[ -n "$win" ] || fail "no xterm window"
	# unmapped and mapped again, xterm repaints the whole window from its screen, so pixels
	# that depended on the order of earlier partial redraws (a glyph's antialiased overhang
	# into its neighbour) come out the same each time; then capture until two captures agree
	DISPLAY=$DISP xdotool windowunmap --sync "$win"
	DISPLAY=$DISP xdotool windowmap --sync "$win"
	DISPLAY=$DISP /usr/bin/import -window "$win" "$TMP/a.png"
	i=0
	while :; do
		sleep 0.2
		DISPLAY=$DISP /usr/bin/import -window "$win" "$TMP/b.png"
		/usr/bin/compare -metric AE "$TMP/a.png" "$TMP/b.png" null: 2>/dev/null && break
		mv "$TMP/b.png" "$TMP/a.png"
		i=$((i + 1)); [ $i -gt 50 ] && fail "the window never settled"
	done
	# a palette of 64 colours, no dithering: the same picture at about half the bytes
	/usr/bin/convert "$TMP/a.png" +dither -colors 64 -strip "PNG8:$OUT/$name.png"
	kill "$XTPID" 2>/dev/null || true
	wait "$XTPID" 2>/dev/null || true
	XTPID=''
	tm kill-server 2>/dev/null || true
	rm -f "/tmp/tmux-$(id -u)/$SOCK"
	echo "screenshots/$name.png  $(wc -c <"$OUT/$name.png") bytes"
}

printf '%s\n' "$SHOTS" > "$TMP/shots"
while IFS='|' read -r name cols rows ready keys cmd _; do
	if [ $# -gt 0 ]; then
		printf '%s\n' "$@" | grep -qx -- "$name" || continue
	fi
	shot "$name" "$cols" "$rows" "$ready" "$keys" "$cmd" </dev/null
done < "$TMP/shots"
