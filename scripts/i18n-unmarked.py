#!/usr/bin/env python3
"""English a person may read that does not go through gettext (docs/i18n.md).

Every C string literal of src/ (xgettext --extract-all) that reads as English prose (two words
in a row of lowercase letters, the first of three or more, a space between; or a printf
conversion or a word, then a word of four letters or more), is not a msgid of po/napkin.pot, and
is not kept English by a rule of po/english-by-rule.txt, is listed as FILE:LINE: "text".
Exit status 1 when any is listed (the ctest i18n_unmarked), 0 when none.

  scripts/i18n-unmarked.py [FOLDER_OR_FILE...]   only those (default: src)
  scripts/i18n-unmarked.py --selftest            shows that an unmarked string is found

po/english-by-rule.txt: one rule a line, `PATH REGEX  # why`: the strings of PATH (a file, or a
folder and everything below it) that REGEX (Python, searched in the string as C writes it,
escapes such as \\n included) matches are English by rule: what a program reads (JSON, YAML,
shell completion, the man page's roff), citations kept as cited, PyTorch's own messages, ...
A rule that no string matches any more is an error too, so the list cannot go stale.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROSE = re.compile(r"[a-z]{3,} [a-z]{2,}")
# a conversion or a word, then a word of four letters or more: "%s weights, %s KV", "rows: %s"
PROSE2 = re.compile(r"(%[-+ #0-9.]*(?:l{0,2}|z)[a-z]|\b[a-zA-Z]{2,})[,:]? [a-z]{4,}")


def literals(paths):
    """(file, line, msgid) of every string literal xgettext finds in paths."""
    files = []
    for p in paths:
        if os.path.isdir(p):
            for d, _, names in os.walk(p):
                files += [os.path.join(d, n) for n in names if n.endswith((".c", ".h"))]
        else:
            files.append(p)
    files = sorted(os.path.relpath(f, ROOT) for f in files)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "all.pot")
        subprocess.run(["xgettext", "--from-code=UTF-8", "--language=C", "--extract-all", "--no-wrap",
                        "-o", out] + files, cwd=ROOT, check=True, stderr=subprocess.DEVNULL)
        text = open(out, encoding="utf-8").read() if os.path.exists(out) else ""
    for entry in text.split("\n\n"):
        locs = re.findall(r"^#: (.*)$", entry, re.M)
        m = re.search(r'^msgid ((?:".*"\n?)+)', entry, re.M)
        if not m:
            continue
        msgid = "".join(re.findall(r'"(.*)"', m.group(1)))
        for loc in " ".join(locs).split():
            f, _, line = loc.rpartition(":")
            yield f, int(line) if line.isdigit() else 0, msgid


def marked():
    text = open(os.path.join(ROOT, "po", "napkin.pot"), encoding="utf-8").read()
    ids = set()
    for m in re.finditer(r'^(?:msgctxt|msgid|msgid_plural) ((?:".*"\n)+)', text, re.M):
        ids.add("".join(re.findall(r'"(.*)"', m.group(1))))
    return ids


def rules():
    out = []
    path = os.path.join(ROOT, "po", "english-by-rule.txt")
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.split("  #", 1)[0].rstrip()
        if not line or line.startswith("#"):
            continue
        where, _, rx = line.partition(" ")
        if not rx:
            sys.exit("po/english-by-rule.txt:%d: a rule is `PATH REGEX  # why`" % n)
        out.append([n, where.rstrip("/"), re.compile(rx.strip()), 0])
    return out


def under(f, where):
    return f == where or f.startswith(where + "/")


def main(argv):
    if argv[1:2] == ["--selftest"]:
        with tempfile.TemporaryDirectory() as d:  # outside the tree: a scan running beside it never sees it
            probe = os.path.join(d, "planted.c")
            open(probe, "w").write('const char *s = "this sentence is not marked";\n')
            found = [x for x in literals([probe]) if x[2] == "this sentence is not marked"]
        print("selftest:", "found the planted string" if found else "MISSED the planted string")
        return 0 if found else 1
    paths = [os.path.join(ROOT, p) if not os.path.isabs(p) else p for p in argv[1:]] or [os.path.join(ROOT, "src")]
    ids, rs = marked(), rules()
    bad = []
    for f, line, s in literals(paths):
        if s in ids or not (PROSE.search(s) or PROSE2.search(s)):
            continue
        hit = next((r for r in rs if under(f, r[1]) and r[2].search(s)), None)
        if hit:
            hit[3] += 1
            continue
        bad.append('%s:%d: "%s"' % (f, line, s[:160]))
    for b in sorted(set(bad)):
        print(b)
    stale = [r for r in rs if r[3] == 0 and not argv[1:]]
    for r in stale:
        print("po/english-by-rule.txt:%d: no string matches this rule any more: drop it" % r[0])
    if bad:
        print("%d unmarked English strings: mark them (docs/i18n.md) or add a rule with its reason" % len(set(bad)))
    return 1 if bad or stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
