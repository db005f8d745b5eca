#!/bin/sh
# The explanations' label columns line up by display width in Chinese as in English (a CJK
# character takes two columns, Python's unicodedata.east_asian_width W and F; class trial L5
# and L6): in `report --explain`, each technique's four rows (memory per GPU, FLOPs per
# token, HBM traffic, time) start their values in one column, and each roofline point's
# rows (intensity, ridge, attainable, verdict, what, source) too, so the "=" of its three
# formulas line up; in `lesson 5 --text`, step 4's table of one layer's activations starts
# its descriptions in one column whatever the width of the sizes (2.00 GiB, 256.0 KiB).
. "$(dirname "$0")/../scripts/cli_lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is missing (scripts/deps.sh test)"; exit 1; }
cat >"$tmp/cols.py" <<'PY'
import re, sys, unicodedata
def width(s):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
kind, path, lang = sys.argv[1:4]
text = open(path, encoding="utf-8").read().split("\n")
bad = 0
def same(rows, what):
    global bad
    cols = {l: c for l, c in rows}
    if len(rows) < 2 or len(set(cols.values())) != 1:
        print("FAIL: %s %s: columns %s" % (lang, what, cols))
        bad = 1
if kind == "report":
    blocks, cur = [], None
    for line in text:
        if re.match(r"^(techniques|roofline)\.\w+(: |\uff1a)", line):
            cur = [line]
            blocks.append(cur)
        elif cur is not None and line.startswith("  "):
            cur.append(line)
        else:
            cur = None
    n = 0
    for b in blocks:
        rows = []
        for line in b[1:]:
            # "  label<2+ spaces>value" (or "label<spaces>= ..."); the (with minus without) note
            # and rows that continue the one above have no label
            m = re.match(r"^  (\S.*?)( {2,})(\S)", line)
            if m and not line.startswith("  (") and not line.startswith("  \uff08"):
                rows.append((m.group(1), width(line[:m.start(3)])))
        if b[0].startswith("techniques.") and "does not apply" not in " ".join(b) and "不适用" not in " ".join(b):
            same(rows, re.split(r"[:\uff1a]", b[0])[0])
            n += 1
        elif b[0].startswith("roofline."):
            same(rows, re.split(r"[:\uff1a]", b[0])[0])
            eq = [width(l[:l.index(" = ")]) for l in b[1:4] if " = " in l]
            if len(eq) != 3 or len(set(eq)) != 1:
                print("FAIL: %s %s: the = of the formulas at %s" % (lang, re.split(r"[:\uff1a]", b[0])[0], eq))
                bad = 1
            n += 1
    if n < 8:
        print("FAIL: %s: only %d technique and roofline blocks" % (lang, n))
        bad = 1
else:
    labels = {"zh": ("归一化", "统计量", "qkv", "注意力输出", "mlp", "注意力分数"),
              "en": ("norms", "stats", "qkv", "attn out", "mlp", "scores")}[lang]
    rows = []
    for line in text:
        m = re.match(r"^ {8}(%s) +([0-9.]+ [KMG]iB)( {2,})(\S)" % "|".join(map(re.escape, labels)), line)
        if m:
            rows.append((m.group(1), width(line[:m.start(4)])))
    if len(rows) != len(labels):
        print("FAIL: %s lesson 5: activation rows %s" % (lang, [r[0] for r in rows]))
        bad = 1
    same(rows, "lesson 5 step 4's activation table")
sys.exit(bad)
PY
for lang in zh en; do
	what="report --explain --lang $lang"
	COLUMNS=250 run report --explain --lang "$lang"
	ok
	python3 "$tmp/cols.py" report "$tmp/out" "$lang" || fail "$what: a label column does not line up"
	what="lesson 5 --text --lang $lang"
	COLUMNS=250 run lesson 5 --text --lang "$lang"
	ok
	python3 "$tmp/cols.py" lesson "$tmp/out" "$lang" || fail "$what: the activation table does not line up"
done
# the tokens of one step, which the compute pane's step row leaves out at 120x40: the
# default scenario's micro-batch 1 × grad_accum 16 × DP 8 (8 GPUs) × seq 4096
what="report --explain: tokens per step"
COLUMNS=250 run report --explain
ok
out_has "tokens   per step = micro-batch × grad_accum × DP × seq = 1 × 16 × 8 × 4096 = 524,288"
[ "$fails" -eq 0 ] || exit 1
echo "ok"
