#!/bin/sh
# napkin compare as a person reads it: the best of a row is marked only where the figure
# has a better side (more bandwidth is better; the ridge has none), a layout that does not
# fit shows no time and is never the best, a cost without a price says so, the table is one
# (each group once), an invalid value is a column that says why (text and JSON), empty list
# items are refused, and the table fits the terminal (COLUMNS, else 80).
#   sh tests/cli/compare.sh PATH/TO/napkin
. "$(dirname "$0")/../scripts/cli_lib.sh"


# table SCRIPT: runs python3 on the text table in $tmp/out (one group of columns: run with a
# wide COLUMNS) with t(key) the cells of row key (the row's label after its group) by
# column, heads the column heads and status their second line
table() {
	have_py || return 0
	python3 - "$tmp/out" "$1" <<'PY' || fail "$what: $(cat "$tmp/py.err" 2>/dev/null | tail -3)"
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
hi = next(i for i, l in enumerate(lines) if l.split(" ")[0] in ("gpu", "tp", "batch", "model") and "  " in l)
head = lines[hi]
starts = [m.start() for m in re.finditer(r"(?<=  )\S", head)]
def cells(line):
    line = line.ljust(starts[-1] + 1)
    return [line[a:b].strip() for a, b in zip(starts, starts[1:] + [len(line)])]
heads = cells(head)
nxt = lines[hi + 1]
status = cells(nxt) if nxt.strip() and nxt[:starts[0]].strip() == "" else [""] * len(heads)
rows = {}
for l in lines[hi + 1:]:
    if l.startswith("  ") and l[:starts[0]].strip() and len(l) > starts[0]:
        rows.setdefault(l[:starts[0]].strip(), cells(l))
    if l == "":
        break
def t(key):
    return rows[key]
def value(cell):
    return re.sub(r" ([+-][0-9.]+(%|pp))?( \*)?$", "", cell)
try:
    exec(sys.argv[2])
except Exception:
    import traceback
    open(sys.argv[1].rsplit("/", 1)[0] + "/py.err", "w").write(traceback.format_exc())
    sys.exit(1)
PY
}

# ---- the issue's command: four GPUs, Llama-2-13B (the H100's 80 GB does not hold it)
what="compare gpus: best marks follow the table's directions"
COLUMNS=250 run compare --gpu h100-sxm,h200-sxm,mi300x,b200 --model llama-2-13b
ok
# bandwidth: H100 SXM 3.35 TB/s, H200 4.8, MI300X 5.3, B200 8 (datasheets): the most is best
table '
bw = t("bandwidth_bytes_per_s")
assert [c.endswith(" *") for c in bw] == [False, False, False, True], bw
# the ridge (peak / bandwidth) has no better side; nor have FLOPs per token
assert not any(c.endswith("*") for c in t("ridge_flops_per_byte")), t("ridge_flops_per_byte")
assert not any(c.endswith("*") for c in t("flops_per_token_train")), t("flops_per_token_train")
# more headroom is better: the MI300X (191.98 GiB) over the B200 (179.1 GiB)
assert t("headroom")[2].endswith(" *") and not t("headroom")[3].endswith("*"), t("headroom")
'
what="compare gpus: the column that does not fit"
table '
assert heads == ["h100-sxm", "h200-sxm", "mi300x", "b200"], heads
assert status[0] == "\u2717 does not fit" and status[1:] == ["", "", ""], status
# its memory says how far over it is; it has no step, MFU, days or throughput
assert t("headroom")[0].startswith("-30.37 GiB"), t("headroom")
for key in ("mfu", "train_days", "tokens_per_s", "step_seconds", "hfu", "matmul", "fraction_of_step"):
    assert t(key)[0] == "-", (key, t(key))
    assert all(c != "-" for c in t(key)[1:]), (key, t(key))
assert t("fits") == ["no", "yes *", "yes *", "yes *"], t("fits")
# the best MFU is among those that fit (the H100 does not): the highest of the others
mfus = [float(c.split("%")[0]) for c in t("mfu")[1:]]
best = 1 + mfus.index(max(mfus))
assert t("mfu")[best].endswith("% *") and sum(c.endswith("*") for c in t("mfu")) == 1, t("mfu")
'
what="compare gpus: cost without a price"
table '
assert t("cost")[1:] == ["no price"] * 3, t("cost")
'
what="compare gpus: no change where the values print the same"
table '
for key, cs in rows.items():
    base = value(cs[0])
    for c in cs[1:]:
        if value(c) == base:
            assert c == base or c == base + " *", (key, cs)
    vals = {value(c) for c in cs if c != "-"}
    if len(vals) == 1:
        assert not any(c.endswith("*") for c in cs), (key, cs)
    # nor a change that rounds to nothing
    assert not any(re.search(r" [+-]0(\.0)?(%|pp)", c) for c in cs), (key, cs)
# a share that prints 0.0% in every column has no change and no best (it read "0.0% (+117%)")
assert t("fraction_of_step")[1:] == ["0.0%"] * 3, t("fraction_of_step")
# the exposed DP share (the last bucket, the tax of overlapping) prints the same on the three GPUs: no best
d = t("dp_exposed_fraction")[1:]
assert len(set(d)) == 1 and not d[0].endswith("*"), d
'
what="compare gpus: one table, each group once"
for g in model memory compute roofline data_loading; do
	[ "$(grep -c "^$g\$" "$tmp/out")" -eq 1 ] || fail "$what: '$g' heads $(grep -c "^$g\$" "$tmp/out") blocks"
done
[ "$(grep -c '^gpu ' "$tmp/out")" -eq 1 ] || fail "$what: the header is repeated at 250 columns"
out_has "✗ does not fit: the layout needs more memory per GPU than the GPU has"

what="compare with a price: the cost is price × GPU-hours"
COLUMNS=250 run compare --gpu h200-sxm,b200 --model llama-2-13b --price 2
ok
if have_py; then
	gh=$("$NAPKIN" report --gpu b200 --model llama-2-13b --format json | python3 -c 'import json,sys; print(json.load(sys.stdin)["compute"]["gpu_hours"])')
	table "
c = t('cost')
assert c[0] != 'no price' and c[1].endswith(' *'), c
assert abs(float(value(c[1]).replace(',', '')) - 2 * $gh) <= 0.5 + 1e-3 * 2 * $gh, (c, $gh)
"
fi

# ---- an invalid value is a column with its reason (sweep keeps such points as rows)
what="compare --tp 1,2,3: tp 3 is a column that says why"
COLUMNS=250 run compare --tp 1,2,3
ok
table '
assert heads == ["1", "2", "3"] and status == ["", "", "\u2717 invalid"], (heads, status)
assert t("total")[2] == "-" and t("total")[0] != "-", t("total")
'
out_has "✗ tp 3 is not valid: gpus (8) must be a multiple of tp × pp × cp = 3"
what="compare --tp 1,2,3 json: the invalid column is an error"
run compare --tp 1,2,3 --format json
ok
if have_py; then
	python3 - "$tmp/out" "$NAPKIN" <<'PY' || fail "$what: $(head -c 600 "$tmp/out")"
import json, subprocess, sys
j = json.load(open(sys.argv[1]))
assert j["values"] == ["1", "2", "3"], j["values"]
c = j["columns"]
assert list(c[2]) == ["error"] and c[2]["error"].startswith("gpus (8) must be a multiple of tp × pp × cp = 3"), c[2]
for v, col in zip(("1", "2"), c[:2]):
    r = json.loads(subprocess.run([sys.argv[2], "report", "--format", "json", "--tp", v], check=True,
                                  capture_output=True, text=True).stdout)
    assert "error" not in col and col["memory"] == r["memory"] and col["compute"] == r["compute"], v
PY
fi
what="compare --tp 1,2,3 --lang zh json: the error stays English"
run compare --tp 1,2,3 --format json --lang zh
ok
grep -q '"error": "gpus (8) must be a multiple' "$tmp/out" || fail "$what: $(grep error "$tmp/out")"
what="compare with no valid column"
run compare --tp 3,5
refused
err_has "no column is valid"
what="compare a value that does not parse is still refused"
run compare --gpu h100-sxm,nosuchgpu
refused

what="compare two lists: both flags named as typed"
run compare --gpu-bandwidth 2TB/s,3TB/s --power-limit 700W,450W
refused
err_has "--gpu-bandwidth and --power-limit both list values"

# ---- empty list items are refused, not dropped
for list in "1,,2" ",1" "1," ",,"; do
	what="compare --batch $list"
	run compare --batch "$list"
	refused
	err_has "an empty value"
done
what="compare --batch=1,,2"
run compare --batch=1,,2
refused
err_has "an empty value"

# ---- a knob whose value is a list: + joins its items inside a column
what="compare --lora-targets q,v: two columns, and how to get one"
run compare --finetune lora --lora-targets q,v --format json
ok
err_has "--lora-targets q,v is 2 columns"
err_has "--lora-targets q+v"
if have_py; then
	python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["values"] == ["q", "v"]' "$tmp/out" ||
		fail "$what: $(head -c 300 "$tmp/out")"
fi
what="compare --lora-targets q+v,all-linear"
run compare --finetune lora --lora-targets q+v,all-linear --format json
ok
if have_py; then
	python3 - "$tmp/out" "$NAPKIN" <<'PY' || fail "$what"
import json, subprocess, sys
j = json.load(open(sys.argv[1]))
assert j["values"] == ["q+v", "all-linear"], j["values"]
r = json.loads(subprocess.run([sys.argv[2], "report", "--format", "json", "--finetune", "lora", "--lora-targets", "q,v"],
                              check=True, capture_output=True, text=True).stdout)
assert j["columns"][0]["model"] == r["model"], (j["columns"][0]["model"], r["model"])
assert j["columns"][1]["model"]["params_trainable"] > r["model"]["params_trainable"]
PY
fi
what="compare --help: the + form"
run compare --help
ok
out_has "--lora-targets q+v,all-linear"

# ---- the width: COLUMNS, else the terminal, else 80; no line wider
width_ok() { # FILE LIMIT
	have_py || return 0
	python3 - "$1" "$2" <<'PY'
import sys, unicodedata
w = lambda l: sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in l)
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
wide = [l for l in lines if w(l) > int(sys.argv[2])]
if wide:
    print("%d lines over %s columns, the widest %d: %r" % (len(wide), sys.argv[2], max(map(w, wide)), max(wide, key=w)))
    sys.exit(1)
PY
}
for lang in en zh; do
	what="COLUMNS=80 compare four GPUs --lang $lang"
	COLUMNS=80 run compare --gpu h100-sxm,a100-80gb-sxm,l40s,rtx-4090 --lang $lang
	ok
	width_ok "$tmp/out" 80 || fail "$what: $(width_ok "$tmp/out" 80)"
	# every column is there, with every row
	# in Chinese the rows and the knob by their labels (tests/cli/compare_zh.sh)
	if [ $lang = en ]; then kn=gpu total=total; else kn=GPU total=合计; fi
	for g in h100-sxm a100-80gb-sxm l40s rtx-4090; do
		grep -q "^$kn .* $g\( \|\$\)" "$tmp/out" || fail "$what: no column $g"
	done
	[ "$(grep -c "^  $total " "$tmp/out")" -ge 2 ] || fail "$what: the row labels are not repeated for the second group"
	what="COLUMNS=60 compare --tp 1,2,3 --mode infer --lang $lang"
	COLUMNS=60 run compare --tp 1,2,3 --mode infer --lang $lang
	ok
	width_ok "$tmp/out" 60 || fail "$what: $(width_ok "$tmp/out" 60)"
done
what="compare in a pipe without COLUMNS: 80"
env -u COLUMNS "$NAPKIN" compare --gpu h100-sxm,a100-80gb-sxm,l40s,rtx-4090 >"$tmp/out" 2>"$tmp/err" || fail "$what: status $?"
width_ok "$tmp/out" 80 || fail "$what: $(width_ok "$tmp/out" 80)"
for lang in en zh; do
	what="COLUMNS=80 compare --help --lang $lang: the paragraph and --format fit"
	COLUMNS=80 run compare --help --lang $lang
	ok
	sed -n '1,/--format text|json/{p}' "$tmp/out" >"$tmp/help"
	sed -n '/--format text|json/{n;p;}' "$tmp/out" >>"$tmp/help"
	grep -q -- "--lora-targets q+v,all-linear" "$tmp/help" || fail "$what: no + form: $(cat "$tmp/help")"
	width_ok "$tmp/help" 80 || fail "$what: $(width_ok "$tmp/help" 80)"
done
what="COLUMNS=200 compare: one table"
COLUMNS=200 run compare --gpu h100-sxm,a100-80gb-sxm,l40s,rtx-4090
ok
[ "$(grep -c '^gpu ' "$tmp/out")" -eq 1 ] || fail "$what: split at 200 columns"
width_ok "$tmp/out" 200 || fail "$what: $(width_ok "$tmp/out" 200)"

if [ "$fails" -gt 0 ]; then
	echo "$fails failure(s)"
	exit 1
fi
echo "compare: all passed"
