#!/bin/sh
# napkin compare --lang zh reads as Chinese: each row by its label as the explorer's compare
# view names it (训练天数, GPU 小时数, 放得下), the groups by name, the knob over the columns by
# its label, and the values' words in Chinese (202.3 天, GPU 小时, 是): not the JSON keys
# (params_total, train_days, dp_exposed_fraction) and English units (days, GPU-hours, yes).
# English keeps the keys. The sweep chart's capacity line says 单卡容量.
set -eu
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
COLUMNS=200
export COLUMNS
fail() {
	echo "FAIL: $*"
	exit 1
}
zh=$("$NAPKIN" compare --gpu h100-sxm,a100-80gb-sxm,l4 --lang zh)
en=$("$NAPKIN" compare --gpu h100-sxm,a100-80gb-sxm,l4 --lang en)
for key in params_total autocast_copies train_days dp_exposed_fraction gpu_hours step_breakdown data_loading; do
	printf '%s\n' "$zh" | grep -q "$key" && fail "the key $key in the Chinese table: $(printf '%s\n' "$zh" | grep "$key" | head -1)"
	printf '%s\n' "$en" | grep -q "$key" || fail "the English table lost the key $key"
done
printf '%s\n' "$zh" | grep -Eq '^  训练天数 +[0-9.]+ 天' || fail "no 训练天数 row in days: $(printf '%s\n' "$zh" | grep 训练 | head -3)"
printf '%s\n' "$zh" | grep -Eq '^  GPU 小时数 +[0-9,]+ GPU 小时' || fail "no GPU 小时数 row"
printf '%s\n' "$zh" | grep -Eq '^  放得下 +是' || fail "no 放得下 是 row"
printf '%s\n' "$zh" | grep -Eq '^每张 GPU 的显存$' || fail "the memory group is not named"
printf '%s\n' "$zh" | grep -Eq '^GPU +h100-sxm +a100-80gb-sxm +l4' || fail "the knob over the columns: $(printf '%s\n' "$zh" | grep h100-sxm | head -1)"
for w in ' days' 'GPU-hours' ' yes' ' no '; do
	printf '%s\n' "$zh" | grep -v '^Llama' | grep -q -- "$w" && fail "English '$w' in the Chinese table: $(printf '%s\n' "$zh" | grep -- "$w" | head -1)"
done
# JSON is the same in both languages
[ "$("$NAPKIN" compare --gpu h100-sxm,l4 --format json --lang zh)" = "$("$NAPKIN" compare --gpu h100-sxm,l4 --format json --lang en)" ] ||
	fail "compare JSON differs by language"
s=$("$NAPKIN" sweep batch=1..16 --y memory.total --lang zh)
printf '%s\n' "$s" | grep -q '← 单卡容量 79.65 GiB' || fail "the sweep's capacity line: $(printf '%s\n' "$s" | grep '←' | head -1)"
printf '%s\n' "$s" | grep -q 'capacity' && fail "capacity in English in the Chinese sweep"
"$NAPKIN" sweep batch=1..16 --y memory.total --lang en | grep -q '← capacity 79.65 GiB' || fail "the English sweep's capacity line"
echo "ok: compare and sweep in Chinese read as Chinese"
