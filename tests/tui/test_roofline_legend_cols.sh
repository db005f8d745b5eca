#!/bin/sh
# The roofline legend at 120×40 and 160×60, in Chinese and in English: the four rows (T P D
# E) take one form, their intensities end in one column and their bounds start in one
# column (the names padded by display width: "Element-wise 操作" is 17 columns), nothing is
# cut with "…", and the bound is the chapter's word in full (Compute-Bound, Memory-Bound,
# docs/glossary.md). The figures are H100 SXM's datasheet: 989.5 TFLOP/s ÷ 3.35 TB/s, a
# ridge of 295 FLOP/B; a ReLU in bf16 moves 4 bytes for 1 FLOP (0.25 FLOP/B), under it.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "skipped: python3 measures the columns"; exit 0; }
for lang in zh en; do
	for size in "120 40" "160 60"; do
		stop
		start ${size% *} ${size#* } --lang "$lang"
		wait_for 'Roofline' "$lang $size: no roofline pane"
		screen >"$TUI_TMP/s"
		python3 - "$TUI_TMP/s" "$lang" <<'PY' || fail "$lang $size: the roofline legend is cut or out of line"
import re, sys, unicodedata
def width(s):
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
lang = sys.argv[2]
words = {"zh": ("Compute-Bound", "Memory-Bound"), "en": ("compute-bound", "memory-bound")}[lang]
names = {"zh": ("训练步", "Prefill", "解码步", "Element-wise 操作"),
         "en": ("training step", "prefill", "decode step", "element-wise op")}[lang]
rows = {}
for line in open(sys.argv[1], encoding="utf-8").read().split("\n"):
    for letter, name in zip("TPDE", names):
        m = re.search(r"\u2502%s %s +([0-9.,k]+)( FLOP/B)? ([A-Za-z-]+)" % (letter, re.escape(name)), line)
        if m:
            rows[letter] = (width(line[:m.start(1)]), width(line[:m.end(1)]), width(line[:m.start(3)]), m.group(3), line)
bad = 0
if sorted(rows) != sorted("TPDE"):
    print("legend rows found: %s" % "".join(sorted(rows)))
    sys.exit(1)
for what, k in (("intensities end", 1), ("bounds start", 2)):
    cols = {l: r[k] for l, r in rows.items()}
    if len(set(cols.values())) != 1:
        print("the %s in different columns: %s" % (what, cols))
        bad = 1
for l, r in rows.items():
    if "\u2026" in r[4]:
        print("row %s is cut: %s" % (l, r[4]))
        bad = 1
want = {"T": words[0], "P": words[0], "D": words[1], "E": words[1]}
for l, r in rows.items():
    if r[3] != want[l]:
        print("row %s says %r, not %r" % (l, r[3], want[l]))
        bad = 1
sys.exit(bad)
PY
	done
done
exit 0
