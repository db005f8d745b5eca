#!/bin/sh
# F writes the chart on screen as SVG in the current directory and says where in the status
# line: the roofline from the main screen, the memory bar with the memory pane focused, the
# sweep (S) and the heatmap (H) from their views; a name that is taken gets -2, -3 (a file
# napkin did not write stays as it was); the figure's words follow the language (Z, --lang
# zh); ? lists the key.
. "$(dirname "$0")/lib.sh"

work=$TUI_TMP/work
mkdir -p "$work"
printf 'my own heatmap\n' >"$work/napkin-heatmap.svg"
wellformed() {
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$1" 2>/dev/null || fail "$1 is not well-formed XML"
}
tm set-option -g remain-on-exit on \; new-session -d -s app -x 120 -y 40 -c "$work" \
	"$NAPKIN explore --model llama-2-7b --gpu h100-sxm --gpus 8" || fail "tmux did not start"
wait_for 'micro-batch' 'no main screen'
keys F
wait_for 'figure written: .*napkin-roofline\.svg' 'F did not say where it wrote the roofline'
[ -s "$work/napkin-roofline.svg" ] || fail "no napkin-roofline.svg in the current directory"
wellformed "$work/napkin-roofline.svg"
grep -q 'class="point" data-name="train_step"' "$work/napkin-roofline.svg" || fail "the roofline has no training step"
grep -q 'Roofline of one H100 SXM' "$work/napkin-roofline.svg" || fail "the roofline's title does not name the GPU"
keys F
wait_for 'figure written: .*napkin-roofline-2\.svg' 'a second F did not take the next name'
cmp -s "$work/napkin-roofline.svg" "$work/napkin-roofline-2.svg" || fail "the same screen drew two different figures"
# the memory pane (l: the pane right of the knobs)
keys l F
wait_for 'figure written: .*napkin-memory\.svg' 'F on the memory pane did not write the memory bar'
grep -q 'class="part" data-key="weights"' "$work/napkin-memory.svg" || fail "the memory figure has no weights"
keys S
wait_for 'Sweep' 'the sweep did not open'
keys F
wait_for 'figure written: .*napkin-sweep\.svg' 'F in the sweep view did not write it'
wellformed "$work/napkin-sweep.svg"
grep -q 'class="series" data-key="memory.total"' "$work/napkin-sweep.svg" || fail "the sweep figure lacks memory.total"
keys Escape H
wait_for 'Heatmap: headroom per GPU' 'the heatmap did not open'
keys F
wait_for 'figure written: .*napkin-heatmap-2\.svg' 'F in the heatmap view did not step past a file that is there'
[ "$(cat "$work/napkin-heatmap.svg")" = "my own heatmap" ] || fail "napkin-heatmap.svg, not napkin's, was changed"
grep -q 'class="cell"' "$work/napkin-heatmap-2.svg" || fail "the heatmap figure has no cells"
keys Escape
wait_for 'micro-batch' 'Esc did not return'
# in Chinese (Z): the figure's words too
keys Z
wait_for '语言：中文' 'Z did not switch to Chinese'
keys h F
wait_for '图已写出：.*napkin-roofline-3\.svg' 'F in Chinese did not say where it wrote'
grep -q '算术强度' "$work/napkin-roofline-3.svg" || fail "the Chinese roofline's axis is not in Chinese"
grep -q '转折点 295 FLOP/B' "$work/napkin-roofline-3.svg" || fail "the Chinese roofline lacks the ridge (H100: 989.5 / 3.35 = 295)"
keys '?'
wait_for 'napkin-roofline\.svg' 'the help does not list F'
keys Escape q
[ "$(wait_exit)" = 0 ] || fail "exit status"
echo "ok: F writes the roofline, memory, sweep and heatmap as SVG (next free name; Chinese under Z)"
