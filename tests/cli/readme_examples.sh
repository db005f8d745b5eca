#!/bin/sh
# The README's `console` examples are real output: each `$ napkin ...` line is run, and every
# line pasted under it ("..." stands for lines left out) must be in what napkin prints now, in
# order; the first example fits and a later one does not. When the model's numbers change
# on purpose, rerun the command and paste its lines.
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
case $NAPKIN in /*) ;; *) NAPKIN=$(pwd)/$NAPKIN ;; esac
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is missing (scripts/deps.sh test)"; exit 1; }
python3 - "$NAPKIN" README.md <<'PY'
import shlex, subprocess, sys
napkin, readme = sys.argv[1], sys.argv[2]
lines = open(readme, encoding='utf-8').read().split('\n')
bad, n, verdicts = [], 0, []
i = 0
while i < len(lines):
    if lines[i].strip() == '```console':
        block = []
        i += 1
        while i < len(lines) and lines[i].strip() != '```':
            block.append(lines[i])
            i += 1
        cmd, want = None, []
        for l in block + ['$ ']:
            if l.startswith('$ '):
                if cmd is not None:
                    args = shlex.split(cmd)
                    assert args[0] == 'napkin', cmd
                    out = subprocess.run([napkin] + args[1:], capture_output=True, text=True,
                                         env={'LC_ALL': 'C.UTF-8', 'PATH': '/usr/bin:/bin', 'HOME': '/nonexistent'})
                    got = out.stdout.split('\n')
                    verdicts.append('fits' if '): fits,' in out.stdout else 'does not fit' if 'DOES NOT FIT' in out.stdout else '?')
                    at = 0
                    for w in want:
                        if w == '...':
                            continue
                        try:
                            at = got.index(w, at) + 1
                        except ValueError:
                            bad.append('%s\n    pasted: %s\n    (not in its output, in this order: rerun it and paste)' % (cmd, w))
                            break
                    n += 1
                cmd, want = l[2:].strip(), []
            else:
                want.append(l)
    i += 1
if n < 2:
    bad.append('the README has %d console examples; expected at least 2' % n)
elif verdicts[0] != 'fits' or 'does not fit' not in verdicts:
    bad.append('the first example must fit and a later one must not (they: %s)' % ', '.join(verdicts))
if bad:
    print('FAIL: the README shows output napkin does not print:')
    print('\n'.join(bad))
    sys.exit(1)
print('ok: %d README examples print what the README shows' % n)
PY
