#!/bin/sh
# The dtype lab at 80×24 shows the selected dtype's "what happened" sentence whole, wrapped
# under the table where its column cuts it (the column keeps only a few words at 80
# columns): 1e-8 is below half of fp8-e4m3's smallest subnormal, 2^-9 (OCP FP8 formats,
# 2023: E4M3's smallest subnormal is 2^-9 ≈ 0.00195), so it is stored as 0.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "skipped: python3 joins the wrapped rows"; exit 0; }
joined() {
	screen | python3 -c '
import sys
print(" ".join(" ".join(l.strip().strip("\u2502").split()) for l in sys.stdin.read().split("\n")))
'
}
for lang in en zh; do
	stop
	start 80 24 --lang "$lang"
	wait_for '(每张 GPU 的显存|Memory per GPU)' "$lang: never drew"
	keys D
	wait_for '(Dtype 实验室|dtype lab)' "$lang: D did not open the dtype lab"
	keys BSpace BSpace BSpace BSpace BSpace
	keys -l 1e-8
	keys Enter
	wait_for '(存储 1e-8|stores 1e-8)' "$lang: 1e-8 was not stored"
	keys Down Down # bf16 → fp16 → fp8-e4m3
	if [ "$lang" = zh ]; then
		want='▸ 下溢：1e-08 小于 FP8 E4M3 最小次正规数的一半，存成 0：什么也没剩下'
		wait_for '▸ 下溢：1e-08 小于 FP8 E4M3' "zh: the selected row's sentence is not shown"
		screen | grep -qF -- "$want" || fail "zh: the selected row's sentence is cut"
	else
		wait_for '▸ underflow: 1e-08 is below half the smallest fp8-e4m3' "en: the selected row's sentence is not shown"
		joined | grep -qF -- '▸ underflow: 1e-08 is below half the smallest fp8-e4m3 subnormal, stored as 0: nothing is left' ||
			fail "en: the selected row's sentence is cut"
	fi
done
exit 0
