#!/bin/sh
# The READMEs' `console` examples are real output: each `$ napkin ...` line is run, and every
# line pasted under it ("..." stands for lines left out) must be in what napkin prints now, in
# order; in each README the first example fits and a later one does not, and none asks for
# more context than its model has. README.zh-CN.md's
# examples run in Chinese (each has --lang zh, its verdicts are 放得下 / 放不下). When the
# model's numbers or the catalogue's words change on purpose, rerun the command and paste.
set -u
NAPKIN=${1:?usage: $0 PATH/TO/napkin}
case $NAPKIN in /*) ;; *) NAPKIN=$(pwd)/$NAPKIN ;; esac
command -v python3 >/dev/null 2>&1 || { echo "FAIL: python3 is missing (scripts/deps.sh test)"; exit 1; }
python3 - "$NAPKIN" README.md README.zh-CN.md <<'PY'
import shlex, subprocess, sys
napkin = sys.argv[1]
# each README's verdict words on the memory total line: (fits, does not fit), and the flag
# every one of its examples carries
RULES = {'README.md': ('): fits,', 'DOES NOT FIT', None),
         'README.zh-CN.md': ('）：放得下，', '）：放不下，', '--lang zh')}
# COLUMNS: the examples were pasted from a wide terminal, their lines whole (tests/cli/width.sh
# checks the same reports at 80 and 60 columns)
ENV = {'LC_ALL': 'C.UTF-8', 'PATH': '/usr/bin:/bin', 'HOME': '/nonexistent', 'COLUMNS': '200'}


def examples(readme):
    """(command, pasted lines) of each `$ napkin` line in the README's console blocks"""
    lines = open(readme, encoding='utf-8').read().split('\n')
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
                        yield cmd, want
                    cmd, want = l[2:].strip(), []
                else:
                    want.append(l)
        i += 1


bad, total = [], 0
for readme in sys.argv[2:]:
    fits, over, flag = RULES[readme]
    n, verdicts = 0, []
    for cmd, want in examples(readme):
        args = shlex.split(cmd)
        assert args[0] == 'napkin', cmd
        if flag and flag not in cmd:
            bad.append('%s: %s\n    (every example here has %s)' % (readme, cmd, flag))
        out = subprocess.run([napkin] + args[1:], capture_output=True, text=True, env=ENV)
        got = out.stdout.split('\n')
        verdicts.append('fits' if fits in out.stdout else 'does not fit' if over in out.stdout else '?')
        # an example shows a scenario as meant: none asks for more context than its model has
        if "exceeds the model's context" in out.stdout or '超出模型' in out.stdout:
            bad.append("%s: %s\n    asks for more context than its model has (a model with that context?)"
                       % (readme, cmd))
        at = 0
        for w in want:
            if w == '...':
                continue
            try:
                at = got.index(w, at) + 1
            except ValueError:
                bad.append('%s: %s\n    pasted: %s\n    (not in its output, in this order: rerun it and paste)'
                           % (readme, cmd, w))
                break
        n += 1
    if n < 2:
        bad.append('%s has %d console examples; expected at least 2' % (readme, n))
    elif verdicts[0] != 'fits' or 'does not fit' not in verdicts:
        bad.append('%s: the first example must fit and a later one must not (they: %s)'
                   % (readme, ', '.join(verdicts)))
    total += n
if bad:
    print('FAIL: a README shows output napkin does not print:')
    print('\n'.join(bad))
    sys.exit(1)
print('ok: %d README examples (%s) print what the READMEs show' % (total, ', '.join(sys.argv[2:])))
PY
