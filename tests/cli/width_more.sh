#!/bin/sh
# The rest of the text output fits the terminal's width as report and plan do (width.sh):
# sweep's table, curves and heatmaps, presets list, the lesson list and a lesson's --text,
# probe's messages (no GPU: its errors) and every command's --help, at 80 and 60 columns, in
# English and Chinese; no line wider than the width in display columns (a CJK character two:
# east_asian_width W and F), and every word of the wide output (COLUMNS=1000) still in the
# narrow one (the charts aside: they are drawn to the width). sweep's table narrows its
# columns to their content, puts the results that do not fit beside each other in groups,
# each with the knob's values, as compare does, and says the width that puts them in one;
# a point that does not fit or is invalid is marked with compare's ✗. The data formats
# (sweep CSV and JSON, presets show's YAML), the Markdown handout and the man page are the
# same bytes at any width.
#   sh tests/cli/width_more.sh PATH/TO/napkin
. "$(dirname "$0")/../scripts/cli_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is missing (scripts/deps.sh test)"; exit 1; }
unset COLUMNS
# probe finds no driver here, whatever the machine has
export NAPKIN_LIBCUDA=/nonexistent/libcuda.so.1 NAPKIN_LIBNVML=/nonexistent/libnvidia-ml.so.1

# check.py LIST: each line "W NARROW WIDE NAME": no line of NARROW wider than W columns, and
# every word of WIDE in NARROW (NARROW's spaces and line breaks taken out: a word broken at
# the width, or Chinese broken between characters, is still found); a chart's lines (braille,
# the axes, the marks under them) are not words.
cat >"$tmp/check.py" <<'PY'
import re, sys, unicodedata
def cols(s):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
chart = re.compile("[\u2800-\u28ff\u2500-\u257f\u25b2\u25b3]")
bad = 0
for case in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    if not case:
        continue
    w, narrow, wide, name = case.split("\t")
    text = open(narrow, encoding="utf-8").read()
    over = [l for l in text.split("\n") if cols(l) > int(w)]
    for l in over[:2]:
        print("FAIL: %s at %s columns: a line of %d columns: %s" % (name, w, cols(l), l))
    bad += bool(over)
    flat = re.sub(r"\s+", "", text)
    lost = []
    for l in open(wide, encoding="utf-8").read().split("\n"):
        if chart.search(l):
            continue
        lost += [x for x in l.split() if x not in flat]
    if lost:
        print("FAIL: %s at %s columns: words dropped: %s" % (name, w, " ".join(lost[:8])))
        bad += 1
sys.exit(1 if bad else 0)
PY
: >"$tmp/cases"
n=0
# fits NAME ARGS...: napkin ARGS (stdout and stderr) at COLUMNS=1000, 80 and 60 into cases
fits() {
	name=$1
	shift
	n=$((n + 1))
	COLUMNS=1000 "$NAPKIN" "$@" >"$tmp/w$n" 2>&1
	for w in 80 60; do
		COLUMNS=$w "$NAPKIN" "$@" >"$tmp/n$n.$w" 2>&1
		printf '%s\t%s\t%s\t%s\n' "$w" "$tmp/n$n.$w" "$tmp/w$n" "$name" >>"$tmp/cases"
	done
}

SW5="--y memory.total,compute.step_seconds,compute.mfu,memory.headroom,compute.tokens_per_s"
for lang in en zh; do
	fits "sweep batch=1..16 --lang $lang" sweep batch=1..16 --lang $lang
	fits "sweep batch=1..16 --stack --lang $lang" sweep batch=1..16 --stack --lang $lang
	fits "sweep batch=1..8 (five results) --lang $lang" sweep batch=1..8 $SW5 --lang $lang
	fits "sweep tp=1..16 (invalid points) --lang $lang" sweep tp=1..16 --model llama-2-70b --gpus 64 --lang $lang
	fits "sweep heatmap --lang $lang" sweep tp=1..8 pp=1..8 --model llama-2-70b --gpus 64 --y compute.mfu,memory.headroom --lang $lang
	fits "sweep --y with a typo --lang $lang" sweep batch=1..4 --y compute.tokens_per_second --lang $lang
	fits "presets list --lang $lang" presets list --lang $lang
	fits "lesson --lang $lang" lesson --lang $lang
	fits "probe --lang $lang" probe --lang $lang
	for i in 1 2 3 4 5 6 7 8 9 10; do
		fits "lesson $i --text --solutions --lang $lang" lesson $i --text --solutions --lang $lang
	done
	# every command's --help, the commands as napkin --help lists them
	for c in $(COLUMNS=1000 "$NAPKIN" --help | sed -n 's/^  napkin \([a-z][a-z]*\).*/\1/p' | sort -u); do
		fits "$c --help --lang $lang" $c --help --lang $lang
	done
done
python3 "$tmp/check.py" "$tmp/cases" || fail "lines wider than the width, or words dropped (above)"

# sweep's table at 80: its three columns as wide as their content beside each other, each
# point past the first (62.03 GiB fits in 79.65; 85.65 does not) marked as compare marks a
# column; the first not
COLUMNS=80 "$NAPKIN" sweep batch=1..16 >"$tmp/s80"
grep -Eq '^batch  memory\.total  memory\.fits  compute\.step_seconds$' "$tmp/s80" ||
	fail "sweep at 80: the head is not narrowed to its content: $(sed -n 3p "$tmp/s80")"
grep -Eq '^    1     62\.03 GiB +yes +[0-9]+\.[0-9]+ s$' "$tmp/s80" || fail "sweep at 80: batch 1 (fits) is marked or not whole: $(grep '^    1 ' "$tmp/s80")"
[ "$(grep -Ec '^ +([2-9]|1[0-6]) .* no .*  ✗ does not fit$' "$tmp/s80")" = 15 ] ||
	fail "sweep at 80: batches 2 to 16 are not all marked ✗ does not fit: $(grep -c '✗' "$tmp/s80")"
"$NAPKIN" sweep batch=1..16 --lang zh | grep -Eq '^    2 .* 否 .*  ✗ 放不下$' || fail "sweep --lang zh: batch 2 is not marked ✗ 放不下"
# an invalid point: compare's ✗ invalid and its reason
COLUMNS=200 "$NAPKIN" sweep tp=1..4 --model llama-2-70b --gpus 64 | grep -q '^ 3 .*  ✗ invalid: gpus (64) must be a multiple of tp × pp × cp = 3' ||
	fail "sweep tp=1..4: tp 3 is not marked ✗ invalid with its reason"
# five results at 60: in groups, each with the knob's values, and the width that puts them in one
# shellcheck disable=SC2086
COLUMNS=60 "$NAPKIN" sweep batch=1..8 $SW5 >"$tmp/g60"
full=$(tr '\n' ' ' <"$tmp/g60" | tr -s ' ' | sed -n 's/.*5 columns do not fit beside each other in 60: they come in [0-9]* groups, each with the row labels *(COLUMNS=\([0-9]*\) puts them in one).*/\1/p')
[ -n "$full" ] || fail "sweep (five results) at 60: no note of the groups: $(head -8 "$tmp/g60")"
[ "$(grep -c '^batch  ' "$tmp/g60")" -ge 2 ] || fail "sweep (five results) at 60: not in groups each with the knob's values"
[ "$(grep -c '^    1 ' "$tmp/g60")" = "$(grep -c '^batch  ' "$tmp/g60")" ] || fail "sweep (five results) at 60: a group without batch 1"
if [ -n "$full" ]; then
	# shellcheck disable=SC2086
	COLUMNS=$full "$NAPKIN" sweep batch=1..8 $SW5 >"$tmp/gfull"
	grep -q 'do not fit beside' "$tmp/gfull" && fail "sweep at COLUMNS=$full, the width the note names, is still in groups"
	[ "$(grep -c '^batch  ' "$tmp/gfull")" = 1 ] || fail "sweep at COLUMNS=$full: not one table"
fi
# presets list at 80: a GPU's summary under its column (col 47), continued there
COLUMNS=80 "$NAPKIN" presets list gpus --builtin >"$tmp/pl"
grep -q '^  h100-sxm  ' "$tmp/pl" || fail "presets list at 80: no h100-sxm row: $(head -3 "$tmp/pl")"
COLUMNS=1000 "$NAPKIN" presets list gpus --builtin | grep -q '^  h100-sxm .*TFLOP/s bf16$' || fail "presets list at 1000: the summary is not on the row"

# the data, the handout and the man page: the same bytes at any width
same() {
	name=$1
	shift
	COLUMNS=1000 "$NAPKIN" "$@" >"$tmp/a" 2>&1
	COLUMNS=40 "$NAPKIN" "$@" >"$tmp/b" 2>&1
	cmp -s "$tmp/a" "$tmp/b" || fail "$name differs by width"
}
same "sweep --format csv" sweep batch=1..16 --format csv
same "sweep --format json" sweep batch=1..16 tp=1..2 --format json
same "presets show (YAML)" presets show llama-2-70b
same "lesson --markdown" lesson 1 --markdown --solutions
same "--man" --man

[ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }
echo "ok: sweep, presets list, lessons, probe and every --help fit 80 and 60 columns (English and Chinese), nothing dropped"
