#!/bin/sh
# What loading says on stderr before the explorer opens is not covered by it: the footer
# shows it. A broken file in ./presets does not stop the explorer (it says which file was
# skipped, where and what is wrong); a config.json's quantization_config in a format napkin
# does not know is said too.
. "$(dirname "$0")/lib.sh"
mkdir -p "$TUI_TMP/presets/gpus"
printf 'name: Broken\nmemory: 80 GB\nmemory_bandwidth: 1 TB/s\npeak_flops: {bf16: 1 PFLOP/s}\nsm: 3\n' \
	>"$TUI_TMP/presets/gpus/mygpu.yaml"
tm set-option -g remain-on-exit on \; new-session -d -s app -x 160 -y 40 -c "$TUI_TMP" "$NAPKIN explore" ||
	fail "tmux did not start"
wait_for 'Memory per GPU' 'the explorer did not open beside a broken preset'
screen | grep -q "⚠ presets/gpus/mygpu.yaml:5:1: warning: unknown key 'sm'.*skipped" ||
	fail 'no line saying which preset file was skipped, and where'
keys q
[ "$(wait_exit)" = 0 ] || fail 'q did not exit 0'
tm kill-server

rm -rf "$TUI_TMP/presets"
src=$(pwd)
tm set-option -g remain-on-exit on \; new-session -d -s app -x 200 -y 40 -c "$TUI_TMP" \
	"$NAPKIN explore --model $src/tests/data/hf/llama-2-7b-gptq-3bit.json" || fail "tmux did not start"
wait_for 'Memory per GPU' 'the explorer did not open with a config.json'
screen | grep -q "⚠ .*llama-2-7b-gptq-3bit.json:24:26: warning: quantization_config (gptq, 3-bit weights in groups of 128) is not a format" ||
	fail "the config.json's unknown quantisation format is not said"
keys q
[ "$(wait_exit)" = 0 ] || fail 'q did not exit 0'
echo "ok: load warnings"
