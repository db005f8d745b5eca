#!/bin/sh
# The help (?) wraps a long description onto lines under its description column, never
# cuts it with "…", and scrolls: at 160×48 and at 80×24 every word of the longest rows is
# there, in order, once the lines of a row are joined.
. "$(dirname "$0")/lib.sh"
box="$TUI_TMP/box"
# the help box's inner text (between its borders), one row a line
inner() {
	screen | python3 -c '
import sys
lines = sys.stdin.read().split("\n")
top = next(i for i, l in enumerate(lines) if "Keys (? or Esc closes)" in l)
left = lines[top].rindex("\u250c", 0, lines[top].index("Keys"))
right = lines[top].index("\u2510", left)
for l in lines[top + 1:]:
    if l[left:left + 1] == "\u2514":
        break
    print(l[left + 1:right])
'
}
for size in "160 48" "80 24"; do
	w=${size% *} h=${size#* }
	stop
	start "$w" "$h"
	wait_for 'Memory per GPU' 'never drew'
	keys '?'
	wait_for 'Keys \(\? or Esc closes\)' "$size: no help"
	: >"$box"
	i=0
	while :; do
		inner >>"$box"
		screen | grep -q 'Data types: ▸ used by this scenario; e explains the selected one' && break
		i=$((i + 1))
		[ $i -gt 20 ] && fail "$size: PgDn never reached the end of the help"
		keys PgDn
		sleep 0.2
	done
	grep -q '…' "$box" && fail "$size: a help line is cut: $(grep '…' "$box" | head -1)"
	# a row is its first line and the lines under its description column that follow
	python3 - "$box" "$size" <<'PY' || fail "$size: a help row is not whole"
import sys, re
rows, cur = [], None
for l in open(sys.argv[1]).read().split("\n"):
    l = l.rstrip()
    l = l[1:] if l.startswith(" ") else l  # the box's one-column margin
    if re.match(r"^  \S.*?  +\S", l):
        cur = [l.strip()]
        rows.append(cur)
    elif cur is not None and re.match(r"^ {13}\S", l):
        cur.append(l.strip())
    else:
        cur = None
joined = [re.sub(r"\s+", " ", " ".join(r)) for r in rows]
want = [
    "c pin the scenario as a baseline (results show their difference); again: unpin",
    "u undo the last change: a knob, a pick, a lesson started or left, a file opened (32 kept)",
    "s save the scenario as YAML (atomic write; asks before overwriting a file napkin did not write)",
    "C compare: one knob's values side by side (k K pick the knob, GPUs first; a adds one)",
    "C-c interrupt: quit at once (status 130); unsaved changes go to napkin-unsaved.yaml, as nano's emergency save",
]
bad = [x for x in want if x not in joined]
for x in bad:
    print("missing:", x, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
	keys Escape
	wait_gone 'Keys \(\? or Esc closes\)' "$size: Esc did not close the help"
done
echo "ok: help wraps"
