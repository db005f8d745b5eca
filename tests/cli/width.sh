#!/bin/sh
# The text output fits the terminal's width: COLUMNS when set, else the terminal's (TIOCGWINSZ),
# else 80 (a pipe or a file, as git and ls). Every line of report (training and inference,
# --explain, fine-tuning, MoE, offload), plan and the --help texts is no wider than the width,
# counted in display columns (a CJK character takes two: Python's unicodedata.east_asian_width
# W and F), in English and in Chinese, at 80 and 60 columns; what the wide output holds is
# still there (lines broken by rule, not cut); a table that had to leave something out says
# so once, and the width it names shows all. plan's times take report's units (a short
# fine-tune in minutes, its GPU-hours with their digits); inference shows no training step,
# no training-only techniques and calls its largest batch the concurrent sequences; the data
# formats are the same bytes at any width.
#   sh tests/cli/width.sh PATH/TO/napkin
. "$(dirname "$0")/../scripts/cli_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is missing (scripts/deps.sh test)"; exit 1; }
unset COLUMNS

# check.py LIST: each line of LIST is "W FILE [WIDE]": no line of FILE wider than W display
# columns; and, given WIDE, every line of WIDE, spaces aside, is in FILE with its spaces and
# line breaks taken out, in order (breaking lines moved no figure and dropped none; the memory
# bar, a drawing, is as wide as the width allows). One Python for every case: it is slow to start.
cat >"$tmp/check.py" <<'PY'
import re, sys, unicodedata
def cols(s):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
bad = 0
for case in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    if not case:
        continue
    w, path, *wide = case.split("\t")
    text = open(path, encoding="utf-8").read()
    try:
        name = open(path + ".name", encoding="utf-8").read().strip()
    except OSError:
        name = path.rsplit("/", 1)[-1]
    over = [l for l in text.split("\n") if cols(l) > int(w)]
    for l in over[:3]:
        print("FAIL: %s: a line of %d columns: %s" % (name, cols(l), l))
    bad += bool(over)
    if wide:
        narrow, at = re.sub(r"\s+", "", text), 0
        for l in open(wide[0], encoding="utf-8").read().split("\n"):
            if re.match(r"^ *\[[A-Za-z.!]*\]$", l) or re.match(r"^ *\^ capacity$", l):
                continue
            k = re.sub(r"\s+", "", l)
            i = narrow.find(k, at)
            if i < 0:
                print("FAIL: %s dropped: %s" % (name, l))
                bad += 1
                break
            at = i + len(k)
sys.exit(1 if bad else 0)
PY
: >"$tmp/cases"
ncase=0
# fits W NAME [WIDE] -- ARGS...: napkin ARGS at COLUMNS=W into a case of check.py
fits() {
	w=$1 name=$2 wide=$3
	shift 4
	ncase=$((ncase + 1))
	COLUMNS=$w "$NAPKIN" "$@" >"$tmp/case$ncase" 2>/dev/null || fail "$name at $w columns: status $?"
	printf '%s\t%s%s\n' "$w" "$tmp/case$ncase" "${wide:+	$wide}" >>"$tmp/cases"
	echo "$name, at $w columns" >"$tmp/case$ncase.name"
}

# the report on every path, in both languages, at 80 and 60 columns; its lines outside the
# techniques table (which stacks its columns) all kept, in order
i=0
for args in "" "--explain" "--mode infer --explain" "--mode infer --model mixtral-8x7b --gpus 2 --tp 2 --weight-format fp8 --prefill-chunk 2048" \
	"--model llama-3-8b --gpu rtx-4090 --gpus 1 --finetune qlora --seq 2048 --tokens 10M --explain" \
	"--model mixtral-8x7b --gpus 8 --ep 8" "--offload optimizer --zero 2" "--offload nvme --zero 3 --explain"; do
	for lang in en zh; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		COLUMNS=1000 "$NAPKIN" report $args --lang $lang 2>/dev/null | sed '/^Techniques\|^优化技术/,/^$/d' >"$tmp/wide$i"
		for w in 80 60; do
			# shellcheck disable=SC2086
			fits $w "report $args --lang $lang" "$tmp/wide$i" -- report $args --lang $lang
		done
	done
done

# the techniques table at 80 columns: each technique still has its figures (the compared
# text on a line of its own), and at 60 a technique's label and compared text on one line
COLUMNS=80 "$NAPKIN" report >"$tmp/r80"
grep -Eq '^  \* mixed precision +-41\.02 GiB +0 +-[0-9.]+ years$' "$tmp/r80" ||
	fail "80 columns: the mixed precision row lost its figures: $(grep -A1 'mixed precision' "$tmp/r80")"
grep -A1 '^  \* mixed precision' "$tmp/r80" | grep -q '^      fp32 -> mixed-bf16$' ||
	fail "80 columns: mixed precision's compared text is not under its row"
COLUMNS=60 "$NAPKIN" report >"$tmp/r60"
grep -q '^  \* ZeRO-1 (optimizer states): stage 0 -> 1 over 8 ranks$' "$tmp/r60" ||
	fail "60 columns: ZeRO-1's label and compared text: $(grep 'ZeRO-1' "$tmp/r60")"
# a label–value row's value continues under its value column (col 19: "  per token        ")
grep -A1 '^  per token        forward' "$tmp/r80" | sed -n 2p | grep -q '^                   (6·N shorthand' ||
	fail "80 columns: the per-token row does not continue under its value: $(grep -A1 '^  per token' "$tmp/r80")"
# with no COLUMNS and no terminal (a pipe), 80 as git and ls
"$NAPKIN" report | cmp -s - "$tmp/r80" || fail "no COLUMNS, a pipe: not the 80-column report"
# COLUMNS that is not a number of columns is as if unset
COLUMNS=wide "$NAPKIN" report | cmp -s - "$tmp/r80" || fail "COLUMNS=wide: not the 80-column report"
# a terminal's own width (TIOCGWINSZ), where script(1) gives napkin one
if command -v script >/dev/null 2>&1 && script -qec 'stty cols 70 rows 40; true' /dev/null >/dev/null 2>&1; then
	script -qec "stty cols 70 rows 40; COLUMNS= '$NAPKIN' report" /dev/null | tr -d '\r' >"$tmp/tty"
	printf '70\t%s\n' "$tmp/tty" >>"$tmp/cases"
	grep -q '62.03 GiB' "$tmp/tty" || fail "a 70-column terminal: no report: $(head -3 "$tmp/tty")"
fi

# plan at 80 and 60 columns, both languages; at 80 the layout columns the same in every row
# are said once below the table, nothing is cut; at 60 the table cuts and says what shows all
for lang in en zh; do
	for w in 80 60; do
		fits $w "plan --lang $lang" "" -- plan --lang $lang
	done
	fits 80 "plan --goal gpu-hours --lang $lang" "" -- plan --goal gpu-hours --lang $lang
	fits 60 "plan --price 2 --goal cost --lang $lang" "" -- plan --price 2 --goal cost --lang $lang
done
COLUMNS=80 "$NAPKIN" plan >"$tmp/p80"
grep -Eq '^    \(every row: gpus 8(, [a-z_]+ [0-9a-z]+)+\)$' "$tmp/p80" || fail "plan at 80: no line for the columns left out: $(cat "$tmp/p80")"
grep -q 'cut to' "$tmp/p80" && fail "plan at 80: cut, though only columns the same in every row were left out"
grep -Eq '^  1( +[0-9]+)+( +(none|full|selective))? +[0-9.]+ GiB +[0-9.]+ s +[0-9.]+ days +[0-9,]+$' "$tmp/p80" ||
	fail "plan at 80: row 1 is not whole: $(grep -E '^  1 ' "$tmp/p80")"
COLUMNS=60 "$NAPKIN" plan >"$tmp/p60"
full=$(sed -n 's/^    (cut to 60 columns: COLUMNS=\([0-9]*\) shows all)$/\1/p' "$tmp/p60")
{ [ -n "$full" ] && [ "$(grep -c 'cut to' "$tmp/p60")" = 1 ]; } || fail "plan at 60: not one cut note: $(cat "$tmp/p60")"
if [ -n "$full" ]; then
	COLUMNS=$full "$NAPKIN" plan >"$tmp/pfull"
	printf '%s\t%s\n' "$full" "$tmp/pfull" >>"$tmp/cases"
	grep -q 'cut to\|every row' "$tmp/pfull" && fail "plan at COLUMNS=$full, the width the note names, still leaves columns out"
	grep -Eq '^  1( +[0-9]+){10,11} +(none|full|selective) +[0-9.]+ GiB +[0-9.]+ s +[0-9.]+ days +[0-9,]+$' "$tmp/pfull" ||
		fail "plan at COLUMNS=$full: row 1 is not whole: $(grep -E '^  1 ' "$tmp/pfull")"
fi
# 'apply it' is one command over lines that end in a shell's continuation: it runs as pasted
grep -A2 '^    apply it: ' "$tmp/p60" | sed 's/^ *apply it: //; s/\\$//' | tr -d '\n' >"$tmp/cmd"
grep -Eq '^napkin report \[KNOBS\] --tp [0-9]+ --pp [0-9]+ --vpp [0-9]+ *--cp 1 --ep 1 --zero [0-3] --batch [0-9]+ *--grad-accum [0-9]+ *--recompute (none|full|selective)$' "$tmp/cmd" ||
	fail "plan at 60: the 'apply it' command broken inside a flag: $(cat "$tmp/cmd")"

# a short fine-tune: plan says the time in report's units, minutes and GPU-hours on one
# GPU (minutes / 60 × 1), where it said "0.0 days" and "1"
FT="--model llama-3-8b --gpu rtx-4090 --gpus 1 --finetune qlora --seq 2048 --tokens 10M"
# shellcheck disable=SC2086
COLUMNS=200 "$NAPKIN" plan $FT >"$tmp/ft" 2>&1 || fail "plan $FT: status $?"
# shellcheck disable=SC2086
rt=$("$NAPKIN" report $FT | sed -n 's/^  time             \([0-9.]* min\) · \([0-9.]*\) GPU-hours.*/\1 \2/p')
[ -n "$rt" ] || fail "report $FT: no time in minutes and GPU-hours"
grep -q '0\.0 days' "$tmp/ft" && fail "plan $FT: '0.0 days' for a run of minutes"
you=$(grep '^you ' "$tmp/ft" | awk '{print $(NF-2), $(NF-1), $NF}')
[ "$you" = "$rt" ] || fail "plan $FT: your row says '$you', report says '$rt' (time, GPU-hours)"
# shellcheck disable=SC2086
python3 - "$you" <<'PY' || fail "plan $FT: GPU-hours are not the minutes / 60 on 1 GPU ($you)"
import sys
m, unit, gh = sys.argv[1].split()
# both printed to one decimal: equal to within the rounding of each
sys.exit(0 if unit == "min" and abs(float(m) / 60 - float(gh)) <= 0.05 + 0.05 / 60 else 1)
PY
# shellcheck disable=SC2086
"$NAPKIN" plan $FT --lang zh | grep -q '^你 .* [0-9.]* 分钟  *[0-9.]*$' ||
	fail "plan $FT --lang zh: your row's time: $("$NAPKIN" plan $FT --lang zh | grep '^你')"

# inference: no training step on the roofline, and the largest batch named for what it is,
# the concurrent sequences, equal to the capacity line's
"$NAPKIN" report --mode infer >"$tmp/inf"
grep -q '^  training step ' "$tmp/inf" && fail "report --mode infer: a training step on the roofline"
grep -q 'largest micro-batch' "$tmp/inf" && fail "report --mode infer: 'largest micro-batch' in inference"
n=$(sed -n 's/^  most concurrent sequences \([0-9,]*\) .*/\1/p' "$tmp/inf")
c=$(sed -n 's/^  capacity \([0-9,]*\) concurrent sequences per replica.*/\1/p' "$tmp/inf")
{ [ -n "$n" ] && [ "$n" = "$c" ]; } || fail "report --mode infer: most concurrent sequences '$n', capacity '$c'"
"$NAPKIN" report --mode infer --lang zh | grep -q '^  训练步 ' && fail "report --mode infer --lang zh: a training step on the roofline"
# the techniques only training has: no n/a rows in inference, named once below the table
COLUMNS=200 "$NAPKIN" report --mode infer >"$tmp/inf"
grep -Eq '^    (ZeRO-1|LoRA|selective recompute) .* n/a$' "$tmp/inf" && fail "report --mode infer: a training-only technique's n/a row"
grep -q '^  training only, not shown: selective recompute, full recompute (checkpointing), ZeRO-1 (optimizer states), .*LoRA, QLoRA (NF4 base), offload (ZeRO-Offload)$' "$tmp/inf" ||
	fail "report --mode infer: the training-only techniques are not named: $(grep 'training only' "$tmp/inf")"
grep -Eq '^  \* KV cache .*recompute prefix -> cache' "$tmp/inf" || fail "report --mode infer: no KV cache row"
COLUMNS=200 "$NAPKIN" report | grep -Eq '^  \* ZeRO-1 \(optimizer states\) +stage 0 -> 1 over 8 ranks' || fail "report (training): no ZeRO-1 row"
"$NAPKIN" report | grep -q '^  training step ' || fail "report (training): no training step on the roofline"
"$NAPKIN" report | grep -q '^  largest micro-batch 1 ' || fail "report (training): no largest micro-batch"

# --help at the width, every option and knob still listed
for args in "--help" "report --help" "plan --help"; do
	for lang in en zh; do
		for w in 80 60; do
			# shellcheck disable=SC2086
			fits $w "napkin $args --lang $lang" "" -- $args --lang $lang
		done
	done
	# shellcheck disable=SC2086
	COLUMNS=1000 "$NAPKIN" $args | grep -o -- '--[a-z][a-z-]*' | sort -u >"$tmp/flags.wide"
	# shellcheck disable=SC2086
	COLUMNS=60 "$NAPKIN" $args | grep -o -- '--[a-z][a-z-]*' | sort -u >"$tmp/flags.60"
	cmp -s "$tmp/flags.wide" "$tmp/flags.60" || fail "napkin $args at 60 columns: options lost: $(comm -23 "$tmp/flags.wide" "$tmp/flags.60" | tr '\n' ' ')"
done

# the data formats are a contract: the same bytes at any width
for f in json yaml; do
	COLUMNS=1000 "$NAPKIN" report --format $f --explain >"$tmp/wide.$f"
	COLUMNS=40 "$NAPKIN" report --format $f --explain | cmp -s - "$tmp/wide.$f" || fail "report --format $f differs by width"
done
COLUMNS=1000 "$NAPKIN" plan --format json --top 3 >"$tmp/wide.plan"
COLUMNS=40 "$NAPKIN" plan --format json --top 3 | cmp -s - "$tmp/wide.plan" || fail "plan --format json differs by width"

python3 "$tmp/check.py" "$tmp/cases" || fail "lines wider than the width, or text dropped (above)"

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "ok: text output fits 80 and 60 columns (English and Chinese), nothing dropped; plan's units; inference rows"
