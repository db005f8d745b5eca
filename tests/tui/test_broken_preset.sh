#!/bin/sh
# A broken file in ./presets does not stop the explorer: it opens, and its footer says which
# file was skipped, where (file:line:col) and what is wrong.
. "$(dirname "$0")/lib.sh"
mkdir -p "$TUI_TMP/presets/gpus"
printf 'name: Broken\nmemory: 80 GB\nmemory_bandwidth: 1 TB/s\npeak_flops: {bf16: 1 PFLOP/s}\nsm: 3\n' \
	>"$TUI_TMP/presets/gpus/mygpu.yaml"
tm set-option -g remain-on-exit on \; new-session -d -s app -x 160 -y 40 -c "$TUI_TMP" "$NAPKIN explore" ||
	fail "tmux did not start"
wait_for 'Memory per GPU' 'the explorer did not open beside a broken preset'
screen | grep -q 'skipped presets/gpus/mygpu.yaml:5:1: unknown key .sm.' ||
	fail 'no line saying which preset file was skipped, and where'
keys q
[ "$(wait_exit)" = 0 ] || fail 'q did not exit 0'
echo "ok: broken preset"
