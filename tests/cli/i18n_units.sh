#!/bin/sh
# Units' words in the interface's language (docs/i18n.md): days and GPU-hours are words, so a
# Chinese report says 天 and GPU 小时 (docs/glossary.md) where the English one says days and
# GPU-hours, in the summary line and in the explanation of the training time; the SI units
# (GiB, TFLOP/s, tokens/s) stay as they are, and so does a cited source ("143.9 days" in
# CS336's words); --help gives each knob's unit and range in them; JSON is the same bytes in
# both languages.
set -eu
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
# the lines these checks read, whole, as a wide terminal shows them (tests/cli/width.sh checks
# the reports at 80 and 60 columns)
COLUMNS=200
export COLUMNS
fail() {
	echo "FAIL: $*"
	exit 1
}
zh=$("$NAPKIN" report --lang zh --explain)
en=$("$NAPKIN" report --lang en --explain)
printf '%s\n' "$zh" | grep -Eq '训练时间 +[0-9.]+ 天 · [0-9,]+ GPU 小时' || fail "the Chinese time line: $(printf '%s\n' "$zh" | grep 训练时间 | head -1)"
printf '%s\n' "$en" | grep -Eq 'time +[0-9.]+ days · [0-9,]+ GPU-hours' || fail "the English time line"
printf '%s\n' "$zh" | grep -Eq '= [0-9,]+ GPU 小时$' || fail "the explanation's result in Chinese"
printf '%s\n' "$zh" | grep -q 'GPU-hour' && fail "GPU-hours left in the Chinese report: $(printf '%s\n' "$zh" | grep GPU-hour | head -2)"
printf '%s\n' "$zh" | grep -v '来源' | grep -q ' days' && fail "days left in the Chinese report: $(printf '%s\n' "$zh" | grep ' days' | head -2)"
# a short run keeps its digits and its singular in English (1 GPU-hour)
one=$("$NAPKIN" report --model gpt2 --gpus 1 --tokens 2B --lang en | grep -E '^  time ')
printf '%s\n' "$one" | grep -Eq '[0-9.]+ GPU-hours?' || fail "a short run: $one"
[ "$("$NAPKIN" report --format json --lang zh)" = "$("$NAPKIN" report --format json --lang en)" ] || fail "JSON differs by language"
# --help: each knob's unit and range in words of the language (单位 层, 31.7 年), the SI units kept
h=$("$NAPKIN" report --help --lang zh)
printf '%s\n' "$h" | grep -Eq '单位：层；默认：32' || fail "--help: the layers knob's unit"
printf '%s\n' "$h" | grep -Eq '单位：字节/秒，.*允许：1 MB/s 到 1 PB/s' || fail "--help: a bandwidth's unit and range"
printf '%s\n' "$h" | grep -Eq '单位：(count|layers|heads|fraction|GPUs|bytes)' && fail "--help: a unit in English: $(printf '%s\n' "$h" | grep -E '单位：[a-z]' | head -2)"
printf '%s\n' "$h" | grep -q ' years' && fail "--help: years in English"
"$NAPKIN" report --step-time 1e10 --lang zh 2>&1 | grep -q '317 年超出范围' || fail "an out-of-range error's years"
echo "ok: units' words in Chinese"
